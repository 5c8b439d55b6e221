package translate

import (
	"context"
	"testing"
)

// entityconditions.go:314 CONDITIONALS_NEGATION (`f.GetId() == want` in
// isLegacyCondition): an id is a legacy condition only when the search, over all its
// pages, lists that id.
func TestIsLegacyConditionMut(t *testing.T) {
	f := condPages([]map[string]any{asCond(5, "APM", nil), asCond(6, "BROWSER", nil), asCond(8, "APM", nil)})
	tr := New(f, Options{})
	for id, want := range map[int64]bool{5: true, 8: true, 7: false} {
		got, err := tr.isLegacyCondition(context.Background(), Caller{AccountID: 1}, id)
		if err != nil || got != want {
			t.Errorf("isLegacyCondition(%d) = %v, %v; want %v", id, got, err, want)
		}
	}
}
