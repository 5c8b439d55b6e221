package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// Tests of the per-page inventory read (applications.go completeInventory and
// inventoryFor) written for mutants no own test reached (issue 22): a read that comes
// back with NRQL's 5000 facets is read again per half of the applications until each
// part is under 5000; one application alone at 5000 is declared (CapInventory).

var invIDsRe = regexp.MustCompile(`appId (?:IN \(([^)]*)\)|= (\d+))`)

// inventoryFake answers inventoryNRQL: a read of more than perRead applications comes
// back full (5000 facets); otherwise one row per application (host "h<id>"), but
// application 99 alone fills 5000.
func inventoryFake(perRead int) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppInventory" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		m := invIDsRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
		ids := strings.Split(m[1]+m[2], ", ")
		row := func(id string, agent int) string {
			return `{"facet":[` + id + `,"h` + id + `",` + strconv.Itoa(agent) + `],"lastSeen":1.7e12}`
		}
		var rows []string
		switch {
		case len(ids) > perRead || (len(ids) == 1 && ids[0] == "99"):
			rows = make([]string, MaxFacets)
			for i := range rows {
				rows[i] = row(ids[0], i)
			}
		default:
			for _, id := range ids {
				rows = append(rows, row(id, 1))
			}
		}
		return json.RawMessage(`{"actor":{"account":{"nrql":{"results":[` + strings.Join(rows, ",") + `]}}}}`), nil
	}
	return f
}

func outlines(ids ...int) []appFields {
	var out []appFields
	for _, id := range ids {
		out = append(out, &ng.ApmOutline{ApplicationId: id})
	}
	return out
}

// Mutants applications.go:400-405 (len(results) >= MaxFacets && len(ids) > 1, the
// halves) and :354-375 (completeInventory's conditions and the cap it declares).
func TestInventoryHalvingMut(t *testing.T) {
	tests := []struct {
		name      string
		ids       []int
		perRead   int
		wantReads int
		wantCap   bool
	}{
		{"one read", []int{1, 2, 3}, 3, 1, false},
		{"halved twice", []int{1, 2, 3, 4, 5, 6, 7, 8}, 2, 7, false},
		{"odd halves", []int{1, 2, 3, 4, 5}, 2, 5, false}, // 5 → 2 + 3 → 3 → 1 + 2
		{"one application at 5000", []int{99}, 5, 1, true},
		{"declared after halving", []int{1, 99}, 1, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := inventoryFake(tt.perRead)
			tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			p := &appPage{apps: outlines(tt.ids...), invFull: true}
			var notes Notes
			p.completeInventory(WithNotes(context.Background(), &notes), tr, Caller{AccountID: 1})
			if got := f.count("AppInventory"); got != tt.wantReads {
				t.Errorf("%d reads, want %d", got, tt.wantReads)
			}
			for _, id := range tt.ids {
				inv := p.inventory[int64(id)]
				if inv == nil || len(inv.hosts) != 1 || inv.hosts[0] != "h"+strconv.Itoa(id) {
					t.Errorf("application %d: inventory %+v", id, inv)
				}
			}
			if got := notes.String() == string(CapInventory); got != tt.wantCap || (len(p.caps) == 1) != tt.wantCap {
				t.Errorf("declared %q, caps %v", notes.String(), p.caps)
			}
			if p.invFull || p.invMissing {
				t.Error("the page still marked incomplete")
			}
		})
	}
	// A complete page is left alone; an empty one is only marked complete.
	f := inventoryFake(10)
	tr := New(f, Options{})
	p := &appPage{apps: outlines(1)}
	p.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	empty := &appPage{invMissing: true}
	empty.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	if f.count("") != 0 || p.inventory != nil || empty.invMissing {
		t.Errorf("%d reads for complete and empty pages", f.count(""))
	}
}
