package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// deadREST is a REST v2 base URL that never answers: its server aborts every request,
// so each fails in transport. It holds its port until the test ends: a port closed at
// once could be taken by another test's server (seen in CI: the simulator's, whose 404
// the caller then got as the REST side's answer).
func deadREST(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	t.Cleanup(srv.Close)
	return srv.URL + "/v2"
}

// An unreachable REST side is an error of that side, never a difference, in both
// directions of compare mode; with fallback the caller gets the other side's answer.
func TestCompareFailingSide(t *testing.T) {
	const path = "/v2/applications/314221522.json"
	translated := newEnv(t).get(t, path, key1).body
	for _, tc := range []struct {
		name         string
		primaryGraph bool
		fallback     bool
		wantStatus   int
		wantBody     []byte
		wantFallback string
	}{
		{name: "rest primary, no fallback", wantStatus: http.StatusBadGateway},
		{name: "rest primary, fallback", fallback: true, wantStatus: http.StatusOK, wantBody: translated, wantFallback: "graph"},
		{name: "graph primary", primaryGraph: true, wantStatus: http.StatusOK, wantBody: translated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := gateway.NewMetrics()
			h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RESTUpstream: deadREST(t), Metrics: m,
				Modes: map[string]gateway.Mode{"applications.show": gateway.ModeCompare}},
				Migrate: migrate.Config{ReportToken: "tok", Compare: migrate.CompareSettings{PrimaryGraph: tc.primaryGraph,
					FallbackFor: map[string]bool{"applications.show": tc.fallback}}}})
			e := &env{sim: h.Sim, gw: h.Gateway}
			r := e.get(t, path, key1, "X-Account-ID", "1000001")
			if r.status != tc.wantStatus || (tc.wantBody != nil && !bytes.Equal(r.body, tc.wantBody)) {
				t.Fatalf("caller got %d %.200s", r.status, r.body)
			}
			if got := r.header.Get("X-V2bridge-Fallback"); got != tc.wantFallback {
				t.Fatalf("X-V2bridge-Fallback = %q, want %q", got, tc.wantFallback)
			}
			waitCount(t, m, "applications.show", "error", 1)
			if n := testutil.ToFloat64(m.CompareErrorCounter("applications.show", "rest")); n != 1 {
				t.Fatalf("errors of the rest side = %v, want 1", n)
			}
			if n := compareCount(t, m, "applications.show", "diff"); n != 0 {
				t.Fatalf("a dead REST side counted as %v differences", n)
			}
			// The usage report shows the route's error rate, by side, and no differences.
			var rep struct {
				Compare []migrate.CompareRate `json:"compare"`
			}
			if err := json.Unmarshal(e.get(t, "/v2bridge/report.json", "", "Authorization", "Bearer tok").body, &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Compare) != 1 || rep.Compare[0].ErrorRate != 1 || rep.Compare[0].DiffRate != 0 || rep.Compare[0].BySide["rest"] != 1 {
				t.Fatalf("report compare rows: %+v", rep.Compare)
			}
			if html := e.get(t, "/v2bridge/report", "", "Authorization", "Bearer tok").body; !strings.Contains(string(html), "<td>100.0% rest: 1</td>") {
				t.Fatalf("HTML report lacks the error rate:\n%s", html)
			}
			if tc.fallback {
				if n := testutil.ToFloat64(m.CompareFallbackCounter("applications.show", "graph")); n != 1 {
					t.Fatalf("fallbacks = %v", n)
				}
			}
		})
	}
}

// Fallback is off by default and never applies when the primary answered: the caller
// gets the primary's answer and the comparison runs as usual.
func TestCompareFallbackPrimaryAnswered(t *testing.T) {
	const path = "/v2/applications/314221522.json"
	translated := newEnv(t).get(t, path, key1).body
	e, m := fallbackShow(t, path, bytes.Replace(translated, []byte(`"name":"100% Uptime Monitor"`), []byte(`"name":"Renamed"`), 1))
	r := e.get(t, path, key1, "X-Account-ID", "1000001")
	if r.status != 200 || !bytes.Contains(r.body, []byte("Renamed")) || r.header.Get("X-V2bridge-Fallback") != "" {
		t.Fatalf("caller got %d %v %.100s", r.status, r.header.Get("X-V2bridge-Fallback"), r.body)
	}
	waitCount(t, m, "applications.show", "diff", 1)
}

