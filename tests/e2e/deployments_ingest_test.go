package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// testIngestDelay is the simulator's change-event ingest delay in these tests.
const testIngestDelay = 3 * time.Second

const deployAccount = 1000001

// ingestClock is the simulator's ingest clock, advanced by the test.
type ingestClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *ingestClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *ingestClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newIngestEnv is a gateway over a simulator whose recorded change events reach NRQL
// only testIngestDelay after they were recorded, on a clock the test advances.
func newIngestEnv(t *testing.T) (*env, *ingestClock) {
	t.Helper()
	clk := &ingestClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithIngestDelay(testIngestDelay), sim.WithIngestClock(clk.now)}})
	return &env{sim: h.Sim, gw: h.Gateway}, clk
}

func deployBody(rev, ts string) string {
	if ts == "" {
		return `{"deployment":{"revision":"` + rev + `"}}`
	}
	return `{"deployment":{"revision":"` + rev + `","timestamp":"` + ts + `"}}`
}

// REST's "later than the latest deployment" rule holds although NRQL does not see
// the deployments just recorded: the gateway checks against the ones it recorded.
func TestDeploymentLaterThanLatestDespiteIngestDelay(t *testing.T) {
	e, clk := newIngestEnv(t)
	steps := []struct {
		name   string
		rev    string
		ts     string
		status int
		wait   time.Duration // ingest clock advance after the step
	}{
		{"first", "r1", "2026-11-20T11:00:00Z", 201, 0},
		{"later", "r2", "2026-11-20T11:30:00Z", 201, 0},
		{"between, NRQL has neither yet", "r3", "2026-11-20T11:15:00Z", 422, 0},
		{"equal to the latest", "r4", "2026-11-20T11:30:00Z", 422, testIngestDelay},
		{"between, NRQL has both", "r5", "2026-11-20T11:15:00Z", 422, 0},
		{"later again", "r6", "2026-11-20T11:45:00Z", 201, 0},
	}
	for _, s := range steps {
		r, b := e.post(t, deployPath, deployBody(s.rev, s.ts))
		if r.status != s.status {
			t.Fatalf("%s: %d, want %d: %s", s.name, r.status, s.status, r.body)
		}
		if s.status == 422 && (b.Error == nil || !strings.Contains(b.Error.Title, "most recent deployment (2026-11-20T11:30:00+00:00)")) {
			t.Fatalf("%s: title %s", s.name, r.body)
		}
		clk.advance(s.wait)
	}
	if n := e.sim.RequestsByOperation()["DeploymentCreateEvent"]; n != 3 {
		t.Fatalf("%d deployments recorded, want 3", n)
	}
}

// Concurrent POSTs with the same timestamp: the check-then-write is serialised per
// application, so exactly one is recorded.
func TestDeploymentConcurrentSameTimestamp(t *testing.T) {
	e, clk := newIngestEnv(t)
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _ := e.post(t, deployPath, deployBody("c"+strconv.Itoa(i), "2026-11-20T11:00:00Z"))
			statuses[i] = r.status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case 201:
			created++
		case 422:
		default:
			t.Fatalf("statuses %v", statuses)
		}
	}
	if created != 1 || e.sim.RequestsByOperation()["DeploymentCreateEvent"] != 1 {
		t.Fatalf("statuses %v, %d mutations", statuses, e.sim.RequestsByOperation()["DeploymentCreateEvent"])
	}
	clk.advance(testIngestDelay)
	if list := e.deployments(t); len(list) != 1 {
		t.Fatalf("listed %+v", list)
	}
}

// A list right after a create shows the new deployment (from the gateway's record,
// NRQL does not have it yet) and, once NRQL has it, still exactly once.
func TestDeploymentListRightAfterCreate(t *testing.T) {
	e, clk := newIngestEnv(t)
	_, b := e.post(t, deployPath, deployBody("fresh", ""))
	if b.Deployment == nil {
		t.Fatal("not created")
	}
	for _, when := range []string{"before NRQL has it", "after NRQL has it"} {
		list := e.deployments(t)
		if len(list) != 1 || list[0].ID != b.Deployment.ID || list[0].Revision != "fresh" || list[0].Timestamp != b.Deployment.Timestamp {
			t.Fatalf("%s: listed %+v, created %+v", when, list, *b.Deployment)
		}
		clk.advance(testIngestDelay)
	}
	// Another key (another account's caller) never sees this caller's record.
	r := e.get(t, deployPath, key2)
	if r.status == 200 && strings.Contains(string(r.body), "fresh") {
		t.Fatalf("key2 sees %s", r.body)
	}
}

