package gateway

import (
	"net/http/httptest"
	"testing"

	"github.com/v2bridge/v2bridge/translate"
)

// Admission chooses the pool from the headers alone: only a key NerdGraph has accepted
// waits in the main pool; no key, an empty one, two different keys, a key not yet
// accepted, or a gateway without a translator wait in the unauthenticated pool. The
// state remembers the key and its hashes only when there is one, and whether it came
// in an API-key header (a license key does not).
func TestAdmissionPoolFromHeadersAlone(t *testing.T) {
	const accepted, fresh = "NRAK-ACCEPTED", "NRAK-FRESH"
	g, _ := explainGateway(Config{MaxInFlight: 4, MaxUnauthenticatedInFlight: 2})
	hash, _ := translate.KeySum(accepted)
	g.keys.accepted(hash)
	bare := New(Config{MaxInFlight: 4, MaxUnauthenticatedInFlight: 2}, nil, nil)
	for _, tc := range []struct {
		name     string
		g        *Gateway
		headers  map[string][]string
		main     bool
		key      string
		apiKeyed bool
	}{
		{"accepted key", g, map[string][]string{"X-Api-Key": {accepted}}, true, accepted, true},
		{"accepted key, repeated alike", g, map[string][]string{"X-Api-Key": {accepted, accepted}}, true, accepted, true},
		{"key not yet accepted", g, map[string][]string{"X-Api-Key": {fresh}}, false, fresh, true},
		{"no key", g, nil, false, "", true},
		{"empty key", g, map[string][]string{"X-Api-Key": {"  "}}, false, "", true},
		{"two different keys", g, map[string][]string{"X-Api-Key": {accepted, fresh}}, false, "", true},
		{"license key header", g, map[string][]string{"X-License-Key": {accepted}}, true, accepted, false},
		{"no translator", bare, map[string][]string{"X-Api-Key": {accepted}}, false, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/v2/applications.json", nil)
			for k, vs := range tc.headers {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			st := &reqState{}
			pool := tc.g.poolFor(r, st)
			if main := pool == tc.g.slots; main != tc.main || (!main && pool != tc.g.unauthSlots) {
				t.Errorf("main pool %v, want %v", main, tc.main)
			}
			if st.accepted != tc.main || st.key != tc.key || st.apiKeyed != tc.apiKeyed {
				t.Errorf("state accepted %v key %q apiKeyed %v, want %v %q %v", st.accepted, st.key, st.apiKeyed, tc.main, tc.key, tc.apiKeyed)
			}
			if wantHash, _ := translate.KeySum(tc.key); tc.key != "" && st.keyHash != wantHash {
				t.Errorf("state key hash %q, want %q", st.keyHash, wantHash)
			}
		})
	}
}

// A key's hashes are read from the request's state when admission hashed that very key,
// and computed afresh for any other key (or no state).
func TestKeyHashesReusedOnlyForTheSameKey(t *testing.T) {
	a, b := "NRAK-A", "NRAK-B"
	ha, sa := translate.KeySum(a)
	hb, sb := translate.KeySum(b)
	st := &reqState{key: a, keyHash: "from-admission", keySum: sa}
	if h, _ := st.keyHashes(a); h != "from-admission" {
		t.Errorf("same key: %q, want the state's hash", h)
	}
	if h, s := st.keyHashes(b); h != hb || s != sb {
		t.Errorf("another key: %q, want its own hash %q", h, hb)
	}
	var none *reqState
	if h, _ := none.keyHashes(a); h != ha {
		t.Errorf("no state: %q, want %q", h, ha)
	}
	if h, _ := (&reqState{key: a}).keyHashes(a); h != ha {
		t.Errorf("state without a hash: %q, want %q", h, ha)
	}
}

// The chosen-account header is set only when the gateway chose the account (the key's
// own or the configured default), never when the caller named it.
func TestChosenAccountHeaderOnlyWhenChosen(t *testing.T) {
	for source, want := range map[string]string{"key": "1000001", "default": "1000001", "header": "", "path": "", "single": ""} {
		w := httptest.NewRecorder()
		chosenAccountHeader(w.Header(), 1000001, source)
		if got := w.Header().Get(chosenAccountName); got != want {
			t.Errorf("source %q: header %q, want %q", source, got, want)
		}
	}
}
