package metricdata

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
// "old window" rule, period coarsening only, and the 366-slice limit (window.go
// ResolveWindow).
func TestResolveWindowBoundaries(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	tests := []struct {
		name       string
		req        Request
		wantErr    bool
		wantPeriod time.Duration
	}{
		// Exactly 60 s is accepted.
		{"exactly 60 s", Request{From: at(-time.Hour), To: at(-time.Hour + time.Minute)}, false, time.Minute},
		{"59 s", Request{From: at(-time.Hour), To: at(-time.Hour + 59*time.Second)}, true, 0},
		// from == to is the "too short" error, not "before".
		{"to before from", Request{From: at(-time.Hour), To: at(-2 * time.Hour)}, true, 0},
		// A start exactly 8 days ago is not old.
		{"start exactly 8 days ago", Request{From: at(-8 * 24 * time.Hour), To: at(-8*24*time.Hour + 100*time.Minute)}, false, time.Minute},
		{"start 8 days and 1 minute ago", Request{From: at(-8*24*time.Hour - time.Minute), To: at(-8*24*time.Hour + 99*time.Minute)}, false, 10 * time.Minute},
		// A period finer than the default is ignored.
		{"finer period ignored", Request{From: at(-7 * time.Hour), To: at(0), Period: 60}, false, 5 * time.Minute},
		{"coarser period taken", Request{From: at(-7 * time.Hour), To: at(0), Period: 3600}, false, time.Hour},
		{"period truncated to minutes", Request{From: at(-time.Hour), To: at(0), Period: 150}, false, 2 * time.Minute},
		{"default range", Request{}, false, time.Minute},
	}
	for _, tt := range tests {
		w, err := ResolveWindow(tt.req, now)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		if err == nil && w.Period != tt.wantPeriod {
			t.Errorf("%s: period %v, want %v", tt.name, w.Period, tt.wantPeriod)
		}
	}
	// 366 slices are accepted, 367 refused.
	for n, wantErr := range map[int]bool{366: false, 367: true} {
		req := Request{From: at(-time.Duration(n) * 3 * 24 * time.Hour), To: at(0), Period: 3 * 24 * 3600}
		// Align so the range is exactly n periods.
		from := alignDown(now, 3*24*time.Hour).Add(-time.Duration(n) * 3 * 24 * time.Hour)
		to := alignDown(now, 3*24*time.Hour)
		req.From, req.To = &from, &to
		if _, err := ResolveWindow(req, now); (err != nil) != wantErr {
			t.Errorf("%d slices: err = %v, want error %v", n, err, wantErr)
		}
	}
	// From alone, in the future of to's default: to follows from by the default range.
	w, err := ResolveWindow(Request{From: at(time.Hour)}, now)
	if err != nil || !w.To.Equal(now.Add(time.Hour+DefaultRange)) {
		t.Errorf("from only: to = %v, %v", w.To, err)
	}
}

// An empty range is "too short", not "reversed"; a start exactly 8 days old keeps the
// minute period, one a second older takes the old-window period.
func TestMetricWindowEdges(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	at := now.Add(-time.Hour)
	_, err := ResolveWindow(Request{From: &at, To: &at}, now)
	if err == nil || !strings.Contains(err.Error(), "at least 60 seconds") {
		t.Fatalf("an empty range: %v", err)
	}
	from := now.Add(-8 * 24 * time.Hour)
	to := from.Add(time.Hour)
	w, err := ResolveWindow(Request{From: &from, To: &to}, now)
	if err != nil || w.Period != time.Minute {
		t.Fatalf("a start exactly 8 days old: period %v, %v; want 1m", w.Period, err)
	}
	older := from.Add(-time.Second)
	w, err = ResolveWindow(Request{From: &older, To: &to}, now)
	if err != nil || w.Period != 7*time.Minute {
		t.Fatalf("a start 8 days and 1 s old: period %v, %v", w.Period, err)
	}
}

