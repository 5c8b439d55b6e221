package e2e

import (
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/translate"
)

func TestLegacyKeyMapping(t *testing.T) {
	legacy := strings.Repeat("Qx", 24) // 48 characters, like a REST API key
	e := newEnvWith(t, gateway.Config{
		Keys:                     gateway.KeyMap{translate.HashKey(legacy): {UserKey: key1, AccountID: 1000001}},
		RejectUnmappedLegacyKeys: true,
	})
	want := decode(t, e.get(t, "/v2/applications.json", key1)).Applications
	r := e.get(t, "/v2/applications.json", legacy)
	got := decode(t, r).Applications
	if r.status != 200 || len(got) != len(want) || got[0].ID != want[0].ID {
		t.Fatalf("legacy key: %d, %d apps", r.status, len(got))
	}
	// Mapped account: no account lookup, one round trip.
	if c := r.header.Get("X-V2bridge-Upstream-Calls"); c != "1" {
		t.Errorf("upstream calls %s, want 1", c)
	}
	before := e.sim.Requests()
	r = e.get(t, "/v2/applications.json", strings.Repeat("Zz", 24))
	if b := decode(t, r); r.status != 401 || b.Error == nil || b.Error.Title != "Invalid API key" {
		t.Fatalf("unmapped legacy key: %d %s", r.status, r.body)
	}
	if e.sim.Requests() != before {
		t.Fatal("an unmapped legacy key reached NerdGraph")
	}
}
