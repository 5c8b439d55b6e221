package translate

import (
	"strings"
	"testing"
	"time"
)

// TestDefaultPeriodBoundaries pins REST v2's period-by-range table at each edge.
func TestDefaultPeriodBoundaries(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		span time.Duration
		old  bool
		want time.Duration
	}{
		{3 * time.Hour, false, time.Minute}, {3*time.Hour + time.Second, false, 2 * time.Minute},
		{6 * time.Hour, false, 2 * time.Minute}, {6*time.Hour + time.Second, false, 5 * time.Minute},
		{14 * time.Hour, false, 5 * time.Minute}, {14*time.Hour + time.Second, false, 10 * time.Minute},
		{day, false, 10 * time.Minute}, {day + time.Second, false, 30 * time.Minute},
		{4 * day, false, 30 * time.Minute}, {4*day + time.Second, false, time.Hour},
		{7 * day, false, time.Hour}, {7*day + time.Second, false, 3 * time.Hour},
		{21 * day, false, 3 * time.Hour}, {21*day + time.Second, false, 6 * time.Hour},
		{42 * day, false, 6 * time.Hour}, {42*day + time.Second, false, 12 * time.Hour},
		{63 * day, false, 12 * time.Hour}, {63*day + time.Second, false, 3 * day},
		// Old windows: ten evenly spaced points, rounded up to a whole minute, at least one
		// minute.
		{4 * day, true, 576 * time.Minute},
		{4*day + time.Second, true, time.Hour},
		{100 * time.Minute, true, 10 * time.Minute},
		{101 * time.Minute, true, 11 * time.Minute},
		{2 * time.Minute, true, time.Minute},
	}
	for _, tt := range tests {
		if got := defaultPeriod(tt.span, tt.old); got != tt.want {
			t.Errorf("defaultPeriod(%v, old=%v) = %v, want %v", tt.span, tt.old, got, tt.want)
		}
	}
}

// TestResolveWindowBoundaries pins the 60-second minimum, from == to, the 8-day
// "old window" rule, period coarsening only, and the 366-slice limit (metrics.go
// resolveWindow).
func TestResolveWindowBoundaries(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	tests := []struct {
		name       string
		req        MetricDataRequest
		wantErr    bool
		wantPeriod time.Duration
	}{
		// Exactly 60 s is accepted.
		{"exactly 60 s", MetricDataRequest{From: at(-time.Hour), To: at(-time.Hour + time.Minute)}, false, time.Minute},
		{"59 s", MetricDataRequest{From: at(-time.Hour), To: at(-time.Hour + 59*time.Second)}, true, 0},
		// from == to is the "too short" error, not "before".
		{"to before from", MetricDataRequest{From: at(-time.Hour), To: at(-2 * time.Hour)}, true, 0},
		// A start exactly 8 days ago is not old.
		{"start exactly 8 days ago", MetricDataRequest{From: at(-8 * 24 * time.Hour), To: at(-8*24*time.Hour + 100*time.Minute)}, false, time.Minute},
		{"start 8 days and 1 minute ago", MetricDataRequest{From: at(-8*24*time.Hour - time.Minute), To: at(-8*24*time.Hour + 99*time.Minute)}, false, 10 * time.Minute},
		// A period finer than the default is ignored.
		{"finer period ignored", MetricDataRequest{From: at(-7 * time.Hour), To: at(0), Period: 60}, false, 5 * time.Minute},
		{"coarser period taken", MetricDataRequest{From: at(-7 * time.Hour), To: at(0), Period: 3600}, false, time.Hour},
		{"period truncated to minutes", MetricDataRequest{From: at(-time.Hour), To: at(0), Period: 150}, false, 2 * time.Minute},
		{"default range", MetricDataRequest{}, false, time.Minute},
	}
	for _, tt := range tests {
		w, err := resolveWindow(tt.req, now)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		if err == nil && w.period != tt.wantPeriod {
			t.Errorf("%s: period %v, want %v", tt.name, w.period, tt.wantPeriod)
		}
	}
	// 366 slices are accepted, 367 refused.
	for n, wantErr := range map[int]bool{366: false, 367: true} {
		req := MetricDataRequest{From: at(-time.Duration(n) * 3 * 24 * time.Hour), To: at(0), Period: 3 * 24 * 3600}
		// Align so the range is exactly n periods.
		from := alignDown(now, 3*24*time.Hour).Add(-time.Duration(n) * 3 * 24 * time.Hour)
		to := alignDown(now, 3*24*time.Hour)
		req.From, req.To = &from, &to
		if _, err := resolveWindow(req, now); (err != nil) != wantErr {
			t.Errorf("%d slices: err = %v, want error %v", n, err, wantErr)
		}
	}
	// From alone, in the future of to's default: to follows from by the default range.
	w, err := resolveWindow(MetricDataRequest{From: at(time.Hour)}, now)
	if err != nil || !w.to.Equal(now.Add(time.Hour+DefaultMetricRange)) {
		t.Errorf("from only: to = %v, %v", w.to, err)
	}
}

// An empty range is "too short", not "reversed"; a start exactly 8 days old keeps the
// minute period, one a second older takes the old-window period.
func TestMetricWindowEdges(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	at := now.Add(-time.Hour)
	_, err := resolveWindow(MetricDataRequest{From: &at, To: &at}, now)
	if err == nil || !strings.Contains(err.Error(), "at least 60 seconds") {
		t.Fatalf("an empty range: %v", err)
	}
	from := now.Add(-8 * 24 * time.Hour)
	to := from.Add(time.Hour)
	w, err := resolveWindow(MetricDataRequest{From: &from, To: &to}, now)
	if err != nil || w.period != time.Minute {
		t.Fatalf("a start exactly 8 days old: period %v, %v; want 1m", w.period, err)
	}
	older := from.Add(-time.Second)
	w, err = resolveWindow(MetricDataRequest{From: &older, To: &to}, now)
	if err != nil || w.period != 7*time.Minute {
		t.Fatalf("a start 8 days and 1 s old: period %v, %v", w.period, err)
	}
}
