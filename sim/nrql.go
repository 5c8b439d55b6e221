package sim

import (
	"context"
	"errors"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/v2bridge/v2bridge/sim/model"
)

// NRQLRunner runs NRQL for Account.nrql and Actor.nrql. accountIDs are the accounts
// the query runs in (already checked against the caller's key); now is the simulator's
// clock. It returns the result rows (NrdbResultContainer.results, one JSON object per
// row) and the time window the query covered (metadata.timeWindow).
//
// An error becomes a GraphQL error with the error's message. Its extensions.errorClass
// is the error's ErrorClass() string when it has that method, TIMEOUT when it wraps
// context.DeadlineExceeded (the simulator gives the runner a deadline of the query's
// `timeout:` argument, 5 s by default), and INVALID_INPUT otherwise.
type NRQLRunner interface {
	RunNRQL(ctx context.Context, accountIDs []int, query string, now time.Time) (results []map[string]any, begin, end time.Time, err error)
}

// NRQLRunnerFunc adapts a function to NRQLRunner.
type NRQLRunnerFunc func(ctx context.Context, accountIDs []int, query string, now time.Time) ([]map[string]any, time.Time, time.Time, error)

// RunNRQL calls f.
func (f NRQLRunnerFunc) RunNRQL(ctx context.Context, accountIDs []int, query string, now time.Time) ([]map[string]any, time.Time, time.Time, error) {
	return f(ctx, accountIDs, query, now)
}

// NerdGraph's NRQL timeout: 5 s by default, at most 120 s (newrelic/docs-website
// src/content/docs/nrql/using-nrql/rate-limits-nrql-queries.mdx).
const (
	defaultNRQLTimeout = 5 * time.Second
	maxNRQLTimeout     = 120 * time.Second
)

// nrqlResult is what both NRQL fields return.
type nrqlResult struct {
	results  []any
	metadata *model.NrdbMetadata
}

func (s *Server) runNRQL(ctx context.Context, accountIDs []int, query string, timeout *float64) (*nrqlResult, error) {
	if s.nrql == nil {
		return nil, gqlError("", "NRQL is not enabled in this simulator")
	}
	if !s.budget.take(accountIDs, s.now()) {
		return nil, gqlError("TOO_MANY_REQUESTS", "NRQL query limit reached: %d queries per account per minute", s.budget.limit)
	}
	d := defaultNRQLTimeout
	if timeout != nil && *timeout > 0 {
		d = min(time.Duration(*timeout*float64(time.Second)), maxNRQLTimeout)
	}
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	rows, begin, end, err := s.nrql.RunNRQL(rctx, accountIDs, query, s.now())
	if err != nil {
		return nil, nrqlError(err)
	}
	results := make([]any, len(rows))
	for i, r := range rows {
		results[i] = r
	}
	tw := &model.NrdbMetadataTimeWindow{}
	if !begin.IsZero() {
		tw.Begin = ptr(begin.UnixMilli())
	}
	if !end.IsZero() {
		tw.End = ptr(end.UnixMilli())
	}
	return &nrqlResult{results: results, metadata: &model.NrdbMetadata{TimeWindow: tw}}, nil
}

func nrqlError(err error) *gqlerror.Error {
	var classed interface{ ErrorClass() string }
	switch {
	case errors.As(err, &classed):
		return gqlError(classed.ErrorClass(), "%s", err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return gqlError(classTimeout, "NRDB query timed out: %s", err.Error())
	}
	return gqlError(classInvalidInput, "%s", err.Error())
}
