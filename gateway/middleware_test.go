package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	ng "github.com/v2bridge/v2bridge/graphql"
)

func TestRequestID(t *testing.T) {
	generated := regexp.MustCompile(`^[0-9a-f]{16}$`)
	tests := []struct {
		name, given string
		keep        bool
	}{
		{"plain id kept", "deploy-42_a.b", true},
		{"64 characters kept", strings.Repeat("a", 64), true},
		{"none given", "", false},
		{"65 characters replaced", strings.Repeat("a", 65), false},
		{"header injection replaced", "x\r\nSet-Cookie: a=b", false},
		{"spaces replaced", "a b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := requestID(tt.given)
			if tt.keep {
				if got != tt.given {
					t.Fatalf("requestID(%q) = %q, want it kept", tt.given, got)
				}
				return
			}
			if !generated.MatchString(got) {
				t.Fatalf("requestID(%q) = %q, want 16 lowercase hex digits", tt.given, got)
			}
		})
	}
	seen := map[string]bool{}
	for range 1000 {
		id := requestID("")
		if seen[id] {
			t.Fatalf("generated id %q twice in 1000", id)
		}
		seen[id] = true
	}
}

func TestAccessLogLevels(t *testing.T) {
	tests := []struct {
		name     string
		min      zapcore.Level // the logger's level
		status   int
		internal error
		want     zapcore.Level // -1: no line
	}{
		{"success at info", zapcore.InfoLevel, 200, nil, zapcore.InfoLevel},
		{"client error at info", zapcore.InfoLevel, 404, nil, zapcore.InfoLevel},
		{"upstream failure at warn", zapcore.InfoLevel, 503, nil, zapcore.WarnLevel},
		{"internal error at error", zapcore.InfoLevel, 500, errors.New("boom"), zapcore.ErrorLevel},
		{"success below the level", zapcore.WarnLevel, 200, nil, -1},
		{"failure at the level", zapcore.WarnLevel, 502, nil, zapcore.WarnLevel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(tt.min)
			g := New(Config{}, nil, zap.New(core))
			r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
			st := &reqState{id: "rid", route: "applications.list", fidelity: Approximate, caller: "abcd",
				account: 1000001, accountSource: "single", internal: tt.internal}
			st.sw.status = tt.status
			for range 2 { // the second line reuses the pooled field slice
				g.accessLog(r, &st.sw, st)
			}
			entries := logs.All()
			if tt.want == -1 {
				if len(entries) != 0 {
					t.Fatalf("logged %d lines below the level", len(entries))
				}
				return
			}
			if len(entries) != 2 {
				t.Fatalf("logged %d lines, want 2", len(entries))
			}
			for _, e := range entries {
				f := e.ContextMap()
				if e.Level != tt.want || f["status"] != int64(tt.status) || f["route"] != "applications.list" ||
					f["request_id"] != "rid" || f["account"] != int64(1000001) || f["account_source"] != "single" {
					t.Fatalf("line = %v %v", e.Level, f)
				}
				if _, has := f["error"]; has != (tt.internal != nil) {
					t.Fatalf("error field present = %v, want %v", has, tt.internal != nil)
				}
			}
		})
	}
}

// TestAccessLogOptionalFields: the access-log line carries fidelity, mode, degraded and
// trace_id only when the request has them, and a handler that writes nothing is counted as
// a 200.
func TestAccessLogOptionalFields(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	g := New(Config{RateLimitPerMinute: -1}, nil, zap.New(core))
	h := g.Handler()
	serve := func(path string) map[string]any {
		t.Helper()
		logs.TakeAll()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		lines := logs.FilterMessage("request").AllUntimed()
		if len(lines) != 1 {
			t.Fatalf("%s: %d access-log lines", path, len(lines))
		}
		return lines[0].ContextMap()
	}
	// An unknown route: no fidelity, no mode, nothing degraded, no trace.
	unknown := serve("/v2/nothing_here.json")
	for _, k := range []string{"fidelity", "mode", "degraded", "trace_id"} {
		if v, ok := unknown[k]; ok {
			t.Errorf("unknown route: field %q = %v, want none", k, v)
		}
	}
	if unknown["status"] != int64(404) {
		t.Errorf("unknown route: status %v", unknown["status"])
	}
	// A route (no key: 401): its fidelity is logged.
	routed := serve("/v2/applications.json")
	if routed["fidelity"] != string(Approximate) {
		t.Errorf("route: fidelity %v, want %q", routed["fidelity"], Approximate)
	}
	if got := testutil.ToFloat64(g.cfg.Metrics.requests.WithLabelValues("unmatched", "GET", "404")); got != 1 {
		t.Errorf("v2bridge_requests_total{unmatched,GET,404} = %v, want 1", got)
	}

	// A handler that writes nothing at all is a 200 in the series.
	silent := g.middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	silent.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/silent.json", nil))
	if got := testutil.ToFloat64(g.cfg.Metrics.requests.WithLabelValues("unmatched", "GET", "200")); got != 1 {
		t.Errorf("v2bridge_requests_total{unmatched,GET,200} = %v, want 1", got)
	}
}

