package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// replayHits is how many answers the gateway replayed from kept answers
// (v2bridge_cache_requests_total{cache="replay",result="hit"}).
func replayHits(t *testing.T, m *gateway.Metrics) float64 {
	t.Helper()
	return replaySeries(t, m, "v2bridge_cache_requests_total", "hit")
}

// replaySeries is the value of the series name{cache="replay"} (and result, when not
// empty).
func replaySeries(t *testing.T, m *gateway.Metrics, name, result string) float64 {
	t.Helper()
	mfs, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			if label(s, "cache") == "replay" && label(s, "result") == result {
				return s.GetCounter().GetValue() + s.GetGauge().GetValue()
			}
		}
	}
	return 0
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// perRequest are the headers each answer makes anew.
var perRequest = map[string]bool{"X-Request-Id": true, "Server-Timing": true, "Date": true,
	"X-Ratelimit-Limit": true, "X-Ratelimit-Remaining": true, "X-Ratelimit-Reset": true}

// A repeated GET of a replayable route is answered from the kept answer: the same
// status, body and header as the pipeline's answer (but the per-request values), each
// route and format on its own.
func TestReplayedAnswerIsThePipelines(t *testing.T) {
	m := gateway.NewMetrics()
	e := newEnvWith(t, gateway.Config{Metrics: m})
	var inst struct {
		Instances []struct {
			ID int64 `json:"id"`
		} `json:"application_instances"`
	}
	if r := e.get(t, "/v2/applications/314221522/instances.json", key1); r.status != 200 || json.Unmarshal(r.body, &inst) != nil || len(inst.Instances) == 0 {
		t.Fatalf("instances: %d %.200s", r.status, r.body)
	}
	window := "&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"
	for _, tc := range []struct {
		name, path, key string
		hdr             []string
	}{
		{"show", "/v2/applications/314221522.json", key1, nil},
		{"show as XML", "/v2/applications/314221522.xml", key1, nil},
		{"show, account header", "/v2/applications/314221522.json", keyMulti, []string{"X-Account-ID", "1000001"}},
		{"metric data", "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher" + window, key1, nil},
		{"metric data summarized", "/v2/applications/314221522/metrics/data.json?names[]=Apdex&names[]=Errors/all&summarize=true" + window, key1, nil},
		{"instance metric data", fmt.Sprintf("/v2/applications/314221522/instances/%d/metrics/data.json?names[]=HttpDispatcher%s", inst.Instances[0].ID, window), key1, nil},
		{"mobile metric data", "/v2/mobile_applications/601483762/metrics/data.json?names[]=Mobile/Crash/All&values[]=call_count&summarize=true" + window, key1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := e.get(t, tc.path, tc.key, tc.hdr...)
			cached := e.get(t, tc.path, tc.key, tc.hdr...) // the translator's cache; kept
			before := replayHits(t, m)
			again := e.get(t, tc.path, tc.key, tc.hdr...)
			if replayHits(t, m) != before+1 {
				t.Fatalf("not replayed (%v hits before, %v after)", before, replayHits(t, m))
			}
			if first.status != 200 || again.status != 200 || !bytes.Equal(cached.body, again.body) || !bytes.Equal(first.body, again.body) {
				t.Fatalf("replayed %d, pipeline %d; bodies equal %v\n%.300s\n%.300s", again.status, first.status,
					bytes.Equal(cached.body, again.body), cached.body, again.body)
			}
			for k, v := range cached.header {
				if !perRequest[k] && strings.Join(again.header[k], "\n") != strings.Join(v, "\n") {
					t.Errorf("header %s: replayed %q, pipeline %q", k, again.header[k], v)
				}
			}
			for k := range again.header {
				if _, ok := cached.header[k]; !ok {
					t.Errorf("replay added header %s", k)
				}
			}
			if again.header.Get("X-V2bridge-Upstream-Calls") != "0" || again.header.Get("Server-Timing") == "" ||
				again.header.Get("X-Request-Id") == "" || again.header.Get("X-Request-Id") == cached.header.Get("X-Request-Id") {
				t.Errorf("per-request headers: %v", again.header)
			}
		})
	}
	if b := replaySeries(t, m, "v2bridge_cache_bytes", ""); b <= 0 {
		t.Fatalf("the kept answers' bytes are not exported: %v", b)
	}
}

