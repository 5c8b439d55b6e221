package e2e

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// Writes whose outcome is unknown (translate/writeoutcome.go).

const createOp = "DeploymentCreateEvent"

// newFaultEnv is a gateway over a simulator with fault injection and a short upstream
// timeout (apply-then-hang answers 504 quickly); extra simulator options are added.
func newFaultEnv(t *testing.T, extra ...sim.Option) (*env, *sim.Faults) {
	t.Helper()
	faults := &sim.Faults{}
	// The timeout ends the apply-then-hang calls; the reads around them must finish
	// well within it even under -race on a loaded 2-core machine (where the demo
	// account's hour-long inventory NRQL is slow).
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{},
		Sim: append([]sim.Option{sim.WithMiddleware(faults.Middleware)}, extra...), UpstreamTimeout: 2 * time.Second})
	return &env{sim: h.Sim, gw: h.Gateway}, faults
}

// applyThen are the fault modes in which NerdGraph records the write but the gateway
// gets no usable answer.
var applyThen = []struct {
	name   string
	fault  sim.Fault
	status int
}{
	{"apply-then-hang", sim.Fault{AfterApply: true, Hang: true}, 504},
	{"apply-then-reset", sim.Fault{AfterApply: true, Reset: true}, 502},
	{"apply-then-500", sim.Fault{AfterApply: true, Status: 500}, 502},
}

// A retry of a deployment whose first attempt was recorded but not answered is
// answered with that deployment (201, the same id) and nothing is recorded twice; the
// first caller was told it may have been recorded.
func TestDeploymentRetryAfterUnknownOutcome(t *testing.T) {
	bodies := map[string]string{
		"without timestamp": `{"deployment":{"revision":"r-1","changelog":"c","description":"d","user":"u"}}`,
		"with timestamp":    `{"deployment":{"revision":"r-1","user":"u","timestamp":"2026-11-20T11:59:00Z"}}`,
	}
	for _, mode := range applyThen {
		for bname, body := range bodies {
			t.Run(mode.name+"/"+bname, func(t *testing.T) {
				e, faults := newFaultEnv(t)
				f := mode.fault
				f.Operation, f.First = createOp, 1
				faults.Set(&f)
				r, b := e.post(t, deployPath, body)
				if r.status != mode.status || b.Error == nil || !strings.Contains(b.Error.Title, "may have been recorded") {
					t.Fatalf("first attempt: %d %s", r.status, r.body)
				}
				r, b = e.post(t, deployPath, body)
				if r.status != 201 || b.Deployment == nil || b.Deployment.Revision != "r-1" {
					t.Fatalf("retry: %d %s", r.status, r.body)
				}
				if n := e.sim.RequestsByOperation()[createOp]; n != 1 {
					t.Fatalf("recorded %d times", n)
				}
				list := e.deployments(t)
				if len(list) != 1 || list[0].ID != b.Deployment.ID || list[0].Timestamp != b.Deployment.Timestamp {
					t.Fatalf("listed %+v, retry answered %+v", list, *b.Deployment)
				}
				// The retry settled the attempt: a deliberate identical deployment now is a
				// new one, as REST recorded it.
				if r, _ := e.post(t, deployPath, strings.Replace(body, "2026-11-20T11:59:00Z", "2026-11-20T11:59:30Z", 1)); r.status != 201 {
					t.Fatalf("next deployment: %d %s", r.status, r.body)
				}
				if r, _ := e.post(t, deployPath, `{"deployment":{"revision":"r-1","changelog":"c","description":"d","user":"u"}}`); r.status != 201 {
					t.Fatalf("deliberate duplicate: %d %s", r.status, r.body)
				}
				if n := e.sim.RequestsByOperation()[createOp]; n != 3 {
					t.Fatalf("recorded %d times, want 3", n)
				}
			})
		}
	}
}