func TestResolveWindow(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)
	at := func(s string) *time.Time { return timeAt(t, s) }
	tests := []struct {
		name          string
		give          Request
		wantPeriod    time.Duration
		wantSince     string
		wantUntil     string
		wantErrStatus int
	}{
		// The default range is placed three minutes earlier (IngestLag;
		// TestWindowPlacedAsRESTRecorded).
		{name: "default 30 minutes", give: Request{}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T11:27:00Z", wantUntil: "2026-11-20T11:57:00Z"},
		// A range up to now ends at the newest ingested minute (Ingested: 11:57), its
		// slices running back from there.
		{name: "5 hours up to now", give: Request{From: at("2026-11-20T07:00:00Z"), To: at("2026-11-20T12:00:00Z")}, wantPeriod: 2 * time.Minute,
			wantSince: "2026-11-20T07:01:00Z", wantUntil: "2026-11-20T11:57:00Z"},
		{name: "from without to", give: Request{From: at("2026-11-20T11:00:00Z")}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T11:00:00Z", wantUntil: "2026-11-20T11:57:00Z"},
		{name: "default summarized with a period: the one slice stays put", give: Request{Summarize: true, Period: 600}, wantPeriod: 10 * time.Minute,
			wantSince: "2026-11-20T11:28:00Z", wantUntil: "2026-11-20T11:58:00Z"},
		{name: "from only summarized with a period: one slice over the range", give: Request{From: at("2026-11-20T11:00:00Z"), Period: 600, Summarize: true},
			wantPeriod: 58 * time.Minute, wantSince: "2026-11-20T11:00:00Z", wantUntil: "2026-11-20T11:58:00Z"},
		{name: "period only coarsens", give: Request{From: at("2026-11-20T10:00:00Z"), To: at("2026-11-20T11:00:00Z"), Period: 10},
			wantPeriod: time.Minute, wantSince: "2026-11-20T10:00:00Z", wantUntil: "2026-11-20T11:00:00Z"},
		{name: "coarser period: whole slices ending at to", give: Request{From: at("2026-11-20T10:07:00Z"), To: at("2026-11-20T10:58:00Z"), Period: 900},
			wantPeriod: 15 * time.Minute, wantSince: "2026-11-20T10:13:00Z", wantUntil: "2026-11-20T10:58:00Z"},
		{name: "period past the range: one slice covering it", give: Request{From: at("2026-11-20T10:10:00Z"), To: at("2026-11-20T10:40:00Z"), Period: 3600},
			wantPeriod: 30 * time.Minute, wantSince: "2026-11-20T10:10:00Z", wantUntil: "2026-11-20T10:40:00Z"},
		{name: "period past a range up to now", give: Request{From: at("2026-11-20T11:48:00Z"), Period: 3600},
			wantPeriod: 9 * time.Minute, wantSince: "2026-11-20T11:48:00Z", wantUntil: "2026-11-20T11:57:00Z"},
		{name: "seconds: the whole minutes inside", give: Request{From: at("2026-11-20T10:10:30Z"), To: at("2026-11-20T10:40:45Z")}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T10:11:00Z", wantUntil: "2026-11-20T10:40:00Z"},
		{name: "nothing ingested yet: no slice", give: Request{From: at("2026-11-20T11:58:00Z"), To: at("2026-11-20T12:30:00Z")}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T11:58:00Z", wantUntil: "2026-11-20T11:58:00Z"},
		{name: "two days", give: Request{From: at("2026-11-18T11:00:00Z"), To: at("2026-11-20T11:00:00Z")}, wantPeriod: 30 * time.Minute,
			wantSince: "2026-11-18T11:00:00Z", wantUntil: "2026-11-20T11:00:00Z"},
		{name: "old short range: 10 points", give: Request{From: at("2026-10-01T00:00:00Z"), To: at("2026-10-01T01:00:00Z")}, wantPeriod: 6 * time.Minute,
			wantSince: "2026-10-01T00:00:00Z", wantUntil: "2026-10-01T01:00:00Z"},
		{name: "70 days", give: Request{From: at("2026-09-11T00:00:00Z"), To: at("2026-11-20T00:00:00Z")}, wantPeriod: 72 * time.Hour,
			wantSince: "2026-09-12T00:00:00Z", wantUntil: "2026-11-20T00:00:00Z"},
		{name: "59 seconds", give: Request{From: at("2026-11-20T11:00:00Z"), To: at("2026-11-20T11:00:59Z")}, wantErrStatus: 422},
		{name: "reversed", give: Request{From: at("2026-11-20T11:10:00Z"), To: at("2026-11-20T11:00:00Z")}, wantErrStatus: 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := ResolveWindow(tt.give, now)
			if tt.wantErrStatus != 0 {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.Period != tt.wantPeriod || w.Since.Format(time.RFC3339) != tt.wantSince || w.Until.Format(time.RFC3339) != tt.wantUntil {
				t.Fatalf("period %v since %s until %s", w.Period, w.Since.Format(time.RFC3339), w.Until.Format(time.RFC3339))
			}
		})
	}
}

// REST's recorded answers of the default range place its slices earlier than the
// envelope: three minutes for a series, two summarized.
func TestWindowPlacedAsRESTRecorded(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		source              string
		from, to            string
		summarize           bool
		wantSince, wantLast string // the first slice's from; the last slice's to (exclusive)
	}{
		{"docs-website basic-functions/extract-metric-timeslice-data.mdx", "2016-01-28T18:06:06Z", "2016-01-28T18:36:06Z", false,
			"2016-01-28T18:03:00Z", "2016-01-28T18:33:00Z"},
		{"newrelic-client-go pkg/apm/applications_test.go @ 1fd3d6ec testMetricDataJson", "2020-01-27T23:25:45Z", "2020-01-27T23:55:45Z", false,
			"2020-01-27T23:22:00Z", "2020-01-27T23:52:00Z"},
		{"docs-website application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx (summarized)", "2014-05-20T23:41:15Z",
			"2014-05-21T00:11:15Z", true, "2014-05-20T23:39:00Z", "2014-05-21T00:09:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			from, to := at(tt.from), at(tt.to)
			w, err := ResolveWindow(Request{Summarize: tt.summarize}, to) // the default range, asked at to
			if err != nil {
				t.Fatal(err)
			}
			if got := w.Since.Format(time.RFC3339); got != tt.wantSince {
				t.Errorf("first slice from %s, recorded %s", got, tt.wantSince)
			}
			if got := w.Until.Format(time.RFC3339); got != tt.wantLast {
				t.Errorf("last slice to %s, recorded %s", got, tt.wantLast)
			}
			if !w.From.Equal(from) || !w.To.Equal(to) {
				t.Errorf("envelope %s to %s, want the requested %s to %s", w.From, w.To, from, to)
			}
		})
	}
	// A range the caller gives, all ingested, is served where it was asked.
	from, to := at("2026-11-20T11:00:00Z"), at("2026-11-20T11:30:00Z")
	w, err := ResolveWindow(Request{From: &from, To: &to}, at("2026-11-20T12:00:30Z"))
	if err != nil || !w.Since.Equal(from) || !w.Until.Equal(to) {
		t.Errorf("an older range moved: %s to %s (%v)", w.Since, w.Until, err)
	}
}

// REST's recordings of explicit summarized ranges end the one slice at to, keeping
// the range's whole hours: docs-website src/content/docs/apis/rest-api-v2/
// application-examples-v2/application-error-rate-example-v2.mdx (from 2014-04-01T00:00
// to 23:35, one slice 00:35 to 23:35) and intuit/thrive test/test_newrelic_manager.py
// (from 2016-08-27T02:59 to 08-28T03:30, one slice 08-27T03:30 to 08-28T03:30). A range
// up to now ends at the newest ingested minute instead; a short one keeps its minutes.
func TestSummarizedRangePlacedAsRESTRecorded(t *testing.T) {
	tests := []struct {
		source             string
		from, to, now      string
		wantFrom, wantTo   string // the slice as shown
		wantSince, wantEnd string // the NRQL range
	}{
		{"docs-website application-error-rate-example-v2.mdx", "2014-04-01T00:00:00Z", "2014-04-01T23:35:00Z", "2014-04-02T00:00:00Z",
			"2014-04-01T00:35:00Z", "2014-04-01T23:35:00Z", "2014-04-01T00:35:00Z", "2014-04-01T23:35:00Z"},
		{"intuit/thrive test/test_newrelic_manager.py", "2016-08-27T02:59:00Z", "2016-08-28T03:30:00Z", "2016-08-28T04:00:00Z",
			"2016-08-27T03:30:00Z", "2016-08-28T03:30:00Z", "2016-08-27T03:30:00Z", "2016-08-28T03:30:00Z"},
		{"up to now: ends at the newest ingested minute", "2026-11-19T12:00:00Z", "2026-11-20T12:00:00Z", "2026-11-20T12:00:30Z",
			"2026-11-19T12:58:00Z", "2026-11-20T11:58:00Z", "2026-11-19T12:58:00Z", "2026-11-20T11:58:00Z"},
		{"three hours or less: whole minutes", "2026-11-20T09:10:30Z", "2026-11-20T11:40:00Z", "2026-11-20T12:00:30Z",
			"2026-11-20T09:11:00Z", "2026-11-20T11:40:00Z", "2026-11-20T09:11:00Z", "2026-11-20T11:40:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			w, err := ResolveWindow(Request{From: timeAt(t, tt.from), To: timeAt(t, tt.to), Summarize: true}, *timeAt(t, tt.now))
			if err != nil {
				t.Fatal(err)
			}
			f := func(x time.Time) string { return x.Format(time.RFC3339) }
			if f(w.Since) != tt.wantFrom || f(w.SummaryTo) != tt.wantTo || f(w.Until) != tt.wantEnd || f(w.Since) != tt.wantSince {
				t.Errorf("slice %s to %s (NRQL %s to %s), recorded %s to %s", f(w.Since), f(w.SummaryTo), f(w.Since), f(w.Until), tt.wantFrom, tt.wantTo)
			}
		})
	}
}

