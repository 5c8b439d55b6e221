package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v2bridge/v2bridge/sim"
)

// redisProcess is a real redis-server or valkey-server on a loopback port in a
// temporary directory, without persistence.
type redisProcess struct {
	bin, dir, addr string
	port           int
	cmd            *exec.Cmd
}

// startRealRedis starts the installed server (.ci/run installs the Debian package when
// CI is set) or skips: the miniredis tests above always run.
func startRealRedis(t *testing.T) *redisProcess {
	t.Helper()
	p := &redisProcess{dir: t.TempDir()}
	for _, name := range []string{"valkey-server", "redis-server"} {
		if path, err := exec.LookPath(name); err == nil {
			p.bin = path
			break
		}
	}
	if p.bin == "" {
		t.Skip("neither valkey-server nor redis-server is installed (apt-get install redis-server; .ci/run does it in CI)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p.addr = fmt.Sprintf("127.0.0.1:%d", p.port)
	p.start(t)
	t.Cleanup(p.kill)
	return p
}

func (p *redisProcess) start(t *testing.T) {
	t.Helper()
	p.cmd = exec.Command(p.bin, "--port", fmt.Sprint(p.port), "--bind", "127.0.0.1", "--dir", p.dir, "--save", "",
		"--appendonly", "no", "--logfile", filepath.Join(p.dir, "server.log"))
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", p.addr, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s", p.bin, p.addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *redisProcess) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		p.cmd = nil
	}
}

// roundRobin is a loopback load balancer sending each request to the next replica.
func roundRobin(t *testing.T, replicas []*httptest.Server) *httptest.Server {
	t.Helper()
	var proxies []*httputil.ReverseProxy
	for _, r := range replicas {
		u, _ := url.Parse(r.URL)
		proxies = append(proxies, httputil.NewSingleHostReverseProxy(u))
	}
	var n atomic.Uint64
	lb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxies[(n.Add(1)-1)%uint64(len(proxies))].ServeHTTP(w, r)
	}))
	t.Cleanup(lb.Close)
	return lb
}

