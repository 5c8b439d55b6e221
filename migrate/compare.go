package migrate

import (
	"bytes"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate/verify"
)

// CompareSettings configure compare mode: a route answers from the primary side and,
// for GET requests, calls the other in the background and diffs the two bodies (never
// for writes: a write reaches one side).
type CompareSettings struct {
	// PrimaryGraph answers callers from NerdGraph; false (the default) answers from the
	// REST v2 API and translates in the background.
	PrimaryGraph bool
	// Timeout cancels a slow secondary (default 5s).
	Timeout time.Duration
	// MaxConcurrent bounds background comparisons (default 64; beyond it they are
	// skipped and counted).
	MaxConcurrent int
	Options       CompareOptions
	// PerRoute overrides Options for some routes, by route name.
	PerRoute map[string]CompareOptions
	// LogEvery samples the difference log: at most one line per route per interval
	// (default 10s); every comparison is still counted.
	LogEvery time.Duration
	// Fallback answers a GET from the secondary when the primary fails (no answer, a
	// 5xx or a 429) and the secondary answers; off by default, so a pilot sees the
	// primary's own failures. FallbackFor overrides it by route name. Writes never
	// fall back: a write reaches exactly one side.
	Fallback    bool
	FallbackFor map[string]bool
}

// failed reports whether a side's status is a failure of that side rather than an
// answer to compare: no answer (the pass-through's and the translation's 502/503/504),
// any other 5xx, or a rate-limit refusal.
func failed(status int) bool {
	return status >= 500 || status == http.StatusTooManyRequests
}

// sampler lets one log line per key through per interval.
type sampler struct {
	mu    sync.Mutex
	every time.Duration
	last  map[string]time.Time
}

func (s *sampler) allow(key string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.last[key]) < s.every {
		return false
	}
	s.last[key] = now
	return true
}

const maxCompareBody = 4 << 20

// teeWriter streams the answer to the caller and keeps a bounded copy of it.
type teeWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
	over   bool
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	if !t.over {
		if t.buf.Len()+len(p) > maxCompareBody {
			t.over = true
			t.buf.Reset()
		} else {
			t.buf.Write(p)
		}
	}
	return t.ResponseWriter.Write(p)
}

// countError records a comparison that could not be made because a side failed:
// result "error" in v2bridge_compare_total, and the side (rest, graph or both) in
// v2bridge_compare_errors_total. A failing side is never a difference.
func (c *comparer) countError(route, side string) {
	c.metrics.CompareCounter(route, "error").Inc()
	c.metrics.CompareErrorCounter(route, side).Inc()
}

// isJSON reports whether a request asks for JSON (no .xml extension): only JSON
// answers are compared.
func isJSON(r *http.Request) bool { return !strings.HasSuffix(r.URL.Path, ".xml") }

// comparer serves the routes in compare mode.
type comparer struct {
	settings CompareSettings
	maxBody  int64 // the request bodies kept for the second side
	metrics  *gateway.Metrics
	log      *zap.Logger
	// running bounds the comparisons running in the background (MaxConcurrent).
	running chan struct{}
}

// newComparer returns a comparer with settings' defaults filled in: a 5 s timeout, a
// log line per route every 10 s at most, 64 comparisons at once.
func newComparer(settings CompareSettings, maxBody int64, m *gateway.Metrics, log *zap.Logger) *comparer {
	if settings.Timeout <= 0 {
		settings.Timeout = 5 * time.Second
	}
	if settings.LogEvery <= 0 {
		settings.LogEvery = 10 * time.Second
	}
	if settings.MaxConcurrent <= 0 {
		settings.MaxConcurrent = 64
	}
	return &comparer{settings: settings, maxBody: maxBody, metrics: m, log: log, running: make(chan struct{}, settings.MaxConcurrent)}
}