// With fallback on, the background comparison runs the secondary on the route's own
// path variables (the application id): the same answer on both sides is a match.
func TestCompareFallbackSecondarySeesRouteVars(t *testing.T) {
	const path = "/v2/applications/314221522.json"
	translated := newEnv(t).get(t, path, key1, "X-Account-ID", "1000001").body
	e, m := fallbackShow(t, path, translated)
	if r := e.get(t, path, key1, "X-Account-ID", "1000001"); r.status != 200 || !bytes.Equal(r.body, translated) {
		t.Fatalf("caller got %d %.100s", r.status, r.body)
	}
	waitCount(t, m, "applications.show", "match", 1)
}

// /readyz?verbose lists every upstream the configuration depends on with its state;
// without a REST dependency only NerdGraph is listed.
func TestReadyzVerboseUpstreams(t *testing.T) {
	dead := deadREST(t)
	for _, tc := range []struct {
		name string
		cfg  gateway.Config
		want []string
		not  []string
	}{
		{name: "translate only", cfg: gateway.Config{RESTUpstream: dead},
			want: []string{"upstream nerdgraph: ok"}, not: []string{"upstream rest"}},
		{name: "compare route, REST down", cfg: gateway.Config{RESTUpstream: dead,
			Modes: map[string]gateway.Mode{"applications.show": gateway.ModeCompare}},
			want: []string{"upstream nerdgraph: ok", "upstream rest " + dead + ": unreachable: "}},
		{name: "retained alerts passed through", cfg: gateway.Config{RESTUpstream: newFakeREST(t).srv.URL + "/v2",
			RetainedAlerts: gateway.ModePassthrough},
			want: []string{"upstream nerdgraph: ok", "/v2: ok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnvWith(t, tc.cfg)
			r := e.get(t, "/readyz?verbose", "")
			for _, w := range tc.want {
				if !strings.Contains(string(r.body), w) {
					t.Errorf("readyz?verbose lacks %q:\n%s", w, r.body)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(r.body), n) {
					t.Errorf("readyz?verbose has %q:\n%s", n, r.body)
				}
			}
			if plain := e.get(t, "/readyz", ""); strings.Contains(string(plain.body), "upstream") {
				t.Errorf("plain /readyz lists upstreams: %s", plain.body)
			}
		})
	}
}

// With fallback on, a good primary answer larger than the comparison buffer reaches the
// caller whole (streamed, never truncated); only the comparison is skipped.
func TestCompareFallbackLargeAnswer(t *testing.T) {
	const path = "/v2/applications/314221522.json"
	big := []byte(`{"application":{"id":314221522,"name":"` + strings.Repeat("x", 5<<20) + `"}}`)
	e, m := fallbackShow(t, path, big)
	r := e.get(t, path, key1, "X-Account-ID", "1000001")
	if r.status != 200 || !bytes.Equal(r.body, big) {
		t.Fatalf("caller got %d, %d of %d bytes", r.status, len(r.body), len(big))
	}
	waitCount(t, m, "applications.show", "skipped", 1)
}

// fallbackShow is a gateway whose applications.show runs in compare mode with fallback,
// over a REST double answering path with restBody, and its metrics.
func fallbackShow(t *testing.T, path string, restBody []byte) (*env, *gateway.Metrics) {
	t.Helper()
	rest := newFakeREST(t)
	rest.bodies[path] = restBody
	m := gateway.NewMetrics()
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RESTUpstream: rest.srv.URL + "/v2", Metrics: m,
		Modes: map[string]gateway.Mode{"applications.show": gateway.ModeCompare}},
		Migrate: migrate.Config{Compare: migrate.CompareSettings{Fallback: true}}})
	return &env{sim: h.Sim, gw: h.Gateway}, m
}
