package gateway

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// ModeCompare answers from the primary side and, for GET requests, calls the other in
// the background and diffs the two bodies (never for writes: a write reaches one side).
const ModeCompare Mode = "compare"

// CompareSettings configure compare mode.
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

// recorder captures the secondary's answer.
type recorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.buf.Len()+len(p) > maxCompareBody {
		return len(p), nil
	}
	return r.buf.Write(p)
}

// compare serves a route in compare mode.
func (g *Gateway) compare(rt Route, translated, rest http.Handler) http.Handler {
	cs := g.cfg.Compare
	opts := cs.Options
	if o, ok := cs.PerRoute[rt.Name]; ok {
		opts = o
	}
	logs := &sampler{every: cs.LogEvery, last: map[string]time.Time{}}
	primary, secondary, secondaryName := rest, translated, "graph"
	if cs.PrimaryGraph {
		primary, secondary, secondaryName = translated, rest, "rest"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			primary.ServeHTTP(w, r) // a write reaches exactly one side
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, g.cfg.MaxBodyBytes+1))
		if err != nil {
			g.writeError(w, r, formatOf(r), err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		tee := &teeWriter{ResponseWriter: w}
		primary.ServeHTTP(tee, r)
		if st := stateFrom(r.Context()); st != nil {
			st.mode = ModeCompare
		}
		if tee.over || formatOf(r) != "json" {
			g.cfg.Metrics.compare.WithLabelValues(rt.Name, "skipped").Inc()
			return
		}
		select {
		case g.compares <- struct{}{}:
		default:
			g.cfg.Metrics.compare.WithLabelValues(rt.Name, "skipped").Inc()
			return
		}
		first := tee.buf.Bytes()
		status := tee.status
		id := RequestID(r.Context())
		// The secondary runs detached from the caller: it never delays or changes the
		// answer already sent, and it is cancelled at its own deadline.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), cs.Timeout)
		st := &reqState{id: id + "-" + secondaryName, start: time.Now()}
		ctx = context.WithValue(ctx, stateKey{}, st)
		ctx = ng.WithCalls(ctx, &st.calls)
		sr := r.Clone(ctx)
		sr.Body = io.NopCloser(bytes.NewReader(body))
		go func() {
			defer func() { <-g.compares }()
			defer cancel()
			rec := &recorder{header: http.Header{}}
			secondary.ServeHTTP(rec, sr)
			result := "match"
			var paths []string
			switch {
			case ctx.Err() != nil:
				result = "timeout"
			case rec.status != status:
				result, paths = "diff", []string{"$status"}
			default:
				var err error
				if paths, err = DiffJSON(first, rec.buf.Bytes(), opts); err != nil {
					result = "error"
				} else if len(paths) > 0 {
					result = "diff"
				}
			}
			g.cfg.Metrics.compare.WithLabelValues(rt.Name, result).Inc()
			if result != "match" && logs.allow(rt.Name, time.Now()) {
				g.log.Info("compare", zap.String("request_id", id), zap.String("route", rt.Name),
					zap.String("result", result), zap.Int("primary_status", status), zap.Int("secondary_status", rec.status),
					zap.Strings("paths", paths))
			}
		}()
	})
}
