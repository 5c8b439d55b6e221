package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/gateway"
)

// The contract floor (-serve floor) is the third baseline of the cached scenarios: what
// any gateway must do to answer a cached v2 request under the design card and the
// brief, done as cheaply as it can be done, and nothing more. It answers the bytes the
// gateway answered, with the header names the gateway sent (captured from its answer:
// the v2 contract's and X-V2bridge-Fidelity), after:
//
//   - matching the path with gorilla/mux (the design card's router; Router.Match on a
//     router holding only the scenario's route, with the gateway's template for it, so
//     no request copy and one route's regular expressions);
//   - hashing the API key (cache keys carry the caller's identity: the brief's tenancy
//     rule) and finding the answer in a map keyed by that hash and the request;
//   - counting the request in Prometheus (a counter and a duration histogram, their
//     series resolved once);
//   - writing the gateway's access-log line (the same fields, zap's JSON encoder,
//     gateway.LogSink to /dev/null as the measured gateways do).
//
// It leaves out what the gateway also does on a hit: the check that the cache entries
// the answer was read from still hold and the account's, load shedding and the
// in-flight gauge, the usage report's book, tracing, the request's state, compare and
// pass-through modes. The gateway, for its part, finds a repeated request's answer by
// the request itself before routing (gateway/replay.go), where the floor matches the
// route first.

// headerSuffix names the file beside the body file that holds the captured header.
const headerSuffix = ".header"

// floorRoute is the gateway's route (from its table, gateway.Routes) that answers a GET
// of path under /v2, with the gorilla/mux template the gateway registers for it.
func floorRoute(path string) (gateway.Route, string, error) {
	r := mux.NewRouter()
	r.UseEncodedPath()
	routes := map[*mux.Route]gateway.Route{}
	templates := map[*mux.Route]string{}
	for _, rt := range gateway.Routes() {
		if rt.Prefix || rt.Legacy {
			continue
		}
		tpl := "/v2" + rt.Path + ".{format:json|xml}"
		m := r.Handle(tpl, http.NotFoundHandler()).Methods(rt.Methods...)
		routes[m], templates[m] = rt, tpl
	}
	var m mux.RouteMatch
	if !r.Match(httptest.NewRequest(http.MethodGet, path, nil), &m) || m.MatchErr != nil {
		return gateway.Route{}, "", fmt.Errorf("floor: no gateway route answers GET %s", path)
	}
	return routes[m.Route], templates[m.Route], nil
}

// floorAnswer is a cached answer's place in the floor's cache: the caller's key hash
// and the request (no allocation to look up).
type floorAnswer struct {
	key   [sha256.Size]byte
	path  string
	query string
}

type floor struct {
	router *mux.Router
	// mu is the read lock a shared cache takes on a lookup (go-cache's is an
	// RWMutex), though nothing writes answers once the floor is made.
	mu       sync.RWMutex
	answers  map[floorAnswer][]byte
	static   http.Header // the captured header's values that do not change per request
	count    prometheus.Counter
	duration prometheus.Observer
	log      *zap.Logger
	fields   sync.Pool
	route    string // the gateway's name of the route, as its access log gives it
	fidelity string
}

// newFloor is the floor for the scenario whose first request (path, query) the gateway
// answered with body and header, for API key apiKey.
func newFloor(path, query, apiKey string, body []byte, header http.Header, log *zap.Logger) (*floor, error) {
	rt, tpl, err := floorRoute(path)
	if err != nil {
		return nil, err
	}
	f := &floor{router: mux.NewRouter(), answers: map[floorAnswer][]byte{}, static: http.Header{}, log: log,
		route: rt.Name, fidelity: string(rt.Fidelity)}
	f.router.UseEncodedPath()
	f.router.Handle(tpl, http.NotFoundHandler()).Methods(http.MethodGet) // matched, never called
	f.answers[floorAnswer{sha256.Sum256([]byte(apiKey)), path, query}] = body
	for k, v := range header {
		switch k {
		case "Date", "Content-Length", "X-Request-Id", "Server-Timing", "X-V2bridge-Upstream-Calls":
			// written per request (Date by net/http)
		default:
			f.static[k] = v
		}
	}
	reg := prometheus.NewRegistry()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "floor_requests_total", Help: "requests"}, []string{"route", "method", "status"})
	durations := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "floor_request_duration_seconds", Help: "duration",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"route"})
	reg.MustRegister(requests, durations)
	f.count = requests.WithLabelValues(f.route, "GET", "200")
	f.duration = durations.WithLabelValues(f.route)
	return f, nil
}

