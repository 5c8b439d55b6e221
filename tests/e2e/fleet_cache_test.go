package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v2bridge/v2bridge/translate"
)

// Shared cache (store.shared_cache): two replicas over one store.

const sharedShow = "/v2/applications/314221522.json"

// upstreamCalls is the request's NerdGraph round trips (X-V2bridge-Upstream-Calls).
func upstreamCalls(t *testing.T, r response) string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d %.200s", r.status, r.body)
	}
	return r.header.Get("X-V2bridge-Upstream-Calls")
}

// An answer cached through A is served by B without a NerdGraph round trip (the
// account lookup included); the same calls without shared_cache go upstream on B (the
// control). Another key, or another account of a key, never sees the entry; the store
// holds no API key, cached entries included.
func TestFleetSharedCacheServesAcrossReplicas(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: -1, sharedCache: shared})
			a, b := f.replicas[0], f.replicas[1]
			if n := upstreamCalls(t, fleetDo(t, a, http.MethodGet, sharedShow, "")); n == "0" {
				t.Fatal("the first show through A made no round trip")
			}
			rb := fleetDo(t, b, http.MethodGet, sharedShow, "")
			got := upstreamCalls(t, rb)
			if !shared {
				if got == "0" {
					t.Fatal("without shared_cache B answered with no round trip: the control no longer shows per-replica caches")
				}
				return
			}
			if got != "0" {
				t.Fatalf("B made %s round trips for a show cached through A", got)
			}
			if ra := fleetDo(t, a, http.MethodGet, sharedShow, ""); !bytes.Equal(ra.body, rb.body) {
				t.Fatalf("B's answer differs from A's:\n%s\n%s", rb.body, ra.body)
			}
			// Another key (keyMulti reaches the same account) and another account.
			if n := upstreamCalls(t, fleetDoKey(t, b, keyMulti, http.MethodGet, sharedShow, "", "X-Account-ID", "1000001")); n == "0" {
				t.Fatal("another key was served key1's cached entry")
			}
			r := fleetDoKey(t, b, keyMulti, http.MethodGet, sharedShow, "", "X-Account-ID", "1000002")
			if r.status != 404 || r.header.Get("X-V2bridge-Upstream-Calls") == "0" {
				t.Fatalf("another account: %d after %s round trips, want 404 from NerdGraph", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
			}
			if len(f.redis.Keys()) == 0 || !hasPrefix(f.redis.Keys(), "test:c:entities:") {
				t.Fatalf("no shared entity entry in the store: %v", f.redis.Keys())
			}
			scanForKeys(t, f.redis)
			m := metricsOf(t, b)
			if !strings.Contains(m, `v2bridge_store_cache_total{result="hit"}`) {
				t.Fatalf("no shared cache metrics:\n%s", m)
			}
		})
	}
}

