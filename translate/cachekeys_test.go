package translate

import (
	"strconv"
	"strings"
	"testing"
)

// A write to an account changes the write-scoped keys of every caller of that account
// and of no other account; every key still starts with the caller's identity.
func TestWriteScopedKeys(t *testing.T) {
	tr := New(nil, Options{})
	a1 := Caller{KeyHash: HashKey("key-a"), AccountID: 1000001}
	b1 := Caller{KeyHash: HashKey("key-b"), AccountID: 1000001}
	a2 := Caller{KeyHash: HashKey("key-a"), AccountID: 1000002}
	before := map[Caller]string{}
	for _, c := range []Caller{a1, b1, a2} {
		k := tr.writeScoped(c, "application", "42")
		if !strings.HasPrefix(k, c.KeyHash+"|"+strconv.FormatInt(c.AccountID, 10)+"|") {
			t.Fatalf("key %q does not start with the caller identity", k)
		}
		before[c] = k
	}
	if before[a1] == before[b1] || before[a1] == before[a2] {
		t.Fatal("two callers share a key")
	}
	tr.wroteAccount(a1)
	tests := []struct {
		name    string
		c       Caller
		changed bool
	}{
		{"the writer", a1, true},
		{"another key of the account", b1, true},
		{"the writer's key on another account", a2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := tr.writeScoped(tt.c, "application", "42")
			if (after != before[tt.c]) != tt.changed {
				t.Fatalf("key %q → %q, changed should be %v", before[tt.c], after, tt.changed)
			}
		})
	}
	if got, want := tr.writeScoped(a1, "application", "42"), tr.writeScoped(a1, "application", "42"); got != want {
		t.Fatalf("keys differ without a write: %q, %q", got, want)
	}
	if k := a1.cacheKey("application", "42"); strings.Contains(k, "@") {
		t.Fatalf("an unscoped key carries a write count: %q", k)
	}
}
