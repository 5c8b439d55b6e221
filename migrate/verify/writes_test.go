package verify

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The write exchanges of `verify --writes`, each side a recording fake: the body and
// its Content-Type sent only with a body, the statuses and JSON bodies compared, the
// default stamp, every cleanup run (last first) and the deployment's id.

// recSide answers the write plan's requests and records each as
// "METHOD path content-type body".
type recSide struct {
	mu        sync.Mutex
	calls     []string
	policy    string // the policy create's answer
	policySt  int    // its status (0: 200)
	deploy    string // the deployment create's answer
	condition string
}

func (f *recSide) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.calls = append(f.calls, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b)))
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v2/alerts_policies.json":
		if f.policySt != 0 {
			w.WriteHeader(f.policySt)
		}
		_, _ = w.Write([]byte(f.policy))
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v2/alerts_nrql_conditions/policies/"):
		_, _ = w.Write([]byte(f.condition))
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/deployments.json"):
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(f.deploy))
	default:
		_, _ = w.Write([]byte(`{}`))
	}
}

func newRecSide() *recSide {
	return &recSide{policy: `{"policy":{"id":71,"name":"p"}}`, condition: `{"nrql_condition":{"id":81,"name":"c"}}`,
		deploy: `{"deployment":{"id":91,"revision":"r"}}`}
}

// runWrites runs the write plan against the two fakes with stamp (now: 2026-11-25
// 08:09:10 UTC) and returns the report's exchanges.
func runWrites(t *testing.T, rest, tr *recSide, app int64, stamp string) []Exchange {
	t.Helper()
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	c := &fakeClock{now: time.Unix(0, 0), answer: true}
	now := time.Date(2026, 11, 25, 8, 9, 10, 0, time.FixedZone("CET", 3600))
	r := &runner{cfg: Config{REST: Side{Base: rs.URL, Client: rs.Client()}, Translation: Side{Base: ts.URL, Client: ts.Client()},
		WriteApp: app, Stamp: stamp, Now: func() time.Time { return now }, Tolerance: 0.05},
		rep: &Report{}, last: map[*Side]time.Time{}, clock: c.clock, sleep: c.sleep}
	r.writes(context.Background())
	return r.rep.Exchanges
}

func TestWritesSentAndCompared(t *testing.T) {
	rest, tr := newRecSide(), newRecSide()
	xs := runWrites(t, rest, tr, 42, "")
	// The default stamp is the clock's time in UTC (writes.go `stamp == ""`).
	policy := `POST /v2/alerts_policies.json application/json {"policy":{"name":"v2bridge-verify 20261125T070910Z","incident_preference":"PER_POLICY"}}`
	wantREST := []string{
		policy,
		"POST /v2/alerts_nrql_conditions/policies/71.json application/json",
		`PUT /v2/alerts_nrql_conditions/81.json application/json {"nrql_condition":{"name":"v2bridge-verify 20261125T070910Z (updated)"}}`,
		"DELETE /v2/alerts_nrql_conditions/81.json", // no body, no Content-Type (send's `body != ""`)
		"DELETE /v2/alerts_policies/71.json",
		`POST /v2/applications/42/deployments.json application/json {"deployment":{"revision":"v2bridge-verify 20261125T070910Z","description":"v2bridge verify --writes","user":"v2bridge"}}`,
		"DELETE /v2/applications/42/deployments/91.json", // the cleanup of the REST side's deployment (`id != ""`)
	}
	if len(rest.calls) != len(wantREST) {
		t.Fatalf("REST side got %d requests, want %d:\n%s", len(rest.calls), len(wantREST), strings.Join(rest.calls, "\n"))
	}
	for i, w := range wantREST {
		if got := rest.calls[i]; got != w && !(strings.HasSuffix(w, "application/json") && strings.HasPrefix(got, w+" {")) {
			t.Errorf("REST request %d:\n got %s\nwant %s", i, got, w)
		}
	}
	if n := len(tr.calls); n != len(wantREST)-1 || slices.ContainsFunc(tr.calls, func(c string) bool { return strings.Contains(c, "deployments/") }) {
		t.Errorf("translation side: %d requests, a deployment deleted: %q", n, tr.calls)
	}
	// Same statuses and JSON bodies: compared, no error, no $status field.
	if len(xs) != 6 {
		t.Fatalf("%d exchanges", len(xs))
	}
	for _, x := range xs {
		if x.Error != "" || slices.ContainsFunc(x.Fields, func(f Field) bool { return f.Path == "$status" }) {
			t.Errorf("%s: error %q fields %+v", x.Path, x.Error, x.Fields)
		}
	}
}