// With use_create_deployment (changeTrackingCreateDeployment, Deployment events) the
// retry finds the deployment the same way.
func TestDeploymentRetryAfterUnknownOutcomeLegacyMutation(t *testing.T) {
	faults := &sim.Faults{}
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{UseCreateDeployment: true},
		Sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}, UpstreamTimeout: 2 * time.Second})
	e := &env{sim: h.Sim, gw: h.Gateway}
	faults.Set(&sim.Fault{Operation: "DeploymentCreate", First: 1, AfterApply: true, Reset: true})
	body := `{"deployment":{"revision":"legacy","description":"d"}}`
	if r, _ := e.post(t, deployPath, body); r.status != 502 {
		t.Fatalf("first attempt: %d %s", r.status, r.body)
	}
	r, b := e.post(t, deployPath, body)
	if r.status != 201 || b.Deployment == nil || e.sim.RequestsByOperation()["DeploymentCreate"] != 1 {
		t.Fatalf("retry: %d %s, recorded %d", r.status, r.body, e.sim.RequestsByOperation()["DeploymentCreate"])
	}
	if list := e.deployments(t); len(list) != 1 || list[0].ID != b.Deployment.ID {
		t.Fatalf("listed %+v, answered %+v", list, *b.Deployment)
	}
}

// NRDB lists a new change event after a delay: a retry that cannot find the unknown
// attempt yet is told so (503 with Retry-After) and nothing is sent; once the event is
// listed, the retry is answered with it.
func TestDeploymentRetryBeforeIngest(t *testing.T) {
	clk := &ingestClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e, faults := newFaultEnv(t, sim.WithIngestDelay(testIngestDelay), sim.WithIngestClock(clk.now))
	faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Status: 500})
	body := `{"deployment":{"revision":"slow"}}`
	if r, _ := e.post(t, deployPath, body); r.status != 502 {
		t.Fatalf("first attempt: %d %s", r.status, r.body)
	}
	r, b := e.post(t, deployPath, body)
	if r.status != 503 || r.header.Get("Retry-After") == "" || b.Error == nil || !strings.Contains(b.Error.Title, "may still appear") {
		t.Fatalf("retry before ingest: %d %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	if secs, _ := strconv.Atoi(r.header.Get("Retry-After")); secs < 1 || secs > 120 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	clk.advance(testIngestDelay)
	r, b = e.post(t, deployPath, body)
	if r.status != 201 || b.Deployment == nil || b.Deployment.Revision != "slow" {
		t.Fatalf("retry after ingest: %d %s", r.status, r.body)
	}
	if n := e.sim.RequestsByOperation()[createOp]; n != 1 {
		t.Fatalf("recorded %d times", n)
	}
	if list := e.deployments(t); len(list) != 1 || list[0].ID != b.Deployment.ID {
		t.Fatalf("listed %+v", list)
	}
	// The same on the legacy v0 route, in its XML errors.
	faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Status: 500})
	form := url.Values{"deployment[application_id]": {metricApp}, "deployment[revision]": {"slow-v0"}}.Encode()
	hdr := []string{"Content-Type", "application/x-www-form-urlencoded"}
	if r := e.do(t, http.MethodPost, "/deployments.xml", key1, strings.NewReader(form), hdr...); r.status != 502 {
		t.Fatalf("v0 first attempt: %d %s", r.status, r.body)
	}
	r = e.do(t, http.MethodPost, "/deployments.xml", key1, strings.NewReader(form), hdr...)
	if r.status != 503 || r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), "<error>Deployment not recorded: An identical deployment") {
		t.Fatalf("v0 retry before ingest: %d %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	clk.advance(testIngestDelay)
	if r = e.do(t, http.MethodPost, "/deployments.xml", key1, strings.NewReader(form), hdr...); r.status != 201 || e.sim.RequestsByOperation()[createOp] != 2 {
		t.Fatalf("v0 retry after ingest: %d %s, recorded %d", r.status, r.body, e.sim.RequestsByOperation()[createOp])
	}
}

// newClockedEnv is newFaultEnv with the translator on clk (the attempt window and
// the settle time run on it) and change events that NRQL never lists in the test.
func newClockedEnv(t *testing.T, clk *ingestClock) (*env, *sim.Faults) {
	t.Helper()
	faults := &sim.Faults{}
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return harness.Clock }
	s, err := sim.NewDemo(data, sim.WithClock(fixed), sim.WithMiddleware(faults.Middleware),
		sim.WithIngestDelay(time.Hour), sim.WithIngestClock(fixed))
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(s)
	t.Cleanup(simSrv.Close)
	client := ng.NewClient(simSrv.URL+sim.Path, ng.Options{Timeout: 300 * time.Millisecond})
	tr := translate.New(client, translate.Options{Now: clk.now})
	gw := httptest.NewServer(gateway.New(gateway.Config{Now: fixed}, tr, nil).Handler())
	t.Cleanup(gw.Close)
	return &env{sim: s, gw: gw}, faults
}

