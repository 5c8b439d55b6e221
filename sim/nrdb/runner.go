package nrdb

import (
	"context"
	"time"
)

// Runner parses and executes NRQL over a Source; it is the simulator's NRQLRunner.
type Runner struct {
	parser Parser
	src    Source
}

// NewRunner returns a runner over src.
func NewRunner(src Source) *Runner { return &Runner{src: src} }

// RunNRQL parses query and runs it in the accounts.
func (r *Runner) RunNRQL(ctx context.Context, accountIDs []int, query string, now time.Time) ([]map[string]any, time.Time, time.Time, error) {
	q, err := r.parser.Parse(query)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	res, err := Execute(ctx, q, accountIDs, r.src, now)
	if err != nil {
		return nil, time.Time{}, time.Time{}, err
	}
	return res.Rows, res.Begin, res.End, nil
}
