package gateway

import (
	"net/http"
	"testing"
)

func TestHeaderSlots(t *testing.T) {
	var s headerSlots
	h := http.Header{}
	for i := range len(s.v) + 2 { // two more than there are slots: those fall back to Set
		s.set(h, "X-Slot-"+string(rune('A'+i)), string(rune('a'+i)))
	}
	if got := h.Get("X-Slot-N"); got != "n" {
		t.Fatalf("a value set after the slots ran out = %q, want n", got)
	}
	h.Add("X-Slot-A", "again")
	if got := h.Values("X-Slot-A"); len(got) != 2 || got[0] != "a" || got[1] != "again" {
		t.Fatalf("Add after a slot value: %q", got)
	}
	if s.v[1] != "b" || h.Get("X-Slot-B") != "b" {
		t.Fatalf("Add wrote through into the next slot: %q, header %q", s.v[1], h.Get("X-Slot-B"))
	}
	var none *headerSlots
	none.set(h, "X-None", "v")
	if h.Get("X-None") != "v" {
		t.Fatal("nil slots do not set the header")
	}
	if allocs := testing.AllocsPerRun(100, func() {
		var s headerSlots
		h := make(http.Header, 8)
		s.set(h, "Content-Length", "42")
	}); allocs > 1 { // the header map only
		t.Fatalf("set allocates %.0f times", allocs)
	}
}