// An unknown attempt that never appears is answered 503 until DeploymentSettle has
// passed; then the retry records it (the gateway's choice: after New Relic's own
// 2-minute allowance for late data, a write still missing is taken as not recorded).
// An Idempotency-Key's record ends with the window.
func TestDeploymentRetryAfterSettle(t *testing.T) {
	clk := &ingestClock{t: harness.Clock}
	e, faults := newClockedEnv(t, clk)
	faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Status: 500})
	body := `{"deployment":{"revision":"lost"}}`
	steps := []struct {
		name     string
		advance  time.Duration
		status   int
		recorded int64
	}{
		{"first attempt", 0, 502, 1},
		{"retry: not listed", time.Second, 503, 1},
		{"retry: still within the settle time", translate.DeploymentSettle - 2*time.Second, 503, 1},
		{"retry: settled, sent again", 2 * time.Second, 201, 2},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		r, _ := e.post(t, deployPath, body, "Idempotency-Key", "lost-1")
		if r.status != s.status || e.sim.RequestsByOperation()[createOp] != s.recorded {
			t.Fatalf("%s: %d %s, recorded %d", s.name, r.status, r.body, e.sim.RequestsByOperation()[createOp])
		}
	}
	clk.advance(state.DefaultWriteAttemptWindow - time.Second)
	if r, _ := e.post(t, deployPath, body, "Idempotency-Key", "lost-1"); r.status != 201 || e.sim.RequestsByOperation()[createOp] != 2 {
		t.Fatalf("within the window: %d, recorded %d", r.status, e.sim.RequestsByOperation()[createOp])
	}
	clk.advance(time.Second)
	if r, _ := e.post(t, deployPath, body, "Idempotency-Key", "lost-1"); r.status != 201 || e.sim.RequestsByOperation()[createOp] != 3 {
		t.Fatalf("after the window: %d, recorded %d", r.status, e.sim.RequestsByOperation()[createOp])
	}
}

// concurrentPosts sends n identical POSTs at once and returns their answers.
func concurrentPosts(t *testing.T, e *env, n int, body string, hdr ...string) []response {
	t.Helper()
	out := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = e.do(t, http.MethodPost, e.gw.URL+deployPath, key1, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, hdr...)...)
		}()
	}
	wg.Wait()
	return out
}

// Five identical POSTs at once (no timestamp: each would get its own receive time)
// record one deployment and all five are answered 201 with it.
func TestDeploymentConcurrentIdenticalPosts(t *testing.T) {
	e, faults := newFaultEnv(t)
	faults.Set(&sim.Fault{Operation: createOp, Latency: 200 * time.Millisecond}) // they overlap
	rs := concurrentPosts(t, e, 5, `{"deployment":{"revision":"same","user":"ci"}}`)
	var id string
	for i, r := range rs {
		var b deploymentsBody
		if r.status != 201 || decodeInto(r.body, &b) != nil || b.Deployment == nil {
			t.Fatalf("caller %d: %d %s", i, r.status, r.body)
		}
		if got := strconv.FormatInt(b.Deployment.ID, 10); id == "" {
			id = got
		} else if got != id {
			t.Fatalf("caller %d got deployment %s, another %s", i, got, id)
		}
	}
	if n := e.sim.RequestsByOperation()[createOp]; n != 1 {
		t.Fatalf("recorded %d times", n)
	}
	if list := e.deployments(t); len(list) != 1 || strconv.FormatInt(list[0].ID, 10) != id {
		t.Fatalf("listed %+v", list)
	}
}