// newFloorFromFiles is newFloor from the body file and its header file (main writes
// both from the gateway's answer).
func newFloorFromFiles(bodyFile, path, query string, level zapcore.Level) (*floor, error) {
	body, err := os.ReadFile(bodyFile)
	if err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	raw, err := os.ReadFile(bodyFile + headerSuffix)
	if err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	var header http.Header
	if err := json.Unmarshal(raw, &header); err != nil {
		return nil, fmt.Errorf("floor: header: %w", err)
	}
	return newFloor(path, query, key, body, header, servedLogger(level))
}

func (f *floor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	var m mux.RouteMatch
	if !f.router.Match(r, &m) || m.MatchErr != nil {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256([]byte(r.Header.Get("X-Api-Key")))
	f.mu.RLock()
	body, ok := f.answers[floorAnswer{sum, r.URL.Path, r.URL.RawQuery}]
	f.mu.RUnlock()
	if !ok {
		http.Error(w, `{"error":{"title":"not cached"}}`, http.StatusNotFound)
		return
	}
	h := w.Header()
	for k, v := range f.static {
		h[k] = v
	}
	id := floorRequestID()
	h["X-Request-Id"] = []string{id}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-V2bridge-Upstream-Calls"] = []string{"0"}
	var buf [64]byte
	b := append(buf[:0], "total;dur="...)
	b = strconv.AppendFloat(b, float64(time.Since(start))/float64(time.Millisecond), 'f', 2, 64)
	b = append(b, ", upstream;dur=0.00"...)
	h["Server-Timing"] = []string{string(b)}
	_, _ = w.Write(body)

	f.count.Inc()
	f.duration.Observe(time.Since(start).Seconds())
	ce := f.log.Check(zapcore.InfoLevel, "request")
	if ce == nil {
		return
	}
	fp, _ := f.fields.Get().(*[]zap.Field)
	if fp == nil {
		fp = new([]zap.Field)
	}
	fields := append((*fp)[:0],
		zap.String("request_id", id),
		zap.String("method", r.Method),
		zap.String("route", f.route),
		zap.String("path", r.URL.Path),
	)
	if r.URL.RawQuery != "" { // as the gateway's access log: the query, credentials redacted
		fields = append(fields, zap.String("query", gateway.LoggedQuery(r.URL.RawQuery)))
	}
	fields = append(fields,
		zap.Int("status", http.StatusOK),
		zap.Int("bytes", len(body)),
		zap.Duration("duration", time.Since(start)),
		zap.Int64("upstream_calls", 0),
		zap.Duration("upstream", 0),
		zap.String("client", "127.0.0.1"),
		zap.String("fidelity", f.fidelity),
		zap.String("caller", hex.EncodeToString(sum[:4])),
		zap.Int64("account", 1000001),
		zap.String("account_source", "header"), // the harness sends X-Account-ID
	)
	ce.Write(fields...)
	clear(fields)
	*fp = fields[:0]
	f.fields.Put(fp)
}

// floorRequestID is a request id as the gateway makes one (16 hex digits).
func floorRequestID() string {
	var b [16]byte
	n := rand.Uint64()
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = "0123456789abcdef"[n&0xf]
		n >>= 4
	}
	return string(b[:])
}

// floorServer is the contract floor's name in the tables and the JSON.
const floorServer = "contract floor"
