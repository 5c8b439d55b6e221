package sim

import (
	"context"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
)

// SummaryFunc computes an APM application's apmSummary at a time (for example from the
// same metric data NRQL serves, so summaries and metrics agree). A nil result keeps
// the summary of the data file.
type SummaryFunc func(accountID int, appID int64, now time.Time) *model.ApmApplicationSummaryData

// WithSummaries makes apmSummary come from f.
func WithSummaries(f SummaryFunc) Option {
	return func(s *Server) { s.summary = f }
}

func (r *resolver) apmSummary(static *model.ApmApplicationSummaryData, accountID, appID *int) *model.ApmApplicationSummaryData {
	if static == nil || r.s.summary == nil || accountID == nil || appID == nil {
		return static
	}
	dyn := r.s.summary(*accountID, int64(*appID), r.s.now())
	if dyn == nil {
		return static
	}
	out := *dyn
	out.HostCount, out.InstanceCount = static.HostCount, static.InstanceCount
	return &out
}

type apmOutlineResolver struct{ *resolver }

// ApmSummary is the application's summary at the simulator's clock.
func (r apmOutlineResolver) ApmSummary(_ context.Context, obj *model.ApmApplicationEntityOutline) (*model.ApmApplicationSummaryData, error) {
	return r.apmSummary(obj.ApmSummary, obj.AccountID, obj.ApplicationID), nil
}

// ApmSummary is the application's summary at the simulator's clock.
func (r apmApplicationResolver) ApmSummary(_ context.Context, obj *model.ApmApplicationEntity) (*model.ApmApplicationSummaryData, error) {
	return r.apmSummary(obj.ApmSummary, obj.AccountID, obj.ApplicationID), nil
}