// Two answers that differ: the status (write's `a.status != b.status`) and a body that is
// not JSON on either side (its two `json.Unmarshal(...) != nil`).
func TestWriteAnswersCompared(t *testing.T) {
	for _, c := range []struct {
		name             string
		restBody, trBody string
		trStatus         int
		err              string
		status           bool
	}{
		{name: "status differs", restBody: `{"policy":{"id":71}}`, trBody: `{"policy":{"id":72}}`, trStatus: http.StatusCreated, status: true},
		{name: "REST body not JSON", restBody: `<policy/>`, trBody: `{"policy":{"id":72}}`, err: "a side's body is not JSON"},
		{name: "translation body not JSON", restBody: `{"policy":{"id":71}}`, trBody: `oops`, err: "a side's body is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rest, tr := newRecSide(), newRecSide()
			rest.policy, tr.policy, tr.policySt = c.restBody, c.trBody, c.trStatus
			xs := runWrites(t, rest, tr, 0, "s")
			x := xs[0]
			if x.Route != "alerts_policies.create" || x.Error != c.err {
				t.Fatalf("%s: error %q, want %q", x.Route, x.Error, c.err)
			}
			hasStatus := slices.ContainsFunc(x.Fields, func(f Field) bool {
				return f.Path == "$status" && f.Verdict == Different && f.REST == 200 && f.Translation == 201
			})
			if hasStatus != c.status {
				t.Fatalf("$status field %v, want %v: %+v", hasStatus, c.status, x.Fields)
			}
			if !strings.Contains(rest.calls[0], `"name":"v2bridge-verify s"`) {
				t.Fatalf("the given stamp is not the name: %s", rest.calls[0])
			}
		})
	}
}

// A policy created on one side only is removed by the cleanup, after the deployment's
// (cleanups run last first, down to the first: writes.go `i >= 0`).
func TestWritesCleanup(t *testing.T) {
	rest, tr := newRecSide(), newRecSide()
	tr.policy = `{"error":{"title":"no"}}`
	tr.policySt = http.StatusUnprocessableEntity
	runWrites(t, rest, tr, 42, "s")
	var tail []string
	for _, c := range rest.calls[1:] {
		tail = append(tail, strings.SplitN(c, " {", 2)[0])
	}
	want := []string{"POST /v2/applications/42/deployments.json application/json", "DELETE /v2/applications/42/deployments/91.json", "DELETE /v2/alerts_policies/71.json"}
	if !slices.Equal(tail, want) {
		t.Fatalf("REST side after the policy:\n%s\nwant\n%s", strings.Join(tail, "\n"), strings.Join(want, "\n"))
	}
	if slices.ContainsFunc(tr.calls, func(c string) bool { return strings.HasPrefix(c, "DELETE /v2/alerts_policies/") }) {
		t.Fatalf("the translation side's policy (never created) was deleted: %q", tr.calls)
	}
	// No id in the REST side's deployment answer: nothing to delete.
	rest, tr = newRecSide(), newRecSide()
	rest.deploy = `{"deployment":{}}`
	runWrites(t, rest, tr, 42, "s")
	if slices.ContainsFunc(rest.calls, func(c string) bool { return strings.Contains(c, "/deployments/") }) {
		t.Fatalf("a deployment without an id was deleted: %q", rest.calls)
	}
}
