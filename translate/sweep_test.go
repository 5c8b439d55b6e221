package translate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// sweepRow is a shared answer's row of application app and metric name.
func sweepRow(app, name string, begin float64) map[string]any {
	return map[string]any{"facet": []any{app, name}, "beginTimeSeconds": begin, "endTimeSeconds": begin + 60, "c": 1, "s": 2}
}

// A shared query's answer is split by application: an application NerdGraph shows in
// the caller's account gets its rows (an application id as a string or a number), one
// it does not show answers 404 as alone; an answer whose facets are not [appId, name],
// or a refused query, is used by nobody: each request is asked alone.
func TestSweepAnswerSplitByApplication(t *testing.T) {
	entities := []any{
		map[string]any{"__typename": "ApmApplicationEntity", "guid": AppGUID(1, DomainAPM, 7), "accountId": 1},
		map[string]any{"__typename": "ApmApplicationEntity", "guid": AppGUID(1, DomainAPM, 8), "accountId": 2}, // another account
	}
	answer := func(rows []any) any {
		return map[string]any{"actor": map[string]any{"entities": entities, "account": map[string]any{"q": map[string]any{"results": rows}}}}
	}
	aloneErr := errors.New("asked alone")
	tests := []struct {
		name    string
		answer  any
		refused error
		want    map[int64]string // app → its first row's metric, "404", or "alone"
	}{
		{"split", answer([]any{sweepRow("7", "HttpDispatcher", 0), map[string]any{"facet": []any{7, "Apdex"}, "beginTimeSeconds": 0},
			sweepRow("8", "HttpDispatcher", 0), sweepRow("9", "HttpDispatcher", 0)}),
			nil, map[int64]string{7: "2 names", 8: "404", 9: "404"}},
		{"facets not by application", answer([]any{map[string]any{"facet": "HttpDispatcher"}}), nil,
			map[int64]string{7: "alone", 8: "alone", 9: "alone"}},
		{"refused", nil, &ng.Error{Kind: ng.KindRateLimited}, map[int64]string{7: "alone", 8: "alone", 9: "alone"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &opFake{answer: func(op string, _ map[string]any) (any, error) {
				if op != "MetricSweep" {
					return nil, fmt.Errorf("unexpected %s", op)
				}
				return tc.answer, tc.refused
			}}
			tr := New(f, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			w := metricdata.Window{Since: time.Unix(0, 0), Until: time.Unix(1800, 0), Period: time.Minute}
			fetch := &sweepFetch{done: make(chan struct{})}
			tr.runSweep(context.Background(), c, []string{"HttpDispatcher", "Apdex"}, w, false, []int64{7, 8, 9}, fetch)
			for app, want := range tc.want {
				series, err := tr.awaitSweep(context.Background(), fetch, app, func() (map[string][]metricdata.Row, error) { return nil, aloneErr })
				var ve *restv2.Error
				got := fmt.Sprintf("%d names", len(series))
				switch {
				case errors.Is(err, aloneErr):
					got = "alone"
				case errors.As(err, &ve) && ve.Status == 404:
					got = "404"
				case err != nil:
					got = err.Error()
				}
				if got != want {
					t.Errorf("application %d: %s, want %s", app, got, want)
				}
			}
		})
	}
}
