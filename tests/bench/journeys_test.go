package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

// The proxy counts every request at the upstream and waits its latency before each,
// through the sleep it is given.
func TestUpstreamProxyCountsAndDelays(t *testing.T) {
	var mu sync.Mutex
	var slept []time.Duration
	answered := 0
	p := newUpstreamProxy(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		answered++
		if len(slept) != answered {
			t.Errorf("request %d answered after %d sleeps", answered, len(slept))
		}
		mu.Unlock()
		_, _ = w.Write([]byte(`{"data":{}}`))
	}), 150*time.Millisecond)
	p.sleep = func(_ context.Context, d time.Duration) {
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
	}
	for i := range 3 {
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{}`)))
		if rec.Code != 200 || p.trips.Load() != int64(i+1) {
			t.Fatalf("request %d: status %d, %d trips", i+1, rec.Code, p.trips.Load())
		}
	}
	if len(slept) != 3 || slept[0] != 150*time.Millisecond || slept[2] != 150*time.Millisecond {
		t.Fatalf("slept %v, want 150ms three times", slept)
	}
}

// The default sleep ends with the request.
func TestSleepEndsWithTheRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() { sleepCtx(ctx, time.Hour); close(done) }()
	<-done
}

func TestNearestRank(t *testing.T) {
	for _, tt := range []struct{ n, p, want int }{{1, 50, 0}, {2, 50, 0}, {2, 99, 1}, {4, 50, 1}, {100, 99, 98}, {101, 99, 99}} {
		if got := nearestRank(tt.n, tt.p); got != tt.want {
			t.Errorf("nearestRank(%d, %d) = %d, want %d", tt.n, tt.p, got, tt.want)
		}
	}
}

func TestNextLink(t *testing.T) {
	for _, tt := range []struct{ link, want string }{
		{`<https://api.newrelic.com/v2/applications.json?page=2>; rel="next", <https://api.newrelic.com/v2/applications.json?page=250>; rel="last"`, "/v2/applications.json?page=2"},
		{`<http://127.0.0.1:1/v2/applications.json?page=1>; rel="first", <http://127.0.0.1:1/v2/applications.json?page=3>; rel="prev"`, ""},
		{"", ""},
	} {
		h := http.Header{}
		if tt.link != "" {
			h.Set("Link", tt.link)
		}
		if got := nextLink(h); got != tt.want {
			t.Errorf("nextLink(%q) = %q, want %q", tt.link, got, tt.want)
		}
	}
}

// Every journey runs without an error on a generated account through the gateway, and
// its round trips are counted at the upstream, as many as the gateway's answers say it
// made. The wall clock is a counter, so no figure depends on time.
func TestJourneysRunOnAGeneratedAccount(t *testing.T) {
	l, _, p, upstream := countedUpstream(t, "apps=1200,hosts=1,names=10")
	gw := httptest.NewServer(newGatewayOpts(upstream, translate.Options{}, zapcore.WarnLevel, 0))
	defer gw.Close()
	var tick time.Duration
	now := func() time.Time { tick += time.Millisecond; return clock.Add(tick) }
	rs, err := runJourneys(gw.URL, p, l, 3, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(journeys()) {
		t.Fatalf("%d results, want %d", len(rs), len(journeys()))
	}
	for _, r := range rs {
		if r.Errors != 0 || r.Err != "" {
			t.Errorf("%s: %d errors: %s", r.Journey, r.Errors, r.Err)
		}
		if len(r.Trips) != 3 || r.Trips[0] != r.ColdTrips || r.ColdTrips == 0 || r.ColdTrips != r.ColdHeaderTrips || r.ColdMs <= 0 || r.P50ms <= 0 {
			t.Errorf("%s: %d cold trips at the upstream, %d by the gateway's header, cold %v ms, p50 %v ms",
				r.Journey, r.ColdTrips, r.ColdHeaderTrips, r.ColdMs, r.P50ms)
		}
	}
	var b bytes.Buffer
	reportJourneys(&b, rs, p.latency)
	if !strings.Contains(b.String(), "deploy hook") {
		t.Errorf("report lacks the deploy hook:\n%s", b.String())
	}
}

// countedUpstream is a generated account (spec, opts) behind a proxy that counts its
// round trips and adds no latency: the account, its simulator, the proxy and the
// NerdGraph URL a gateway is given; closed when t ends.
func countedUpstream(t *testing.T, spec string, opts ...sim.Option) (sim.LargeAccount, *sim.Server, *upstreamProxy, string) {
	t.Helper()
	l, s, err := largeSim(spec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	p := newUpstreamProxy(s, time.Second)
	p.sleep = func(context.Context, time.Duration) {}
	up := httptest.NewServer(p)
	t.Cleanup(up.Close)
	return l, s, p, up.URL + sim.Path
}

// soleReplica is one gateway replica without a store in front of upstream, as
// fleetReplica builds them; closed when t ends.
func soleReplica(t *testing.T, upstream string) *httptest.Server {
	t.Helper()
	h, _, closeStore, err := fleetReplica(upstream, "", 0, zapcore.WarnLevel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeStore)
	gw := httptest.NewServer(h)
	t.Cleanup(gw.Close)
	return gw
}
