package e2e

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"testing"
)

// An application show is answered from the caller's entity cache for a short TTL: a
// repeat costs no round trip and is byte-identical, another caller (even another key
// of the same account) never gets the entry, and a write through the gateway retires
// the cached application reads of every caller of the account.
func TestApplicationShowCache(t *testing.T) {
	e := newEnv(t)
	const path = "/v2/applications/314221522.json"
	calls := func(r response) string { return r.header.Get("X-V2bridge-Upstream-Calls") }

	first := e.get(t, path, key1)
	again := e.get(t, path, key1)
	if first.status != 200 || again.status != 200 || calls(again) != "0" || !bytes.Equal(first.body, again.body) {
		t.Fatalf("repeat show: %d/%d, %s round trips, bodies equal %v", first.status, again.status, calls(again), bytes.Equal(first.body, again.body))
	}
	if again.header.Get("X-V2bridge-Fidelity") == "" || again.header.Get("Content-Length") == "" {
		t.Fatalf("a cached show lost its headers: %v", again.header)
	}
	x := e.get(t, "/v2/applications/314221522.xml", key1)
	if x.status != 200 || calls(x) != "0" || xml.Unmarshal(x.body, new(struct{})) != nil || !bytes.Contains(x.body, []byte("<application_response>")) {
		t.Fatalf("cached show as XML: %d, %s round trips: %.200s", x.status, calls(x), x.body)
	}

	// Another key of the same account has its own entry; a key of another account is
	// refused as before.
	if r := e.get(t, path, keyMulti, "X-Account-ID", "1000001"); r.status != 200 || calls(r) != "1" {
		t.Fatalf("another key of the account: %d, %s round trips", r.status, calls(r))
	}
	if r := e.get(t, path, key2); r.status != 404 {
		t.Fatalf("a key of another account got %d: %.200s", r.status, r.body)
	}

	// The other key also holds a filtered list (kept for the list TTL) that the rename
	// below changes.
	const filtered = "/v2/applications.json?filter[name]=renamed+in+the+cache"
	if r := e.get(t, filtered, keyMulti, "X-Account-ID", "1000001"); r.status != 200 || bytes.Contains(r.body, []byte("Renamed")) {
		t.Fatalf("filtered list before the rename: %d %.200s", r.status, r.body)
	}
	if r := e.get(t, filtered, keyMulti, "X-Account-ID", "1000001"); calls(r) != "0" {
		t.Fatalf("filtered list not cached: %s round trips", calls(r))
	}

	// A write retires the entries: the next reads go to NerdGraph and see the change,
	// for the writer and for the other key of the account.
	if r, b := e.put(t, path, `{"application":{"name":"Renamed in the cache test"}}`); r.status != 200 || b.Application.Name != "Renamed in the cache test" {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	r := e.get(t, path, key1)
	if calls(r) != "1" || !bytes.Contains(r.body, []byte(`"name":"Renamed in the cache test"`)) {
		t.Fatalf("show after update: %s round trips: %.300s", calls(r), r.body)
	}
	r = e.get(t, path, keyMulti, "X-Account-ID", "1000001")
	if calls(r) != "1" || !bytes.Contains(r.body, []byte(`"name":"Renamed in the cache test"`)) {
		t.Fatalf("another key's show after update: %s round trips: %.300s", calls(r), r.body)
	}
	if r := e.get(t, filtered, keyMulti, "X-Account-ID", "1000001"); !bytes.Contains(r.body, []byte(`"name":"Renamed in the cache test"`)) {
		t.Fatalf("another key's filtered list after the rename: %s round trips: %.300s", calls(r), r.body)
	}
	if r := e.get(t, path, key1); calls(r) != "0" {
		t.Fatalf("the read after a write is cached again: %s round trips", calls(r))
	}

	const gone = "/v2/applications/439883550.json"
	if r := e.get(t, gone, key1); r.status != 200 {
		t.Fatalf("show before delete: %d", r.status)
	}
	if r := e.do(t, http.MethodDelete, gone, key1, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r := e.get(t, gone, key1); r.status != 404 {
		t.Fatalf("a deleted application is still shown (from the cache?): %d", r.status)
	}
}