// A kept answer is never another caller's: another key, or the same key naming another
// account, gets its own answer; a replay needs the key in Api-Key or X-Api-Key.
func TestReplayKeepsCallersApart(t *testing.T) {
	m := gateway.NewMetrics()
	e := newEnvWith(t, gateway.Config{Metrics: m})
	const path = "/v2/applications/314221522.json"
	for range 2 {
		if r := e.get(t, path, key1); r.status != 200 {
			t.Fatalf("show: %d", r.status)
		}
	}
	before := replayHits(t, m)
	if r := e.get(t, path, key2); r.status != 404 {
		t.Fatalf("a key of another account got %d: %.200s", r.status, r.body)
	}
	if r := e.get(t, path, keyMulti, "X-Account-ID", "1000002"); r.status != 404 {
		t.Fatalf("the multi-account key naming the other account got %d: %.200s", r.status, r.body)
	}
	// The same key in X-License-Key is no key for a v2 route.
	if r := e.get(t, path, "", "X-License-Key", key1); r.status != 401 {
		t.Fatalf("the key as X-License-Key got %d: %.200s", r.status, r.body)
	}
	if got := replayHits(t, m); got != before {
		t.Fatalf("%v replays for other callers", got-before)
	}
}

// A kept answer ends with what it was read from: a write through the gateway, and the
// clock moving a metric window that ends now.
func TestReplayEndsWhenItsReadWould(t *testing.T) {
	var now atomic.Int64
	now.Store(harness.Clock.UnixNano())
	m := gateway.NewMetrics()
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{Metrics: m},
		Now: func() time.Time { return time.Unix(0, now.Load()).UTC() }})
	e := &env{sim: h.Sim, gw: h.Gateway}

	const show = "/v2/applications/314221522.json"
	for range 2 {
		e.get(t, show, key1)
	}
	if r, b := e.put(t, show, `{"application":{"name":"Renamed under replay"}}`); r.status != 200 || b.Application.Name != "Renamed under replay" {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if r := e.get(t, show, key1); !bytes.Contains(r.body, []byte(`"name":"Renamed under replay"`)) {
		t.Fatalf("show after the rename: %.300s", r.body)
	}

	// No from or to: the window is the 30 minutes ending now, so the next second is
	// another window (from and to in the answer move with it).
	const data = "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher"
	a := e.get(t, data, key1)
	e.get(t, data, key1)
	before := replayHits(t, m)
	if r := e.get(t, data, key1); replayHits(t, m) != before+1 || !bytes.Equal(r.body, a.body) {
		t.Fatalf("repeat within the second: replayed %v, equal %v", replayHits(t, m)-before, bytes.Equal(r.body, a.body))
	}
	now.Add(int64(time.Second))
	b := e.get(t, data, key1)
	var env1, env2 struct {
		MetricData struct {
			From string `json:"from"`
			To   string `json:"to"`
		} `json:"metric_data"`
	}
	if json.Unmarshal(a.body, &env1) != nil || json.Unmarshal(b.body, &env2) != nil {
		t.Fatalf("bodies: %.200s / %.200s", a.body, b.body)
	}
	if env1.MetricData.To == env2.MetricData.To {
		t.Fatalf("a second later the window still ends at %s", env2.MetricData.To)
	}
}

// Replayed answers count against the key's rate limit and carry its headers, and
// each one is a row of the usage report (v2bridge_v2_calls_total, its series).
func TestReplayIsCountedLikeAnyCall(t *testing.T) {
	m := gateway.NewMetrics()
	e := newEnvWith(t, gateway.Config{Metrics: m, RateLimitPerMinute: 4})
	const path = "/v2/applications/314221522.json"
	var last response
	for i := range 4 {
		last = e.get(t, path, key1)
		if last.status != 200 {
			t.Fatalf("call %d: %d", i+1, last.status)
		}
	}
	if replayHits(t, m) == 0 {
		t.Fatal("no call was replayed")
	}
	if last.header.Get("X-RateLimit-Remaining") != "0" || last.header.Get("X-RateLimit-Limit") != "4" {
		t.Fatalf("rate-limit headers of a replay: %v", last.header)
	}
	if r := e.get(t, path, key1); r.status != http.StatusTooManyRequests {
		t.Fatalf("fifth call in the minute: %d", r.status)
	}
	mfs, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var rows float64
	for _, mf := range mfs {
		if mf.GetName() == "v2bridge_v2_calls_total" {
			for _, s := range mf.GetMetric() {
				if label(s, "route") == "applications.show" && label(s, "caller") != "" {
					rows += s.GetCounter().GetValue()
				}
			}
		}
	}
	if rows != 5 {
		t.Fatalf("usage rows of the show: %v, want 5", rows)
	}
}