// route serves a route in compare mode: the gateway.Config.Compare hook.
func (c *comparer) route(rt gateway.Route, translated, rest http.Handler) http.Handler {
	cs := c.settings
	opts := cs.Options
	if o, ok := cs.PerRoute[rt.Name]; ok {
		opts = o
	}
	logs := &sampler{every: cs.LogEvery, last: map[string]time.Time{}}
	primary, secondary, primaryName, secondaryName := rest, translated, "rest", "graph"
	if cs.PrimaryGraph {
		primary, secondary, primaryName, secondaryName = translated, rest, "graph", "rest"
	}
	fallback := cs.Fallback
	if f, ok := cs.FallbackFor[rt.Name]; ok {
		fallback = f
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			primary.ServeHTTP(w, r) // a write reaches exactly one side
			return
		}
		// The answers are compared as text: neither side compresses a compared GET.
		r.Header.Del("Accept-Encoding")
		body, err := io.ReadAll(io.LimitReader(r.Body, c.maxBody+1))
		if err != nil {
			gateway.WriteError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if fallback {
			c.serveFallback(w, r, body, rt, primary, secondary, primaryName, secondaryName)
			return
		}
		tee := &teeWriter{ResponseWriter: w}
		primary.ServeHTTP(tee, r)
		gateway.SetMode(r.Context(), gateway.ModeCompare)
		if tee.over || !isJSON(r) {
			c.metrics.CompareCounter(rt.Name, "skipped").Inc()
			return
		}
		select {
		case c.running <- struct{}{}:
		default:
			c.metrics.CompareCounter(rt.Name, "skipped").Inc()
			return
		}
		first := tee.buf.Bytes()
		status := tee.status
		id := gateway.RequestID(r.Context())
		// The secondary runs detached from the caller: it never delays or changes the
		// answer already sent, and it is cancelled at its own deadline.
		sr, cancel := gateway.Detach(r, secondaryName, cs.Timeout, bytes.NewReader(body))
		ctx := sr.Context()
		go func() {
			defer func() { <-c.running }()
			defer cancel()
			rec := gateway.NewRecorder(maxCompareBody)
			secondary.ServeHTTP(rec, sr)
			result := "match"
			var paths []string
			switch {
			case ctx.Err() != nil:
				result = "timeout"
			case failed(status) || failed(rec.Status()):
				side := primaryName
				switch {
				case failed(status) && failed(rec.Status()):
					side = "both"
				case failed(rec.Status()):
					side = secondaryName
				}
				c.countError(rt.Name, side)
				if logs.allow(rt.Name, time.Now()) {
					c.log.Info("compare", zap.String("request_id", id), zap.String("route", rt.Name), zap.String("result", "error"),
						zap.String("failed_side", side), zap.Int("primary_status", status), zap.Int("secondary_status", rec.Status()))
				}
				return
			case rec.Status() != status:
				result, paths = "diff", []string{"$status"}
			default:
				var err error
				if paths, err = DiffJSON(first, rec.Body(), opts); err != nil {
					result = "error"
				} else if len(paths) > 0 {
					result = diffResult(rt.Note, paths)
				}
			}
			c.metrics.CompareCounter(rt.Name, result).Inc()
			if result != "match" && logs.allow(rt.Name, time.Now()) {
				c.log.Info("compare", zap.String("request_id", id), zap.String("route", rt.Name),
					zap.String("result", result), zap.Int("primary_status", status), zap.Int("secondary_status", rec.Status()),
					zap.Strings("paths", paths), zap.Strings("declared", declaredPaths(rt.Note, paths)))
			}
		}()
	})
}

// diffResult is the compare result of an answer whose JSON differs at paths: "declared"
// when the route's fidelity note declares every one of them (the difference is the
// translation's documented one, not a fault), else "diff".
func diffResult(note string, paths []string) string {
	if len(paths) > 0 && len(declaredPaths(note, paths)) == len(paths) {
		return "declared"
	}
	return "diff"
}