// seedDeployments stores n Deployment events (version only, as the Deployment event
// type carries it) on the metric application, one at at(i).
func seedDeployments(e *env, n int, at func(i int) time.Time) {
	app, _ := strconv.ParseInt(metricApp, 10, 64)
	guid := translate.AppGUID(deployAccount, translate.DomainAPM, app)
	for i := range n {
		e.sim.AddChangeEvent(deployAccount, "Deployment", at(i), map[string]any{
			"deploymentId": fmt.Sprintf("seed-%05d", i), "version": fmt.Sprintf("v%d", i), "entity.guid": guid,
		})
	}
}

// More deployments than one NRQL answer holds (5000) are all listed, in two reads: a
// single LIMIT MAX read stopped at 5000 (last page 25 of translate.PageSize).
func TestDeploymentListReadsPastNRQLCap(t *testing.T) {
	e := newEnv(t)
	const n = 5200
	seedDeployments(e, n, func(i int) time.Time { return harness.Clock.Add(-time.Duration(i+1) * time.Minute) })
	e.get(t, deployPath, key1) // resolves key1's account
	r := e.get(t, deployPath, key1)
	if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" {
		t.Fatalf("%d degraded=%q", r.status, r.header.Get("X-V2bridge-Degraded"))
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "2" {
		t.Fatalf("upstream calls %s, want 2", got)
	}
	if l := links(t, r.header); !strings.HasSuffix(l["last"], "page=26") {
		t.Fatalf("links %v", l)
	}
	last := e.get(t, deployPath+"?page=26", key1)
	var b deploymentsBody
	if err := json.Unmarshal(last.body, &b); err != nil || len(b.Deployments) != translate.PageSize {
		t.Fatalf("last page: %s", last.body)
	}
	if oldest := b.Deployments[translate.PageSize-1]; oldest.Revision != "v5199" || oldest.Timestamp != "2026-11-16T21:20:00+00:00" {
		t.Fatalf("oldest %+v", oldest)
	}
	// The page boundary between reads holds no duplicate and no gap.
	seen := map[int64]bool{}
	for p := 25; p <= 26; p++ {
		var pb deploymentsBody
		_ = json.Unmarshal(e.get(t, deployPath+"?page="+strconv.Itoa(p), key1).body, &pb)
		for i, d := range pb.Deployments {
			if want := fmt.Sprintf("v%d", (p-1)*translate.PageSize+i); d.Revision != want || seen[d.ID] {
				t.Fatalf("page %d item %d: %+v, want %s once", p, i, d, want)
			}
			seen[d.ID] = true
		}
	}
}

// A list NRQL cannot read through (over 5000 deployments in one millisecond) is
// answered with what was read and declared with X-V2bridge-Degraded.
func TestDeploymentListCapIsDeclared(t *testing.T) {
	e := newEnv(t)
	seedDeployments(e, 5001, func(int) time.Time { return harness.Clock.Add(-time.Hour) })
	r := e.get(t, deployPath, key1)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if d := r.header.Get("X-V2bridge-Degraded"); !strings.Contains(d, "5000") {
		t.Fatalf("X-V2bridge-Degraded %q", d)
	}
	if l := links(t, r.header); !strings.HasSuffix(l["last"], "page=25") {
		t.Fatalf("links %v", l)
	}
}

// Deployment events carry the version in `version` (no `revision`), like the
// ChangeTrackingEvent rows of changeTrackingCreateEvent; both list as revision.
func TestDeploymentListVersionOnlyEvents(t *testing.T) {
	e := newEnv(t)
	app, _ := strconv.ParseInt(metricApp, 10, 64)
	guid := translate.AppGUID(deployAccount, translate.DomainAPM, app)
	e.sim.AddChangeEvent(deployAccount, "Deployment", harness.Clock.Add(-2*time.Hour), map[string]any{
		"deploymentId": "legacy-1", "version": "1.0.0", "entity.guid": guid, "user": "capistrano",
	})
	e.sim.AddChangeEvent(deployAccount, "ChangeTrackingEvent", harness.Clock.Add(-time.Hour), map[string]any{
		"changeTrackingId": "ct-1", "category": "Deployment", "type": "Basic", "version": "2.0.0", "entity.guid": guid,
		"changelog": "notes",
	})
	list := e.deployments(t)
	if len(list) != 2 {
		t.Fatalf("listed %+v", list)
	}
	if list[0].Revision != "2.0.0" || list[0].Changelog == nil || *list[0].Changelog != "notes" || list[0].User != nil {
		t.Fatalf("change event %+v", list[0])
	}
	if list[1].Revision != "1.0.0" || list[1].User == nil || *list[1].User != "capistrano" || list[1].Changelog != nil ||
		list[1].Timestamp != "2026-11-20T10:00:00+00:00" {
		t.Fatalf("Deployment event %+v", list[1])
	}
	r := e.get(t, "/v2/applications/"+metricApp+"/deployments.xml", key1)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "<revision>1.0.0</revision>") {
		t.Fatalf("xml %s", r.body)
	}
}