// WindowUntil is never later than the first change of the resolved window: every
// instant before it resolves the same window, and a window ending now moves at it.
func TestWindowUntilIsTheFirstChange(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 400_000_000, time.UTC)
	at := func(s string) *time.Time { return timeAt(t, s) }
	tests := []struct {
		name    string
		r       Request
		moves   bool // the window changes at until
		forever bool // until is zero
	}{
		{"default range", Request{}, true, false},
		{"summarized default", Request{Summarize: true}, true, false},
		{"from only", Request{From: at("2026-11-20T10:00:00Z")}, true, false},
		{"closed range", Request{From: at("2026-11-20T11:00:00Z"), To: at("2026-11-20T11:30:00Z")}, true, false},
		{"closed range cut at the newest ingested minute", Request{From: at("2026-11-20T11:30:00Z"), To: at("2026-11-20T12:30:00Z")}, true, false},
		{"summarized, cut at the newest ingested minute", Request{From: at("2026-11-20T11:30:00Z"), To: at("2026-11-20T12:30:00Z"), Summarize: true}, true, false},
		{"closed range older than eight days", Request{From: at("2026-11-01T11:00:00Z"), To: at("2026-11-01T11:30:00Z")}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := ResolveWindow(tt.r, now)
			if err != nil {
				t.Fatal(err)
			}
			until := WindowUntil(tt.r, w, now)
			if until.IsZero() != tt.forever {
				t.Fatalf("until %v", until)
			}
			last := now.Add(400 * 24 * time.Hour)
			if !tt.forever {
				last = until.Add(-time.Nanosecond)
				if !until.After(now) {
					t.Fatalf("until %v is not after now", until)
				}
			}
			for _, x := range []time.Time{now, now.Add(time.Millisecond), last} {
				if got, err := ResolveWindow(tt.r, x); err != nil || got != w {
					t.Fatalf("at %v: %+v, want %+v", x, got, w)
				}
			}
			if tt.moves {
				if got, _ := ResolveWindow(tt.r, until); got == w {
					t.Fatalf("at until %v the window is unchanged", until)
				}
			}
		})
	}
}

// timeAt is the RFC 3339 time s.
func timeAt(t *testing.T, s string) *time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}