// declaredPaths are the paths among those that differ that the route's fidelity note
// declares, each with the note's reason ("path: reason"), as verify labels them.
func declaredPaths(note string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if reason := verify.Declared(note, p); reason != "" {
			out = append(out, p+": "+reason)
		}
	}
	return out
}

// holdWriter holds an answer back until its status is known: a good answer (not
// failed) goes straight to the caller, streamed, with a bounded copy kept for the
// comparison; a failed one is held whole, so it can be replaced by the other side's.
type holdWriter struct {
	w      http.ResponseWriter
	header http.Header
	status int
	pass   bool
	extra  http.Header // set on the caller's answer when it passes
	held   bytes.Buffer
	copy   bytes.Buffer
	over   bool
}

func newHoldWriter(w http.ResponseWriter, extra http.Header) *holdWriter {
	return &holdWriter{w: w, header: http.Header{}, extra: extra}
}

func (h *holdWriter) Header() http.Header {
	if h.pass {
		return h.w.Header()
	}
	return h.header
}

func (h *holdWriter) WriteHeader(code int) {
	if h.status != 0 {
		return
	}
	h.status = code
	if failed(code) {
		return
	}
	h.pass = true
	dst := h.w.Header()
	for k, v := range h.header {
		dst[k] = v
	}
	for k, v := range h.extra {
		dst[k] = v
	}
	h.w.WriteHeader(code)
}

func (h *holdWriter) Write(p []byte) (int, error) {
	if h.status == 0 {
		h.WriteHeader(http.StatusOK)
	}
	if !h.pass {
		return h.held.Write(p)
	}
	if !h.over {
		if h.copy.Len()+len(p) > maxCompareBody {
			h.over = true
			h.copy.Reset()
		} else {
			h.copy.Write(p)
		}
	}
	return h.w.Write(p)
}

// release sends a held (failed) answer to the caller as it was.
func (h *holdWriter) release() {
	dst := h.w.Header()
	for k, v := range h.header {
		dst[k] = v
	}
	status := h.status
	if status == 0 {
		status = http.StatusOK
	}
	h.w.WriteHeader(status)
	_, _ = h.w.Write(h.held.Bytes())
}

// serveFallback answers a compare-mode GET when fallback is on. A good primary answer
// streams to the caller as without fallback and is compared in the background; a
// failed one is held back, the secondary is asked at once, and the caller gets the
// secondary's answer (X-V2bridge-Fallback names the side) when it did not fail, else
// the primary's. Either way a failed side counts as an error of that side.
func (c *comparer) serveFallback(w http.ResponseWriter, r *http.Request, body []byte, rt gateway.Route,
	primary, secondary http.Handler, primaryName, secondaryName string) {
	route := rt.Name
	first := newHoldWriter(w, nil)
	primary.ServeHTTP(first, r)
	if first.status == 0 {
		first.WriteHeader(http.StatusOK) // an empty good answer passes
	}
	gateway.SetMode(r.Context(), gateway.ModeCompare)
	if first.pass {
		c.compareAfter(r, body, route, rt.Note, first, secondary, secondaryName)
		return
	}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	second := newHoldWriter(w, http.Header{"X-V2bridge-Fallback": {secondaryName}})
	secondary.ServeHTTP(second, r2)
	if second.status == 0 {
		second.WriteHeader(http.StatusOK)
	}
	if !second.pass {
		c.countError(route, "both")
		first.release()
		return
	}
	c.countError(route, primaryName)
	c.metrics.CompareFallbackCounter(route, secondaryName).Inc()
}

