package e2e

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// refuser makes the simulator refuse one key with HTTP 401, as NerdGraph does for a
// revoked user key, once switched on.
type refuser struct {
	key string
	on  atomic.Bool
}

func (f *refuser) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.on.Load() && r.Header.Get("Api-Key") == f.key {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"Invalid API key"}]}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// revocationReads are the cached reads: show, metric data, filtered list,
// key transactions, violations.
var revocationReads = []string{
	"/v2/applications/314221522.json",
	"/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&values[]=average_response_time",
	"/v2/applications.json?filter[name]=a",
	"/v2/key_transactions.json",
	"/v2/alerts_violations.json?start_date=2026-11-01T00:00:00Z",
}

// A revoked key stops reading cached answers once its auth TTL has passed: the next
// call goes upstream, NerdGraph refuses it, and the caller gets 401.
func TestRevokedKeyStopsReadingAfterAuthTTL(t *testing.T) {
	const ttl = 5 * time.Second
	ref := &refuser{key: key1}
	clk := &ingestClock{t: harness.Clock}
	h := harness.StartWith(t, harness.Options{AuthTTL: ttl, Now: clk.now, Sim: []sim.Option{sim.WithMiddleware(ref.middleware)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	for _, p := range revocationReads {
		if r := e.get(t, p, key1, "X-Account-ID", "1000001"); r.status != 200 {
			t.Fatalf("%s: warm read: %d, want 200", p, r.status)
		}
	}
	ref.on.Store(true)
	clk.advance(ttl) // still within the TTL: a cached answer is served
	if r := e.get(t, revocationReads[0], key1, "X-Account-ID", "1000001"); r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "0" {
		t.Fatalf("within the auth TTL: %d with %s upstream calls, want a cached 200", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
	}
	clk.advance(time.Millisecond)
	for _, p := range revocationReads {
		if r := e.get(t, p, key1, "X-Account-ID", "1000001"); r.status != http.StatusUnauthorized {
			t.Errorf("%s: revoked key read %d with %s upstream calls, want 401", p, r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
		}
	}
}

// A 401 from NerdGraph for a key drops every cached answer of that key at once, well
// within its auth TTL; other keys' cached answers stay.
func TestRefusedKeyDropsItsCacheAtOnce(t *testing.T) {
	ref := &refuser{key: key1}
	h := harness.StartWith(t, harness.Options{AuthTTL: time.Minute, Sim: []sim.Option{sim.WithMiddleware(ref.middleware)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	for _, p := range revocationReads {
		e.get(t, p, key1, "X-Account-ID", "1000001")
	}
	other := "/v2/applications.json?filter[name]=a"
	e.get(t, other, key2, "X-Account-ID", "1000002")
	ref.on.Store(true)
	// An uncached call meets the refusal...
	if r := e.get(t, "/v2/applications/314221522/hosts.json", key1, "X-Account-ID", "1000001"); r.status != http.StatusUnauthorized {
		t.Fatalf("uncached read of the refused key: %d, want 401", r.status)
	}
	// ...and every cached answer of the key is gone.
	for _, p := range revocationReads {
		if r := e.get(t, p, key1, "X-Account-ID", "1000001"); r.status != http.StatusUnauthorized {
			t.Errorf("%s: refused key read %d with %s upstream calls, want 401", p, r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
		}
	}
	if r := e.get(t, other, key2, "X-Account-ID", "1000002"); r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "0" {
		t.Errorf("another key's cached read: %d with %s upstream calls, want a cached 200", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
	}
}

// flapper makes the simulator refuse one key with HTTP 401 on its first call only, as
// NerdGraph may during a transient fault, and counts the key's calls.
type flapper struct {
	key   string
	calls atomic.Int64
}

func (f *flapper) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Api-Key") == f.key && f.calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"Invalid API key"}]}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// After one transient 401 from NerdGraph, a caller polling every 5 s is answered 401
// from the rejected-key cache only until the TTL after that refusal (its polls do not
// extend it), without calling NerdGraph meanwhile; then the key is checked again and
// answered.
func TestFlappingRefusalHealsAfterRejectedKeyTTL(t *testing.T) {
	var now atomic.Int64
	now.Store(clock.UnixNano())
	f := &flapper{key: key1}
	h := harness.StartWith(t, harness.Options{Now: func() time.Time { return time.Unix(0, now.Load()).UTC() },
		Sim: []sim.Option{sim.WithMiddleware(f.middleware)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	const path = "/v2/applications.json"
	if r := e.get(t, path, key1, "X-Account-ID", "1000001"); r.status != http.StatusUnauthorized {
		t.Fatalf("the refused call: %d, want 401", r.status)
	}
	for at := 5 * time.Second; at <= time.Minute; at += 5 * time.Second {
		now.Store(clock.Add(at).UnixNano())
		r := e.get(t, path, key1, "X-Account-ID", "1000001")
		want := http.StatusOK
		if at < gateway.DefaultRejectedKeyTTL {
			want = http.StatusUnauthorized
		}
		if r.status != want {
			t.Fatalf("poll %v after the refusal: %d, want %d", at, r.status, want)
		}
		if at < gateway.DefaultRejectedKeyTTL && f.calls.Load() != 1 {
			t.Fatalf("poll %v: %d NerdGraph calls of the key, want only the refused one", at, f.calls.Load())
		}
	}
}
