package translate

import (
	"context"
	"testing"
	"time"
)

// NRQL returns a numeric facet as a JSON number, which Go decodes to float64 and
// fmt prints as 7e+06 from a million on; every facet reader takes numbers of any
// size and strings alike.
func TestFacetIntReadsNumbersOfAnySizeAndStrings(t *testing.T) {
	tests := []struct {
		in     any
		want   int64
		wantOK bool
	}{
		{float64(7), 7, true},
		{float64(7_000_000), 7_000_000, true},
		{float64(1_500_000_123), 1_500_000_123, true},
		{"7000000", 7_000_000, true},
		{float64(1.5), 1, false},
		{"checkout", 0, false},
		{nil, 0, false},
	}
	for _, tt := range tests {
		got, ok := facetInt(tt.in)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("facetInt(%#v) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

// A key transaction's summary row faceted by an application id of a million or more
// is matched to its key transaction (it was dropped, leaving the summary at zero).
func TestKeyTransactionSummaryOfLargeApplicationID(t *testing.T) {
	const app = 7_000_000
	rows := []map[string]any{
		{"facet": []any{float64(app), "WebTransaction/Controller/checkout"}, "c": 20.0, "s": 2.0},
		{"facet": []any{"7000001", "WebTransaction/Controller/checkout"}, "c": 4.0, "s": 1.0},
	}
	f := &opFake{answer: func(string, map[string]any) (any, error) { return nrqlAnswer(rows), nil }}
	tr := New(f, Options{Now: func() time.Time { return ktClock }})
	ks := []keyTx{{id: 1, appID: app, metricName: "WebTransaction/Controller/checkout"},
		{id: 2, appID: app + 1, metricName: "WebTransaction/Controller/checkout"}}
	out := map[ktStatKey]ktStatRow{}
	if err := tr.keyTxStatsInto(context.Background(), Caller{AccountID: 1}, ks, ktClock, out); err != nil {
		t.Fatal(err)
	}
	if r, ok := out[ktStatKey{app, "WebTransaction/Controller/checkout"}]; !ok || r.C != 20 {
		t.Errorf("numeric facet %d: row %+v, found %v", app, r, ok)
	}
	if r, ok := out[ktStatKey{app + 1, "WebTransaction/Controller/checkout"}]; !ok || r.C != 4 {
		t.Errorf("string facet: row %+v, found %v", r, ok)
	}
}
