package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// Sweeps on a generated account of 5,000 applications: metric data of the same names
// and window for application after application. Replica A's caller listed the
// applications first, so A shares one query among the applications that follow in the
// list; replica B's caller did not, so B asks each application alone. Every answer is
// byte-identical between the two, and the counts are NerdGraph operations at the
// simulator (not wall time).

const sweepApps = 5000

// sweepPath is the metric data request of application id in the sweeps.
func sweepPath(id string) string {
	return "/v2/applications/" + id + "/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all" +
		"&values[]=call_count&values[]=average_response_time&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"
}

var listIDRe = regexp.MustCompile(`\{"id":(\d+),"name"`)

// newSweepFleet is two replicas without a store in front of the 5,000-application
// account.
func newSweepFleet(t *testing.T, opts ...sim.Option) *fleetEnv {
	t.Helper()
	l, err := sim.ParseScale("apps=" + strconv.Itoa(sweepApps) + ",hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	l.ID, l.Key = 3000001, keyLarge
	return newFleetWith(t, fleetOptions{replicas: 2, limit: -1, upstreamTimeout: 4 * time.Minute, sim: append([]sim.Option{sim.WithLargeAccount(l)}, opts...)})
}

// listedIDs lists pages 1 to pages of the account through srv: their ids in order.
func listedIDs(t *testing.T, f *fleetEnv, i, pages int) []string {
	t.Helper()
	var ids []string
	for page := 1; page <= pages; page++ {
		r := fleetDoKey(t, f.replicas[i], keyLarge, http.MethodGet, "/v2/applications.json?page="+strconv.Itoa(page), "")
		if r.status != 200 {
			t.Fatalf("page %d: %d", page, r.status)
		}
		for _, m := range listIDRe.FindAllSubmatch(r.body, -1) {
			ids = append(ids, string(m[1]))
		}
	}
	return ids
}

func TestSweepSequentialSharesQueries(t *testing.T) {
	for _, n := range []int{100, 1000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			f := newSweepFleet(t)
			ids := listedIDs(t, f, 0, max(n/200, 1))[:n]
			if len(ids) != n {
				t.Fatalf("listed %d applications, want %d", len(ids), n)
			}
			ops := func() int64 {
				by := f.sim.RequestsByOperation()
				return by["MetricData"] + by["MetricSweep"]
			}
			shared := make([][]byte, n)
			before := ops()
			var header int64
			for i, id := range ids {
				r := fleetDoKey(t, f.replicas[0], keyLarge, http.MethodGet, sweepPath(id), "")
				if r.status != 200 {
					t.Fatalf("A, application %s: %d %.200s", id, r.status, r.body)
				}
				shared[i] = r.body
				calls, _ := strconv.ParseInt(r.header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
				header += calls
			}
			sweepOps := ops() - before
			// Each shared answer of the first 100 is compared with its own; past them one
			// in ten (each answer of a shared query is cut from it the same way, and the
			// race detector makes every request of this test costly).
			before = ops()
			asked := 0
			for i, id := range ids {
				if i >= 100 && i%10 != 0 {
					continue
				}
				asked++
				r := fleetDoKey(t, f.replicas[1], keyLarge, http.MethodGet, sweepPath(id), "")
				if r.status != 200 {
					t.Fatalf("B, application %s: %d", id, r.status)
				}
				if !bytes.Equal(r.body, shared[i]) {
					t.Fatalf("application %s: the shared answer differs from its own:\nshared %.300s\nalone  %.300s", id, shared[i], r.body)
				}
			}
			alone := ops() - before
			// The first request alone, then one shared query per 25 applications.
			if limit := int64(1 + (n-1+24)/25); sweepOps > limit || header > limit {
				t.Errorf("a sequential sweep of %d: %d queries (%d by the answers' header), want at most %d", n, sweepOps, header, limit)
			}
			if alone != int64(asked) {
				t.Errorf("unlisted, %d queries for %d applications, want one each", alone, asked)
			}
			t.Logf("sequential sweep of %d applications: %d round trips shared, %d alone", n, sweepOps, alone)
		})
	}
}

// A concurrent sweep (no list: the applications asked at once) is answered from shared
// queries too, each answer still its own.
func TestSweepConcurrentSharesQueries(t *testing.T) {
	f := newSweepFleet(t)
	ids := listedIDs(t, f, 1, 1)[:50] // through B: A's caller has listed nothing
	ops := func() int64 {
		by := f.sim.RequestsByOperation()
		return by["MetricData"] + by["MetricSweep"]
	}
	alone := make([][]byte, len(ids))
	for i, id := range ids {
		alone[i] = fleetDoKey(t, f.replicas[1], keyLarge, http.MethodGet, sweepPath(id), "").body
	}
	before := ops()
	var wg sync.WaitGroup
	got := make([]response, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = fleetDoKey(t, f.replicas[0], keyLarge, http.MethodGet, sweepPath(id), "")
		}()
	}
	wg.Wait()
	for i, r := range got {
		if r.status != 200 || !bytes.Equal(r.body, alone[i]) {
			t.Fatalf("application %s: %d, answer %s the one it has alone", ids[i], r.status, map[bool]string{true: "equal to", false: "unlike"}[bytes.Equal(r.body, alone[i])])
		}
	}
	n := ops() - before
	if n >= int64(len(ids)) {
		t.Errorf("%d concurrent requests made %d queries: none shared", len(ids), n)
	}
	t.Logf("%s", fmt.Sprintf("concurrent sweep of %d applications: %d round trips", len(ids), n))
}

// A shared query NerdGraph refuses is used by nobody: each request it was to answer is
// asked alone and gets its own answer.
func TestSweepRefusedSharedQueryAnswersEachAlone(t *testing.T) {
	faults := &sim.Faults{}
	faults.Set(&sim.Fault{Operation: "MetricSweep", ErrorClass: "INTERNAL_SERVER_ERROR", AfterApply: true}) // counted, then refused
	f := newSweepFleet(t, sim.WithMiddleware(faults.Middleware))
	ids := listedIDs(t, f, 0, 1)[:30]
	for _, id := range ids {
		a := fleetDoKey(t, f.replicas[0], keyLarge, http.MethodGet, sweepPath(id), "")
		b := fleetDoKey(t, f.replicas[1], keyLarge, http.MethodGet, sweepPath(id), "")
		if a.status != 200 || !bytes.Equal(a.body, b.body) {
			t.Fatalf("application %s: %d after a refused shared query, want its own answer: %.200s", id, a.status, a.body)
		}
	}
	if n := f.sim.RequestsByOperation()["MetricSweep"]; n == 0 {
		t.Fatal("no shared query was tried")
	}
}
