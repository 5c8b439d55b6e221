package translate

import "testing"

// The name pass is chosen for an account known to be large: its account-wide inventory
// was found cut (manyApps) or a search counted more than 5000 applications.
func TestLargeAccount(t *testing.T) {
	tests := []struct {
		name  string
		many  bool
		count int
		want  bool
	}{
		{"unknown", false, 0, false},
		{"a page", false, 200, false},
		{"at 5000", false, MaxFacets, false},
		{"past 5000", false, MaxFacets + 1, true},
		{"inventory cut", true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			if tt.many {
				tr.cursors.Set(c.cacheKey("apps-many"), true)
			}
			tr.noteAppCount(c, tt.count)
			if got := tr.largeAccount(c); got != tt.want {
				t.Errorf("largeAccount = %v, want %v", got, tt.want)
			}
			if other := (Caller{KeyHash: "k", AccountID: 2}); tr.largeAccount(other) {
				t.Error("another account is large too")
			}
		})
	}
}
