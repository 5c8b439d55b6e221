package metricdata

import (
	"fmt"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// Request is a parsed GET .../metrics/data.
type Request struct {
	Names     []string
	Values    []string
	From, To  *time.Time
	Period    int // seconds; 0 = the default for the range
	Summarize bool
	Raw       bool
}

// DefaultRange is REST v2's default window.
const DefaultRange = 30 * time.Minute

// Window is a request's resolved time range.
type Window struct {
	From, To     time.Time // as requested (envelope)
	Since, Until time.Time // the slices' range (NRQL range); empty when Since == Until
	Period       time.Duration
	// SummaryTo is the summarized slice's to as REST showed it: Until, or a second
	// before it for the default range.
	SummaryTo time.Time
}

// Empty reports whether the window has no slice: the range holds no ingested minute.
func (w Window) Empty() bool { return !w.Until.After(w.Since) }

// Slices is the number of periods in the window: its slices (a summarized answer has
// one, whatever the count).
func (w Window) Slices() int {
	if w.Empty() || w.Period <= 0 {
		return 0
	}
	return int(w.Until.Sub(w.Since) / w.Period)
}

// ResolveWindow applies REST v2's time rules: default last 30 minutes, 60 s minimum,
// the period-by-range table, period only coarsening
// (https://docs.newrelic.com/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data/,
// https://docs.newrelic.com/docs/apm/apis/api-v2-examples/specifying-time-range-v2).
// The default range is placed as REST's recordings place it (IngestLag); a range the
// caller gives holds its slices inside it (placeExplicit).
func ResolveWindow(r Request, now time.Time) (Window, error) {
	w := Window{To: now.UTC().Truncate(time.Second)}
	if r.To != nil {
		w.To = r.To.UTC()
	}
	w.From = w.To.Add(-DefaultRange)
	if r.From != nil {
		w.From = r.From.UTC()
	}
	if r.To == nil && r.From != nil && !w.From.Before(w.To) {
		w.To = w.From.Add(DefaultRange)
	}
	span := w.To.Sub(w.From)
	if span < 0 {
		return w, restv2.Unprocessable("The from time must be before the to time")
	}
	if span < time.Minute {
		return w, restv2.Unprocessable("The time range must be at least 60 seconds")
	}
	w.Period = defaultPeriod(span, now.Sub(w.From) > oldRange)
	if r.Period > 0 {
		if p := time.Duration(r.Period) * time.Second; p > w.Period {
			w.Period = p.Truncate(time.Minute)
			if w.Period < time.Minute {
				w.Period = time.Minute
			}
		}
	}
	if r.From == nil && r.To == nil { // the default range: placed as REST placed it
		lag := IngestLag(r.Summarize)
		step := w.Period
		if r.Summarize { // one slice over the range: a period does not move it
			step = time.Minute
		}
		w.Since = alignDown(w.From.Add(-lag), step)
		w.Until = alignDown(w.To.Add(-lag), step)
		if !w.Until.After(w.Since) {
			w.Until = w.Since.Add(step)
		}
		w.SummaryTo = w.Until.Add(-time.Second)
	} else {
		placeExplicit(&w, r.Summarize, now)
	}
	if n := w.Slices(); n > 366 {
		return w, restv2.Unprocessable(fmt.Sprintf("The period gives %d time slices; at most 366 are allowed", n))
	}
	return w, nil
}

// Ingested is the end of the newest minute taken as ingested at now: the default
// range's end (IngestLag), so no slice counts a minute whose data may still be
// arriving.
func Ingested(now time.Time, summarize bool) time.Time {
	return alignDown(now.Add(-IngestLag(summarize)), time.Minute)
}

// placeExplicit places the slices of a range the caller gave inside it: they end at
// to (or at the newest ingested minute, if to is later) and run back in whole periods,
// starting no earlier than from; a period longer than the range gives one slice
// covering it. REST's recordings of explicit summarized ranges end the slice at to
// and keep the range's whole hours: 2014-04-01T00:00 to 23:35 answered one slice from
// 00:35 to 23:35 (docs-website src/content/docs/apis/rest-api-v2/application-examples-v2/
// application-error-rate-example-v2.mdx), 2016-08-27T02:59 to 08-28T03:30 one from
// 08-27T03:30 to 08-28T03:30 (intuit/thrive test/test_newrelic_manager.py). Both are
// longer than three hours, up to which the timeslice page says REST served the
// one-minute data (extract-metric-timeslice-data.mdx); a summarized range of three
// hours or less keeps its whole minutes (an inference: no recording shows one).
func placeExplicit(w *Window, summarize bool, now time.Time) {
	start := alignUp(w.From, time.Minute)
	end := alignDown(w.To, time.Minute)
	if in := Ingested(now, summarize); in.Before(end) {
		end = in
	}
	if !end.After(start) { // nothing ingested in the range
		w.Since, w.Until, w.SummaryTo = start, start, start
		return
	}
	step := w.Period
	if summarize {
		step = time.Minute
		if end.Sub(start) > 3*time.Hour {
			step = time.Hour
		}
	}
	n := end.Sub(start) / step
	if n == 0 { // a period longer than the range: one slice covering it
		w.Since, w.Until, w.Period = start, end, end.Sub(start)
	} else {
		w.Since, w.Until = end.Add(-n*step), end
	}
	if summarize {
		w.Period = w.Until.Sub(w.Since)
	}
	w.SummaryTo = w.Until
}

// WindowUntil is the first instant after now at which ResolveWindow(r, ·) may resolve
// a window other than w, its answer at now (zero: none, it no longer depends on the
// clock): the next second when the window ends now, the next ingested minute when it
// is cut there, and the instant the range becomes older than the eight days that
// change its default period.
func WindowUntil(r Request, w Window, now time.Time) time.Time {
	var until time.Time
	switch in := Ingested(now, r.Summarize); {
	case r.To == nil:
		until = now.Truncate(time.Second).Add(time.Second)
	case alignDown(w.To, time.Minute).After(in): // cut at the newest ingested minute, which moves
		until = in.Add(time.Minute + IngestLag(r.Summarize))
	}
	if old := w.From.Add(oldRange + 1); now.Before(old) && (until.IsZero() || old.Before(until)) {
		until = old
	}
	return until
}

// oldRange is the age beyond which a range's default period follows its span alone
// (defaultPeriod's old).
const oldRange = 8 * 24 * time.Hour

// IngestLag is how far before the default range (the last 30 minutes) REST placed its
// slices, leaving out the newest minutes, whose data may still be arriving: its
// recorded answers start their slices three minutes before the envelope's from minute,
// or two when summarized (docs-website src/content/docs/apis/rest-api-v2/basic-functions/
// extract-metric-timeslice-data.mdx: from 18:06:06, first slice 18:03; newrelic-client-go
// pkg/apm/applications_test.go @ 1fd3d6ec testMetricDataJson: from 23:25:45, first slice 23:22;
// docs-website .../application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx,
// summarized: from 23:41:15 to 00:11:15, one slice 23:39:00 to 00:08:59). The envelope's
// from and to stay as they were, as in those answers. A range the caller gives ends
// no later than the same lag before now (Ingested).
func IngestLag(summarize bool) time.Duration {
	if summarize {
		return 2 * time.Minute
	}
	return 3 * time.Minute
}

func alignDown(t time.Time, p time.Duration) time.Time {
	return time.UnixMilli(t.UnixMilli() - t.UnixMilli()%p.Milliseconds()).UTC()
}

func alignUp(t time.Time, p time.Duration) time.Time {
	if d := alignDown(t, p); d.Before(t) {
		return d.Add(p)
	}
	return t.UTC()
}

// defaultPeriod is REST v2's granularity for a range (the timeslice data page above
// ResolveWindow): by range length,
// and "10 evenly spaced points" for short ranges whose start is older than 8 days.
func defaultPeriod(span time.Duration, old bool) time.Duration {
	const day = 24 * time.Hour
	if old && span <= 4*day {
		p := (span/10 + time.Minute - 1).Truncate(time.Minute)
		return max(p, time.Minute)
	}
	switch {
	case span <= 3*time.Hour:
		return time.Minute
	case span <= 6*time.Hour:
		return 2 * time.Minute
	case span <= 14*time.Hour:
		return 5 * time.Minute
	case span <= day:
		return 10 * time.Minute
	case span <= 4*day:
		return 30 * time.Minute
	case span <= 7*day:
		return time.Hour
	case span <= 21*day:
		return 3 * time.Hour
	case span <= 42*day:
		return 6 * time.Hour
	case span <= 63*day:
		return 12 * time.Hour
	}
	return 3 * day
}