// A write through A retires the shared entry for B: B's next show reads afresh and
// shows the new name.
func TestFleetSharedCacheWriteRetires(t *testing.T) {
	f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: -1, sharedCache: true})
	a, b := f.replicas[0], f.replicas[1]
	fleetDo(t, a, http.MethodGet, sharedShow, "")
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, sharedShow, "")); n != "0" {
		t.Fatalf("B made %s round trips for a shared show", n)
	}
	name := "Renamed through A, shared cache"
	if r := fleetDo(t, a, http.MethodPut, sharedShow, `{"application":{"name":"`+name+`"}}`); r.status != 200 {
		t.Fatalf("rename: %d %.200s", r.status, r.body)
	}
	deadline := time.Now().Add(time.Second)
	for {
		r := fleetDo(t, b, http.MethodGet, sharedShow, "")
		if bytes.Contains(r.body, []byte(`"name":"`+name+`"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B still serves the old name a second after the rename: %.300s", r.body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A replica that joins the fleet after a write (a restart, a scale-out) serves the
// write's outcome from its first request: it never answers from a shared entry stored
// before the write, which it would find under the count of an account never written to.
func TestFleetJoiningReplicaServesWritesMadeBeforeIt(t *testing.T) {
	f := newFleetWith(t, fleetOptions{replicas: 1, store: true, limit: -1, sharedCache: true})
	a := f.replicas[0]
	fleetDo(t, a, http.MethodGet, sharedShow, "") // stored before the write
	name := "Renamed before B joined"
	if r := fleetDo(t, a, http.MethodPut, sharedShow, `{"application":{"name":"`+name+`"}}`); r.status != 200 {
		t.Fatalf("rename: %d %.200s", r.status, r.body)
	}
	for i := range 5 {
		b := f.addReplica(t)
		if r := fleetDo(t, b, http.MethodGet, sharedShow, ""); !bytes.Contains(r.body, []byte(`"name":"`+name+`"`)) {
			t.Fatalf("replica %d joining after the rename answered its first show with: %d %.300s", i+2, r.status, r.body)
		}
	}
}

// Entries expire with the local cache's TTL (EntityTTL for a show): the store's TTL is
// set to it, and past it B reads afresh.
func TestFleetSharedCacheExpires(t *testing.T) {
	f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: -1, sharedCache: true})
	a, b := f.replicas[0], f.replicas[1]
	fleetDo(t, a, http.MethodGet, sharedShow, "")
	var entry string
	for _, k := range f.redis.Keys() {
		if strings.HasPrefix(k, "test:c:entities:") {
			entry = k
		}
	}
	if ttl := f.redis.TTL(entry); entry == "" || ttl <= translate.EntityTTL-time.Second || ttl > translate.EntityTTL {
		t.Fatalf("entity entry %q ttl %s, want %s", entry, ttl, translate.EntityTTL)
	}
	f.redis.FastForward(translate.EntityTTL + time.Second)
	if f.redis.Exists(entry) {
		t.Fatal("the entry outlived its TTL")
	}
	// B proves the key again (another application), then asks for the expired one.
	fleetDo(t, b, http.MethodGet, "/v2/applications/924224343.json", "")
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, sharedShow, "")); n == "0" {
		t.Fatal("B answered an expired entry with no round trip")
	}
}

// The store down: B answers from its own cache or from NerdGraph, no request fails,
// and the fallbacks are counted.
func TestFleetSharedCacheStoreDown(t *testing.T) {
	f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: -1, sharedCache: true})
	a, b := f.replicas[0], f.replicas[1]
	fleetDo(t, a, http.MethodGet, sharedShow, "")
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, sharedShow, "")); n != "0" {
		t.Fatalf("B made %s round trips for a shared show", n)
	}
	f.redis.Close()
	// B's own copy (kept in front of the store) still answers.
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, sharedShow, "")); n != "0" {
		t.Fatalf("with the store down B made %s round trips for a show it held", n)
	}
	// A show B never read: fetched from NerdGraph, then cached locally.
	const other = "/v2/applications/924224343.json"
	fleetDo(t, a, http.MethodGet, other, "")
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, other, "")); n == "0" {
		t.Fatal("with the store down B answered a show only A had read")
	}
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, other, "")); n != "0" {
		t.Fatalf("with the store down B's own cache did not hold the show (%s round trips)", n)
	}
	m := metricsOf(t, b)
	if !strings.Contains(m, "v2bridge_store_up 0") || strings.Contains(m, `v2bridge_store_cache_total{result="fallback"} 0`+"\n") {
		t.Fatalf("metrics with the store down:\n%s", m)
	}
}

func hasPrefix(keys []string, prefix string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// metricsOf is srv's /metrics lines about the store.
func metricsOf(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	r, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return grepLines(b, "v2bridge_store_")
}

// On a real server (skipped without redis-server or valkey-server): B serves A's
// cached show and account list with no round trip, and no key or value in the store,
// the cached entries included, holds an API key; every entry expires.
func TestFleetSharedCacheRealServer(t *testing.T) {
	srv := startRealRedis(t)
	f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: 1000, sharedCache: true, storeAddr: srv.addr})
	a, b := f.replicas[0], f.replicas[1]
	fleetDo(t, a, http.MethodGet, sharedShow, "")
	fleetDo(t, a, http.MethodGet, "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&values[]=call_count", "")
	if n := upstreamCalls(t, fleetDo(t, b, http.MethodGet, sharedShow, "")); n != "0" {
		t.Fatalf("B made %s round trips for a show cached through A", n)
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	entries := 0
	for _, k := range keys {
		dump.WriteString(k + "\n")
		if strings.HasPrefix(k, "test:c:") {
			entries++
			if ttl, _ := rdb.PTTL(ctx, k).Result(); ttl <= 0 {
				t.Fatalf("entry %s does not expire (%s)", k, ttl)
			}
		}
		switch typ, _ := rdb.Type(ctx, k).Result(); typ {
		case "string":
			v, _ := rdb.Get(ctx, k).Result()
			dump.WriteString(v + "\n")
		case "hash":
			m, _ := rdb.HGetAll(ctx, k).Result()
			for f, v := range m {
				dump.WriteString(f + "=" + v + "\n")
			}
		}
	}
	if entries < 2 {
		t.Fatalf("%d shared entries, want the show and the account list at least:\n%s", entries, dump.String())
	}
	for _, secret := range []string{key1, key2, keyMulti, "NRAK-"} {
		if strings.Contains(dump.String(), secret) {
			t.Fatalf("the store holds an API key:\n%s", dump.String())
		}
	}
}