// TestStatusWriter: the first status written is the one recorded; a body written without
// a status records 200; bytes are counted.
func TestStatusWriter(t *testing.T) {
	tests := []struct {
		name    string
		headers []int
		writes  []string
		want    int
		bytes   int
	}{
		{"nothing", nil, nil, 0, 0},
		{"one status", []int{404}, nil, 404, 0},
		{"first status wins", []int{404, 500}, nil, 404, 0},
		{"status then body", []int{422}, []string{"ab", "c"}, 422, 3},
		{"body alone", nil, []string{"abcd"}, 200, 4},
	}
	for _, tt := range tests {
		w := &statusWriter{ResponseWriter: httptest.NewRecorder()}
		for _, c := range tt.headers {
			w.WriteHeader(c)
		}
		for _, s := range tt.writes {
			if _, err := w.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		if w.status != tt.want || w.bytes != tt.bytes {
			t.Errorf("%s: status %d, %d bytes; want %d, %d", tt.name, w.status, w.bytes, tt.want, tt.bytes)
		}
	}
}

// TestAccessLogEdges: a 500 without an internal error is a warning and a 499 is
// not; an unwritten status logs as 200; an enrichment noted with noteDegraded is
// listed, a request without state notes nothing.
func TestAccessLogEdges(t *testing.T) {
	for _, tc := range []struct {
		status, logged int
		want           zapcore.Level
	}{{500, 500, zapcore.WarnLevel}, {499, 499, zapcore.InfoLevel}, {0, 200, zapcore.InfoLevel}, {501, 501, zapcore.WarnLevel}} {
		core, logs := observer.New(zapcore.InfoLevel)
		g := New(Config{}, nil, zap.New(core))
		st := &reqState{id: "rid", route: "applications.list"}
		st.sw.status = tc.status
		ctx := context.WithValue(context.Background(), stateKey{}, st)
		noteDegraded(ctx, "links", errors.New("nrql failed"))
		g.accessLog(httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil), &st.sw, st)
		e := logs.All()
		if len(e) != 1 || e[0].Level != tc.want || e[0].ContextMap()["status"] != int64(tc.logged) {
			t.Fatalf("status %d: %+v, want one line at %v with status %d", tc.status, e, tc.want, tc.logged)
		}
		if d, _ := e[0].ContextMap()["degraded"].([]any); len(d) != 1 || d[0] != "links: nrql failed" {
			t.Errorf("degraded field %v, want the noted enrichment", e[0].ContextMap()["degraded"])
		}
	}
	noteDegraded(context.Background(), "links", errors.New("x")) // no state: nothing to note, no panic
	if RequestID(context.Background()) != "" {
		t.Error("RequestID without state is not empty")
	}
}

// TestRequestContextAnswersForTheRequest: the context the middleware hands on gives the
// request's state and its NerdGraph call counter, passes every other key and the
// caller's cancellation through from the server's context. (The caps a read notes on
// it reach the request's own notes: the e2e TestCaps... tests read them in the header.)
func TestRequestContextAnswersForTheRequest(t *testing.T) {
	type serverKey struct{}
	g := New(Config{RateLimitPerMinute: -1}, nil, nil)
	var st *reqState
	var calls *ng.Calls
	var inherited any
	var ended bool
	h := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		st, calls, inherited = stateFrom(ctx), ng.CallsFrom(ctx), ctx.Value(serverKey{})
		<-ctx.Done()
		ended = true
	}))
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), serverKey{}, "server's"))
	cancel() // the caller has gone: the handler's context must say so
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil).WithContext(parent))
	switch {
	case st == nil:
		t.Fatal("no request state on the handler's context")
	case calls != &st.calls:
		t.Fatalf("NerdGraph calls counted in %p, want the state's %p", calls, &st.calls)
	case inherited != "server's":
		t.Fatalf("the server context's value = %v, want it passed through", inherited)
	case !ended:
		t.Fatal("the caller's cancellation did not reach the handler's context")
	}
}