// Five identical POSTs at once whose one write is applied but not answered: the caller
// that sent it is told the outcome is unknown, the four others find the deployment
// and are answered 201 with it; one is recorded.
func TestDeploymentConcurrentIdenticalPostsUnknownOutcome(t *testing.T) {
	e, faults := newFaultEnv(t)
	faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Latency: 200 * time.Millisecond, Status: 500})
	rs := concurrentPosts(t, e, 5, `{"deployment":{"revision":"same"}}`)
	created, unknown := 0, 0
	for i, r := range rs {
		switch {
		case r.status == 201:
			created++
		case r.status == 502 && strings.Contains(string(r.body), "may have been recorded"):
			unknown++
		default:
			t.Fatalf("caller %d: %d %s", i, r.status, r.body)
		}
	}
	if created != 4 || unknown != 1 || e.sim.RequestsByOperation()[createOp] != 1 {
		t.Fatalf("%d created, %d unknown, %d recorded", created, unknown, e.sim.RequestsByOperation()[createOp])
	}
	if list := e.deployments(t); len(list) != 1 {
		t.Fatalf("listed %+v", list)
	}
}

// Idempotency-Key: a repeat is answered with the recorded deployment (no second one),
// even after a known success; the same key with another body is a 422; no key records
// a deliberate duplicate as REST did.
func TestDeploymentIdempotencyKey(t *testing.T) {
	e, _ := newFaultEnv(t)
	body := `{"deployment":{"revision":"k1"}}`
	r1, b1 := e.post(t, deployPath, body, "Idempotency-Key", "release-42")
	r2, b2 := e.post(t, deployPath, body, "Idempotency-Key", "release-42")
	if r1.status != 201 || r2.status != 201 || b1.Deployment == nil || b2.Deployment == nil || b1.Deployment.ID != b2.Deployment.ID {
		t.Fatalf("%d %s / %d %s", r1.status, r1.body, r2.status, r2.body)
	}
	if n := e.sim.RequestsByOperation()[createOp]; n != 1 {
		t.Fatalf("recorded %d times", n)
	}
	r, b := e.post(t, deployPath, `{"deployment":{"revision":"k2"}}`, "Idempotency-Key", "release-42")
	if r.status != 422 || b.Error == nil || !strings.Contains(b.Error.Title, "Idempotency-Key was already used with a different request") {
		t.Fatalf("reuse: %d %s", r.status, r.body)
	}
	for _, bad := range []string{strings.Repeat("k", 256), "tab\there"} {
		if r, _ := e.post(t, deployPath, body, "Idempotency-Key", bad); r.status != 422 {
			t.Fatalf("key %q: %d %s", bad, r.status, r.body)
		}
	}
	if r, _ := e.post(t, deployPath, body); r.status != 201 || e.sim.RequestsByOperation()[createOp] != 2 {
		t.Fatalf("without key: %d, recorded %d", r.status, e.sim.RequestsByOperation()[createOp])
	}
}

