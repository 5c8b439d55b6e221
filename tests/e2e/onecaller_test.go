package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// One caller per request on every path: a request whose key headers carry two
// different keys is a 401 naming them, translated or passed through, without a call
// to NerdGraph or REST; one whose account headers name two accounts is a 400; the same
// key or account repeated is one caller. A kept answer is never replayed to a request
// naming two accounts.
func TestOneCallerPerRequest(t *testing.T) {
	rest := newFakeREST(t)
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{
		RESTUpstream:         rest.srv.URL + "/v2",
		Modes:                map[string]gateway.Mode{"application_hosts.list": gateway.ModePassthrough},
		UnmatchedPassthrough: true,
	}, Now: time.Now}) // kept answers live by the wall clock
	e := &env{sim: h.Sim, gw: h.Gateway}
	const list, show = "/v2/applications.json", "/v2/applications/314221522.json"
	for range 3 { // kept for replay, then replayed
		if r := e.get(t, show, keyMulti, "X-Account-ID", "1000001"); r.status != 200 {
			t.Fatalf("warm-up: %d %s", r.status, r.body)
		}
	}
	tests := []struct {
		name   string
		path   string
		hdr    [][2]string
		status int
		title  string
	}{
		{"X-Api-Key and Api-Key differ", list, [][2]string{{"X-Api-Key", key1}, {"Api-Key", key2}}, 401, "X-Api-Key and Api-Key"},
		{"Api-Key and X-Api-Key, same key", list, [][2]string{{"X-Api-Key", key1}, {"Api-Key", key1}}, 200, ""},
		{"X-Api-Key repeated, two keys", list, [][2]string{{"X-Api-Key", key1}, {"X-Api-Key", key2}}, 401, "repeated X-Api-Key"},
		{"X-Api-Key and X-License-Key differ", list, [][2]string{{"X-Api-Key", key1}, {"X-License-Key", "0123456789abcdef0123456789abcdef01234567"}}, 401, "X-Api-Key and X-License-Key"},
		{"passed through, two keys", "/v2/applications/314221522/hosts.json", [][2]string{{"X-Api-Key", key1}, {"Api-Key", key2}}, 401, "X-Api-Key and Api-Key"},
		{"unmatched, two keys", "/v2/alerts_external_service_conditions.json", [][2]string{{"Api-Key", key1}, {"X-Api-Key", key2}}, 401, "X-Api-Key and Api-Key"},
		{"X-Account-ID repeated, two accounts", list, [][2]string{{"X-Api-Key", keyMulti}, {"X-Account-ID", "1000001"}, {"X-Account-ID", "1000002"}}, 400, "repeated X-Account-ID"},
		{"X-Account-ID repeated under an account path", "/accounts/1000001/v2/applications.json", [][2]string{{"X-Api-Key", keyMulti}, {"X-Account-ID", "1000001"}, {"X-Account-ID", "1000002"}}, 400, "repeated X-Account-ID"},
		{"X-Account-ID and NewRelic-Account-Id differ", list, [][2]string{{"X-Api-Key", keyMulti}, {"X-Account-ID", "1000001"}, {"NewRelic-Account-Id", "1000002"}}, 400, "X-Account-ID and NewRelic-Account-Id"},
		{"X-Account-ID repeated, a kept answer's account first", show, [][2]string{{"X-Api-Key", keyMulti}, {"X-Account-ID", "1000001"}, {"X-Account-ID", "1000002"}}, 400, "repeated X-Account-ID"},
		{"X-Account-ID repeated, one account", list, [][2]string{{"X-Api-Key", keyMulti}, {"X-Account-ID", "1000001"}, {"X-Account-ID", "1000001"}}, 200, ""},
	}
	for _, tt := range tests {
		simBefore, restBefore := e.sim.Requests(), len(rest.seen)
		req, _ := http.NewRequest(http.MethodGet, e.gw.URL+tt.path, nil)
		for _, h := range tt.hdr {
			req.Header.Add(h[0], h[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.title) {
			t.Errorf("%s: %d %s, want %d naming %q", tt.name, resp.StatusCode, body, tt.status, tt.title)
		}
		if tt.status >= 400 && (e.sim.Requests() != simBefore || len(rest.seen) != restBefore) {
			t.Errorf("%s: refused after calling NerdGraph (%d) or REST (%d)", tt.name, e.sim.Requests()-simBefore, len(rest.seen)-restBefore)
		}
	}
}

// Only guesses count against an address: requests without a key, or with two keys, are
// 401s that do not use up the address's failed authentications, so a key NerdGraph has
// not seen yet is still checked from that address.
func TestRequestsWithoutAKeyCostTheAddressNothing(t *testing.T) {
	e := newEnvWith(t, gateway.Config{AuthFailuresPerMinute: 5})
	for range 20 {
		if r := e.get(t, "/v2/applications.json", ""); r.status != http.StatusUnauthorized {
			t.Fatalf("no key: %d, want 401", r.status)
		}
		if r := e.get(t, "/v2/applications.json", key1, "Api-Key", key2); r.status != http.StatusUnauthorized {
			t.Fatalf("two keys: %d, want 401", r.status)
		}
	}
	if r := e.get(t, "/v2/applications.json", key1); r.status != http.StatusOK {
		t.Fatalf("a first key after 40 requests without one: %d %s, want 200", r.status, r.body)
	}
}
