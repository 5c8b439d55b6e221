package sim

import (
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// DemoSummaries computes an APM application's apmSummary as NewDemo serves it, from the
// demo's generated metrics over data (a REST double answering the same figures).
func DemoSummaries(data *Data) SummaryFunc {
	src := metricSource(data, DemoSeed, time.Time{})
	return func(accountID int, appID int64, now time.Time) *model.ApmApplicationSummaryData {
		return demoSummary(src, accountID, appID, now)
	}
}

// DemoTimeslices are the demo's generated timeslices over data, as NewDemo started at
// start serves them through NRQL (without its ingest delay), for a REST double that
// derives hosts', instances' and key transactions' figures from them.
func DemoTimeslices(data *Data, start time.Time) *timeslice.Source {
	return metricSource(data, DemoSeed, start)
}