// compareAfter compares the primary's answer, already sent, with the secondary in the
// background, as compare mode does without fallback.
func (c *comparer) compareAfter(r *http.Request, body []byte, route, note string, first *holdWriter, secondary http.Handler, secondaryName string) {
	if first.over || !isJSON(r) {
		c.metrics.CompareCounter(route, "skipped").Inc()
		return
	}
	select {
	case c.running <- struct{}{}:
	default:
		c.metrics.CompareCounter(route, "skipped").Inc()
		return
	}
	opts := c.settings.Options
	if o, ok := c.settings.PerRoute[route]; ok {
		opts = o
	}
	sr, cancel := gateway.Detach(r, secondaryName, c.settings.Timeout, bytes.NewReader(body))
	ctx := sr.Context()
	status, want := first.status, first.copy.Bytes()
	go func() {
		defer func() { <-c.running }()
		defer cancel()
		rec := gateway.NewRecorder(maxCompareBody)
		secondary.ServeHTTP(rec, sr)
		switch {
		case ctx.Err() != nil:
			c.metrics.CompareCounter(route, "timeout").Inc()
		case failed(rec.Status()):
			c.countError(route, secondaryName)
		case rec.Status() != status:
			c.metrics.CompareCounter(route, "diff").Inc()
		default:
			paths, err := DiffJSON(want, rec.Body(), opts)
			switch {
			case err != nil:
				c.metrics.CompareCounter(route, "error").Inc()
			case len(paths) > 0:
				c.metrics.CompareCounter(route, diffResult(note, paths)).Inc()
			default:
				c.metrics.CompareCounter(route, "match").Inc()
			}
		}
	}()
}

// CompareRate is one route's compare-mode outcome in the usage report: how many
// comparisons were made and which share differed or could not be made because a side
// failed (errors by side). Declared counts the answers whose only differences the
// route's fidelity note declares: they are neither a match nor a difference.
type CompareRate struct {
	Route     string           `json:"route"`
	Total     int64            `json:"comparisons"`
	Match     int64            `json:"match"`
	Diff      int64            `json:"diff"`
	Declared  int64            `json:"declared"`
	Errors    int64            `json:"errors"`
	Timeouts  int64            `json:"timeouts"`
	DiffRate  float64          `json:"diff_rate"`
	ErrorRate float64          `json:"error_rate"`
	BySide    map[string]int64 `json:"errors_by_side,omitempty"`
}

// compareRates reads the compare counters of this replica (m), per route, by name.
func compareRates(m *gateway.Metrics) []CompareRate {
	fams, err := m.Gatherer().Gather()
	if err != nil {
		return nil
	}
	rates := map[string]*CompareRate{}
	get := func(route string) *CompareRate {
		if rates[route] == nil {
			rates[route] = &CompareRate{Route: route}
		}
		return rates[route]
	}
	for _, f := range fams {
		switch f.GetName() {
		case "v2bridge_compare_total":
			for _, m := range f.GetMetric() {
				var route, result string
				for _, l := range m.GetLabel() {
					switch l.GetName() {
					case "route":
						route = l.GetValue()
					case "result":
						result = l.GetValue()
					}
				}
				n := int64(m.GetCounter().GetValue())
				r := get(route)
				switch result {
				case "match":
					r.Match += n
				case "diff":
					r.Diff += n
				case "declared":
					r.Declared += n
				case "error":
					r.Errors += n
				case "timeout":
					r.Timeouts += n
				}
			}
		case "v2bridge_compare_errors_total":
			for _, m := range f.GetMetric() {
				var route, side string
				for _, l := range m.GetLabel() {
					switch l.GetName() {
					case "route":
						route = l.GetValue()
					case "side":
						side = l.GetValue()
					}
				}
				r := get(route)
				if r.BySide == nil {
					r.BySide = map[string]int64{}
				}
				r.BySide[side] += int64(m.GetCounter().GetValue())
			}
		}
	}
	out := make([]CompareRate, 0, len(rates))
	for _, r := range rates {
		r.Total = r.Match + r.Diff + r.Declared + r.Errors + r.Timeouts
		if r.Total > 0 {
			r.DiffRate = float64(r.Diff) / float64(r.Total)
			r.ErrorRate = float64(r.Errors) / float64(r.Total)
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out
}
