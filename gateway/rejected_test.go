package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A refused key is checked with NerdGraph again ttl after NerdGraph's refusal, however
// often its callers are answered 401 from the cache meanwhile; once its time has come,
// one request is the check and the others wait recheckSpacing; a check NerdGraph
// refuses again starts a new ttl, one it accepts clears the key.
func TestRejectedKeyIsRecheckedAfterItsTTL(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	g := New(Config{Now: func() time.Time { return at }, AuthFailuresPerMinute: -1}, nil, nil)
	req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	poll := func() bool { // true: admitted (goes to NerdGraph); a 401 answer is settled as such
		st := &reqState{}
		ok := g.admit(httptest.NewRecorder(), func(error) { st.sw.status = http.StatusUnauthorized }, req, st, "k", false)
		if !ok {
			g.settle(req, st, "k")
		}
		return ok
	}
	refusedByNerdGraph := func() {
		st := &reqState{}
		st.sw.status = http.StatusUnauthorized
		g.settle(req, st, "k")
	}
	refusedByNerdGraph()
	for i := 1; i < 6; i++ { // a poll every 5 s, each answered from the cache
		at = at.Add(5 * time.Second)
		if poll() {
			t.Fatalf("poll at %v: admitted within the rejected-key TTL", time.Duration(i)*5*time.Second)
		}
	}
	at = at.Add(5 * time.Second) // 30 s after NerdGraph's refusal
	if !poll() {
		t.Fatal("poll at the TTL: answered from the cache, want the key checked with NerdGraph")
	}
	if poll() {
		t.Fatal("a second request at the same instant went to NerdGraph too, want one check a second")
	}
	at = at.Add(recheckSpacing)
	if !poll() {
		t.Fatal("a request a second after a check without a verdict was not admitted")
	}
	refusedByNerdGraph()
	at = at.Add(DefaultRejectedKeyTTL - time.Millisecond)
	if poll() {
		t.Fatal("a key NerdGraph refused again was admitted within its new TTL")
	}
	at = at.Add(time.Millisecond)
	if !poll() {
		t.Fatal("not admitted at the end of the new TTL")
	}
	g.guard.rejected.cleared("k")
	if !poll() || !poll() {
		t.Fatal("a cleared key is still held back")
	}
}

// The cache of refused keys holds at most its bound and sweeps entries long past.
func TestRejectedKeysBounded(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	k := newRejectedKeys(time.Second, 2, func() time.Time { return at })
	k.refused("a")
	k.refused("b")
	k.refused("c")
	if len(k.next) != 2 || k.refuse("c") {
		t.Fatalf("%d entries, c refused %v: want the bound of 2 and c not remembered", len(k.next), k.refuse("c"))
	}
	at = at.Add(3 * time.Second)
	k.refused("c")
	if len(k.next) != 1 {
		t.Fatalf("%d entries after a sweep, want only c", len(k.next))
	}
	var nilCache *rejectedKeys
	if nilCache.refuse("a") {
		t.Fatal("a disabled cache refused a key")
	}
	nilCache.refused("a")
	nilCache.cleared("a")
}