// The legacy v0 POST /deployments.xml: a retry after an unknown outcome is answered
// with the recorded deployment, by id or by application name, and an Idempotency-Key
// reused with another body is a 422 in v0's XML.
func TestDeploymentV0RetryAndIdempotencyKey(t *testing.T) {
	form := func(v url.Values) *strings.Reader { return strings.NewReader(v.Encode()) }
	hdr := []string{"Content-Type", "application/x-www-form-urlencoded"}
	v0id := func(t *testing.T, r response) int64 {
		t.Helper()
		var d struct {
			XMLName xml.Name `xml:"deployment"`
			ID      int64    `xml:"id"`
		}
		if r.status != 201 || xml.Unmarshal(r.body, &d) != nil || d.ID == 0 {
			t.Fatalf("v0: %d %s", r.status, r.body)
		}
		return d.ID
	}
	for name, app := range map[string]url.Values{
		"by id":   {"deployment[application_id]": {metricApp}},
		"by name": {"deployment[app_name]": {"100% Uptime Monitor"}},
	} {
		t.Run(name, func(t *testing.T) {
			e, faults := newFaultEnv(t)
			faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Reset: true})
			v := url.Values{"deployment[revision]": {"v0-retry"}}
			for k, x := range app {
				v[k] = x
			}
			if r := e.do(t, http.MethodPost, "/deployments.xml", key1, form(v), hdr...); r.status != 502 || !strings.Contains(string(r.body), "may have been recorded") {
				t.Fatalf("first: %d %s", r.status, r.body)
			}
			id := v0id(t, e.do(t, http.MethodPost, "/deployments.xml", key1, form(v), hdr...))
			if n := e.sim.RequestsByOperation()[createOp]; n != 1 {
				t.Fatalf("recorded %d times", n)
			}
			if list := e.deployments(t); len(list) != 1 || list[0].ID != id {
				t.Fatalf("listed %+v, answered %d", list, id)
			}
			keyed := append(hdr, "Idempotency-Key", "v0-key")
			first := v0id(t, e.do(t, http.MethodPost, "/deployments.xml", key1, form(v), keyed...))
			if again := v0id(t, e.do(t, http.MethodPost, "/deployments.xml", key1, form(v), keyed...)); again != first {
				t.Fatalf("repeat with key: %d, first %d", again, first)
			}
			v.Set("deployment[revision]", "other")
			r := e.do(t, http.MethodPost, "/deployments.xml", key1, form(v), keyed...)
			if r.status != 422 || !strings.Contains(string(r.body), "<error>Deployment not recorded: Idempotency-Key was already used") {
				t.Fatalf("reuse: %d %s", r.status, r.body)
			}
			if n := e.sim.RequestsByOperation()[createOp]; n != 2 {
				t.Fatalf("recorded %d times, want 2", n)
			}
		})
	}
}

// Application writes with an unknown outcome: an update is idempotent by construction
// (the retry reads the applied values and sends nothing); a delete's retry answers 200
// with the application the first attempt deleted.
func TestApplicationWritesRetryAfterUnknownOutcome(t *testing.T) {
	for _, mode := range applyThen {
		t.Run(mode.name+"/update", func(t *testing.T) {
			e, faults := newFaultEnv(t)
			f := mode.fault
			f.Operation, f.First = "AppUpdate", 1
			faults.Set(&f)
			body := `{"application":{"name":"Renamed once","settings":{"app_apdex_threshold":0.7}}}`
			if r, _ := e.put(t, "/v2/applications/"+metricApp+".json", body); r.status != mode.status || !strings.Contains(string(r.body), "may have been recorded") {
				t.Fatalf("first: %d %s", r.status, r.body)
			}
			r, b := e.put(t, "/v2/applications/"+metricApp+".json", body)
			if r.status != 200 || b.Application.Name != "Renamed once" || b.Application.Settings.AppApdexThreshold != 0.7 {
				t.Fatalf("retry: %d %s", r.status, r.body)
			}
			if n := e.sim.RequestsByOperation()["AppUpdate"]; n != 1 {
				t.Fatalf("applied %d times", n)
			}
		})
		t.Run(mode.name+"/delete", func(t *testing.T) {
			e, faults := newFaultEnv(t)
			f := mode.fault
			f.Operation, f.First = "AppDelete", 1
			faults.Set(&f)
			const gone = "/v2/applications/439883550.json"
			if r := e.do(t, http.MethodDelete, gone, key1, nil); r.status != mode.status || !strings.Contains(string(r.body), "may have been recorded") {
				t.Fatalf("first: %d %s", r.status, r.body)
			}
			r := e.do(t, http.MethodDelete, gone, key1, nil)
			if b := decode(t, r); r.status != 200 || b.Application == nil || b.Application.ID != 439883550 {
				t.Fatalf("retry: %d %s", r.status, r.body)
			}
			if r := e.get(t, gone, key1); r.status != 404 {
				t.Fatalf("deleted app shown: %d", r.status)
			}
			// Settled: a further delete is REST's 404.
			if r := e.do(t, http.MethodDelete, gone, key1, nil); r.status != 404 {
				t.Fatalf("third delete: %d %s", r.status, r.body)
			}
			if n := e.sim.RequestsByOperation()["AppDelete"]; n != 1 {
				t.Fatalf("deleted %d times", n)
			}
		})
	}
}

func decodeInto(b []byte, v any) error { return json.Unmarshal(b, v) }