// The fleet test on a real server: three replicas behind a round-robin
// balancer. 3,000 requests of one key in a minute window see exactly the limit of
// 1,000; a rename through A is seen through B and C within a second; a deployment
// retry after an unknown outcome on A, sent to B, records one deployment; the report
// on C shows the calls made through A and B; the server killed mid-run, then
// restarted: no request fails, and the limit is fleet-wide again; no API key is in the
// store.
func TestFleetRealServer(t *testing.T) {
	srv := startRealRedis(t)
	faults := &sim.Faults{}
	f := newFleetWith(t, fleetOptions{replicas: 3, store: true, limit: 1000, upstreamTimeout: 10 * time.Second,
		sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}, storeAddr: srv.addr})
	lb := roundRobin(t, f.replicas)

	// An application show (answered from the entity cache after the first call), six
	// callers at a time. The window is the fixed clock's minute, but a real server
	// expires its key 61 s of real time after the first call (state/fleet
	// windowScript): the 3,000 calls take ~10 s under -race on a 2-core machine.
	const show = "/v2/applications/314221522.json"
	var allowedN, refusedN, otherN atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 3000; i += 6 {
				switch r := fleetDo(t, lb, http.MethodGet, show, ""); r.status {
				case 200:
					allowedN.Add(1)
				case 429:
					refusedN.Add(1)
				default:
					otherN.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("3,000 calls in %s", time.Since(start).Round(time.Millisecond))
	allowed, refused := allowedN.Load(), refusedN.Load()
	if otherN.Load() != 0 {
		t.Fatalf("%d calls answered neither 200 nor 429", otherN.Load())
	}
	if allowed != 1000 || refused != 2000 {
		t.Fatalf("3,000 calls through 3 replicas: %d allowed, %d refused; want 1000 and 2000 (the fleet limit)", allowed, refused)
	}

	// Rename through A, seen through B and C within a second (both had it cached). The
	// key is limited now; these calls use another key of the account.
	const path = "/v2/applications/314221522.json"
	as := func(srvr *httptest.Server, method, body string) response {
		return fleetDoKey(t, srvr, keyMulti, method, path, body, "X-Account-ID", "1000001")
	}
	for _, r := range f.replicas {
		as(r, http.MethodGet, "")
	}
	name := "Renamed on a real store"
	if r := as(f.replicas[0], http.MethodPut, `{"application":{"name":"`+name+`"}}`); r.status != 200 {
		t.Fatalf("rename: %d %.200s", r.status, r.body)
	}
	renamed := time.Now()
	for _, r := range f.replicas[1:] {
		for !bytes.Contains(as(r, http.MethodGet, "").body, []byte(name)) {
			if time.Since(renamed) > time.Second {
				t.Fatal("a replica serves the old name a second after the rename")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Logf("rename seen through B and C %s after A answered", time.Since(renamed).Round(time.Millisecond))

	// A deployment whose outcome was unknown on A, retried through B: one deployment.
	faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Status: 500})
	body := `{"deployment":{"revision":"real-1"}}`
	if r := fleetDoKey(t, f.replicas[0], keyMulti, http.MethodPost, deployPath, body, "X-Account-ID", "1000001"); r.status != 502 {
		t.Fatalf("first attempt: %d %.200s", r.status, r.body)
	}
	if r := fleetDoKey(t, f.replicas[1], keyMulti, http.MethodPost, deployPath, body, "X-Account-ID", "1000001"); r.status != 201 || f.sim.RequestsByOperation()[createOp] != 1 {
		t.Fatalf("retry through B: %d, recorded %d times", r.status, f.sim.RequestsByOperation()[createOp])
	}

	// The report on C shows key1's calls made through A and B (1,000 answered, 2,000
	// refused with 429, each counted as a call of the route).
	deadline := time.Now().Add(3 * time.Second)
	for {
		source, n := fleetReport(t, f.replicas[2], "applications.show")
		if n == 3000 && strings.Contains(source, "shared store") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("report on C: %d calls of applications.show (%s), want 3000", n, source)
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The server killed mid-run: no request fails; restarted: fleet-wide again.
	srv.kill()
	for i := range 30 {
		if r := fleetDoKey(t, lb, keyMulti, http.MethodGet, "/v2/applications.json", "", "X-Account-ID", "1000001"); r.status != 200 {
			t.Fatalf("call %d with the store down: %d %.200s", i, r.status, r.body)
		}
	}
	srv.start(t)
	deadline = time.Now().Add(5 * time.Second)
	for {
		r1 := fleetDoKey(t, f.replicas[0], key2, http.MethodGet, "/v2/applications.json", "")
		r2 := fleetDoKey(t, f.replicas[1], key2, http.MethodGet, "/v2/applications.json", "")
		if r1.status != 200 || r2.status != 200 {
			t.Fatalf("after the restart: %d, %d", r1.status, r2.status)
		}
		var a, b int
		_, _ = fmt.Sscan(r1.header.Get("X-RateLimit-Remaining"), &a)
		_, _ = fmt.Sscan(r2.header.Get("X-RateLimit-Remaining"), &b)
		if b == a-1 {
			break // B continues A's count: one fleet-wide window again
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart the replicas still count alone: remaining %d then %d", a, b)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// No API key in any key or value of the store.
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("store keys: %v %v", keys, err)
	}
	var dump strings.Builder
	for _, k := range keys {
		dump.WriteString(k + "\n")
		switch typ, _ := rdb.Type(ctx, k).Result(); typ {
		case "string":
			v, _ := rdb.Get(ctx, k).Result()
			dump.WriteString(v + "\n")
		case "hash":
			m, _ := rdb.HGetAll(ctx, k).Result()
			for f, v := range m {
				dump.WriteString(f + "=" + v + "\n")
			}
		case "zset":
			m, _ := rdb.ZRange(ctx, k, 0, -1).Result()
			dump.WriteString(strings.Join(m, "\n"))
		}
	}
	for _, secret := range []string{key1, key2, keyMulti, "NRAK-"} {
		if strings.Contains(dump.String(), secret) {
			t.Fatalf("the store holds an API key:\n%s", dump.String())
		}
	}
}

// fleetDoKey is fleetDo with another key.
func fleetDoKey(t *testing.T, srv *httptest.Server, key, method, path, body string, hdr ...string) response {
	t.Helper()
	return fleetDo(t, srv, method, path, body, append([]string{"X-Api-Key", key}, hdr...)...)
}
