package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// slowPost opens a connection that sends a POST's headers with key and the first byte
// of a body of 1,000, then nothing more: a slow-body attacker.
func slowPost(t *testing.T, gwURL, key string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(gwURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /v2/applications/314221522/deployments.json HTTP/1.1\r\nHost: gw\r\n"+
		"X-Api-Key: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", key)
	return conn
}

// scrape reads one series' value from the gateway's /metrics (0 when absent).
func scrape(t *testing.T, gwURL, series string) float64 {
	t.Helper()
	_, b := getText(t, gwURL+"/metrics")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

// Slow bodies sent with keys NerdGraph has not accepted fill only the unauthenticated
// pool: a caller whose key was accepted is still answered while they trickle.
func TestSlowBodiesLeaveAcceptedCallersServed(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{MaxInFlight: 4, MaxUnauthenticatedInFlight: 2}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	if r := e.get(t, "/v2/applications/314221522.json", key1); r.status != 200 {
		t.Fatalf("show: %d", r.status)
	}
	const attackers = 10
	for i := range attackers {
		slowPost(t, e.gw.URL, fmt.Sprintf("NRAK-SLOW-BODY-%02d", i))
	}
	// Every attacker either holds a slot or was shed; poll until the gateway has seen all.
	shed := `v2bridge_requests_total{method="POST",route="shed",status="503"}`
	for i := 0; ; i++ {
		if scrape(t, e.gw.URL, "v2bridge_requests_in_flight")+scrape(t, e.gw.URL, shed) >= attackers {
			break
		}
		if i == 1000 {
			t.Fatal("the gateway never admitted or shed every slow body")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range 3 {
		if r := e.get(t, "/v2/applications/314221522/hosts.json", key1); r.status != 200 {
			t.Fatalf("an accepted caller got %d while slow bodies trickled: %s", r.status, r.body)
		}
	}
	// One more is shed at once, its body unread: answered 503 and closed, not kept
	// waiting for a body that never comes.
	conn := slowPost(t, e.gw.URL, "NRAK-SLOW-BODY-XX")
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("a shed slow body got no answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !resp.Close {
		t.Errorf("shed slow body: status %d, Retry-After %q, close %v; want 503, a Retry-After, the connection closed",
			resp.StatusCode, resp.Header.Get("Retry-After"), resp.Close)
	}
}

// A body that stops arriving is cut once it falls behind the minimum rate, and
// answered 408 in the v2 error shape.
func TestStalledBodyIsCutWith408(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{BodyGrace: 200 * time.Millisecond}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	conn := slowPost(t, e.gw.URL, key1)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), `"error"`) {
		t.Fatalf("status %d body %s; want 408 with a v2 error", resp.StatusCode, b)
	}
}
