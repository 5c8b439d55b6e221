package translate

// Parameter boundaries of the metric window and the deployment rules (issue 22),
// written against surviving mutants of `make mutate PKG=./translate` (gremlins v0.6.0).
// Each case says which mutant (file:line, changed operator) it kills.

import (
	"strings"
	"testing"
	"time"
)

// TestDefaultPeriodBoundariesMut pins REST v2's period-by-range table at each edge
// (REFERENCE.md §6; metrics.go defaultPeriod: every `span <= X` → `span < X`).
func TestDefaultPeriodBoundariesMut(t *testing.T) {
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
		// Old windows: ten evenly spaced points, rounded up to a whole minute, at least
		// one minute (metrics.go:118 `span <= 4*day` → `<`; `- 1` → `+ 1`).
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

// TestResolveWindowBoundariesMut pins the 60-second minimum, from == to, the 8-day
// "old window" rule, period coarsening only, and the 366-slice limit (metrics.go
// resolveWindow).
func TestResolveWindowBoundariesMut(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	tests := []struct {
		name       string
		req        MetricDataRequest
		wantErr    bool
		wantPeriod time.Duration
	}{
		// metrics.go:87 `span < time.Minute` → `<=` refuses exactly 60 s.
		{"exactly 60 s", MetricDataRequest{From: at(-time.Hour), To: at(-time.Hour + time.Minute)}, false, time.Minute},
		{"59 s", MetricDataRequest{From: at(-time.Hour), To: at(-time.Hour + 59*time.Second)}, true, 0},
		// metrics.go:84 `span < 0` → `<= 0`: from == to is the "too short" error, not "before".
		{"to before from", MetricDataRequest{From: at(-time.Hour), To: at(-2 * time.Hour)}, true, 0},
		// metrics.go:90 `> 8*24h` → `>=`: a start exactly 8 days ago is not old.
		{"start exactly 8 days ago", MetricDataRequest{From: at(-8 * 24 * time.Hour), To: at(-8*24*time.Hour + 100*time.Minute)}, false, time.Minute},
		{"start 8 days and 1 minute ago", MetricDataRequest{From: at(-8*24*time.Hour - time.Minute), To: at(-8*24*time.Hour + 99*time.Minute)}, false, 10 * time.Minute},
		// metrics.go:92 `p > w.period` → `>=`/`<`: a period finer than the default is ignored.
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
	// metrics.go:104 `n > 366` → `>=`: 366 slices are accepted, 367 refused.
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

// TestDeploymentLimitsMut pins REST v2's deployment limits in characters, not bytes,
// at each edge (deployments.go Validate: `n > f.max` → `>=`, RuneCount → len, `r >
// 0xFFFF` → `>=`, `Timestamp.After(now)`).
func TestDeploymentLimitsMut(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	s := func(v string) *string { return &v }
	bmp := "\uFFFF" // the last 3-byte character: allowed
	tests := []struct {
		name    string
		in      DeploymentInput
		wantErr string
	}{
		{"revision 127 characters", DeploymentInput{Revision: strings.Repeat("é", 127)}, ""},
		{"revision 128 characters", DeploymentInput{Revision: strings.Repeat("a", 128)}, "deployment.revision is too long: 128 characters, at most 127"},
		{"user 31 characters of 3 bytes", DeploymentInput{Revision: "r", User: s(strings.Repeat("€", 31))}, ""},
		{"user 32 characters", DeploymentInput{Revision: "r", User: s(strings.Repeat("u", 32))}, "deployment.user is too long"},
		{"changelog 65535 characters", DeploymentInput{Revision: "r", Changelog: s(strings.Repeat("é", 65535))}, ""},
		{"changelog 65536", DeploymentInput{Revision: "r", Changelog: s(strings.Repeat("c", 65536))}, "deployment.changelog is too long"},
		{"description 65536", DeploymentInput{Revision: "r", Description: s(strings.Repeat("d", 65536))}, "deployment.description is too long"},
		{"U+FFFF allowed", DeploymentInput{Revision: "r" + bmp}, ""},
		{"emoji refused", DeploymentInput{Revision: "r\U0001F600"}, "4-byte UTF-8"},
		{"U+10000 refused", DeploymentInput{Revision: "r\U00010000"}, "4-byte UTF-8"},
		{"invalid UTF-8", DeploymentInput{Revision: "r\xff"}, "not valid UTF-8"},
		{"blank revision", DeploymentInput{Revision: " \t"}, "deployment.revision is required"},
		{"timestamp now", DeploymentInput{Revision: "r", Timestamp: &now}, ""},
		{"timestamp 1s ahead", DeploymentInput{Revision: "r", Timestamp: func() *time.Time { t := now.Add(time.Second); return &t }()}, "in the future"},
	}
	for _, tt := range tests {
		err := tt.in.Validate(now)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}
