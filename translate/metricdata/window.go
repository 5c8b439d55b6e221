package metricdata

import (
	"fmt"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
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
	Since, Until time.Time // aligned to the period (NRQL range, slice boundaries)
	Period       time.Duration
}

// ResolveWindow applies REST v2's time rules: default last 30 minutes, 60 s minimum,
// the period-by-range table, period only coarsening, slices aligned to period
// boundaries in UTC (https://docs.newrelic.com/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data/,
// https://docs.newrelic.com/docs/apm/apis/api-v2-examples/specifying-time-range-v2).
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
		return w, v2.Unprocessable("The from time must be before the to time")
	}
	if span < time.Minute {
		return w, v2.Unprocessable("The time range must be at least 60 seconds")
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
	from, to := w.From, w.To
	if r.From == nil && r.To == nil { // the default range: placed as REST placed it
		lag := IngestLag(r.Summarize)
		from, to = from.Add(-lag), to.Add(-lag)
	}
	w.Since = alignDown(from, w.Period)
	w.Until = alignDown(to, w.Period)
	if !w.Until.After(w.Since) {
		w.Until = w.Since.Add(w.Period)
	}
	if n := w.Until.Sub(w.Since) / w.Period; n > 366 {
		return w, v2.Unprocessable(fmt.Sprintf("The period gives %d time slices; at most 366 are allowed", n))
	}
	return w, nil
}

// WindowUntil is the first instant after now at which ResolveWindow(r, ·) may resolve
// a window other than w, its answer at now (zero: none, it no longer depends on the
// clock): the next second when the window ends now, and the instant the range becomes
// older than the eight days that change its default period.
func WindowUntil(r Request, w Window, now time.Time) time.Time {
	var until time.Time
	if r.To == nil {
		until = now.Truncate(time.Second).Add(time.Second)
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
// from and to stay as they were, as in those answers. Every recording is of the default
// range; a range the caller gives is served where it was asked.
func IngestLag(summarize bool) time.Duration {
	if summarize {
		return 2 * time.Minute
	}
	return 3 * time.Minute
}

func alignDown(t time.Time, p time.Duration) time.Time {
	return time.UnixMilli(t.UnixMilli() - t.UnixMilli()%p.Milliseconds()).UTC()
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
