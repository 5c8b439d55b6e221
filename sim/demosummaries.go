package sim

import (
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
)

// DemoSummaries computes an APM application's apmSummary as NewDemo serves it, from the
// demo's generated metrics over data (a REST double answering the same figures).
func DemoSummaries(data *Data) SummaryFunc {
	src := metricSource(data, DemoSeed, time.Time{})
	return func(accountID int, appID int64, now time.Time) *model.ApmApplicationSummaryData {
		return demoSummary(src, accountID, appID, now)
	}
}
