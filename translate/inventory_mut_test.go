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
// inventoryFor): one read for the page's applications; an application whose agents
// fill uniques() (MaxUniques) is declared (CapInventory).

var invIDsRe = regexp.MustCompile(`appId (?:IN \(([^)]*)\)|= (\d+))`)

// invRow is one row of inventoryNRQL's answer: an application's hosts and agents
// (uniques() lists) and its last timeslice.
func invRow(app any, hosts, agents []any, lastSeen float64) map[string]any {
	return map[string]any{"facet": app, "appId": app, "hosts": hosts, "agents": agents, "lastSeen": lastSeen}
}

// inventoryFake answers inventoryNRQL with one row per application it names (host
// "h<id>", agent 1), but application 99 has MaxUniques agents; as NRDB, it keeps at
// most MaxFacets rows (LIMIT MAX).
func inventoryFake() *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppInventory" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		m := invIDsRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
		var rows []map[string]any
		for _, id := range strings.Split(m[1]+m[2], ", ") {
			n, _ := strconv.Atoi(id)
			agents := []any{1}
			if n == 99 {
				agents = make([]any, MaxUniques)
				for i := range agents {
					agents[i] = strconv.Itoa(i + 1)
				}
			}
			if len(rows) < MaxFacets {
				rows = append(rows, invRow(id, []any{"h" + id}, agents, 1.7e12))
			}
		}
		b, err := json.Marshal(nrqlAnswer(rows))
		return json.RawMessage(b), err
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

// completeInventory reads a full or missing inventory again in one round trip for the
// page's applications, and declares the cap only when one of them filled uniques().
func TestCompleteInventory(t *testing.T) {
	tests := []struct {
		name    string
		ids     []int
		missing bool
		wantCap bool
	}{
		{"full", []int{1, 2, 3}, false, false},
		{"missing", []int{1, 2, 3, 4, 5, 6, 7, 8}, true, false},
		{"one application at MaxUniques", []int{99}, false, true},
		{"among others", []int{1, 99, 5}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := inventoryFake()
			tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			p := &appPage{apps: outlines(tt.ids...), invFull: !tt.missing, invMissing: tt.missing}
			var notes Notes
			p.completeInventory(WithNotes(context.Background(), &notes), tr, Caller{AccountID: 1})
			if got := f.count("AppInventory"); got != 1 {
				t.Errorf("%d reads, want 1", got)
			}
			for _, id := range tt.ids {
				inv := p.inventory[int64(id)]
				if inv == nil || len(inv.hosts) != 1 || inv.hosts[0] != "h"+strconv.Itoa(id) {
					t.Errorf("application %d: inventory %+v", id, inv)
				}
				if want := 1; id == 99 {
					if len(inv.instances) != MaxUniques {
						t.Errorf("application 99: %d instances, want %d", len(inv.instances), MaxUniques)
					}
				} else if len(inv.instances) != want {
					t.Errorf("application %d: instances %v", id, inv.instances)
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
	f := inventoryFake()
	tr := New(f, Options{})
	p := &appPage{apps: outlines(1)}
	p.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	empty := &appPage{invMissing: true}
	empty.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	if f.count("") != 0 || p.inventory != nil || empty.invMissing {
		t.Errorf("%d reads for complete and empty pages", f.count(""))
	}
}

// A list page declares the uniques() cap only when one of its own applications filled
// it: the account-wide inventory also holds the applications of other pages.
func TestListDeclaresCappedApplicationOfThePage(t *testing.T) {
	many := make([]any, MaxUniques)
	for i := range many {
		many[i] = i + 1
	}
	for _, tt := range []struct {
		name    string
		capped  int // the application whose agents fill uniques()
		wantCap bool
	}{
		{"on the page", 150, true},
		{"on page 2", 250, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := withAnswer(appsFake(300), func(op string, _ map[string]any, data any) (any, error) {
				if op == "AppList" {
					rows := actorOf(data)["account"].(map[string]any)["inventory"].(map[string]any)["results"].([]map[string]any)
					rows[tt.capped-1]["agents"] = many
				}
				return data, nil
			})
			tr := New(f, Options{})
			var notes Notes
			l, _, err := tr.ListApplications(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, AppListRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if got := notes.String() == string(CapInventory); got != tt.wantCap {
				t.Errorf("declared %q, want the cap: %v", notes.String(), tt.wantCap)
			}
			if tt.wantCap && len(l.Applications[tt.capped-1].Links.ApplicationInstances) != MaxUniques {
				t.Errorf("application %d: %d instances", tt.capped, len(l.Applications[tt.capped-1].Links.ApplicationInstances))
			}
		})
	}
}

// A filtered list reads the inventory of every application it kept (listFiltered), so
// inventoryFor can get more ids than one NRQL answer holds rows (MaxFacets): it reads
// them in parts of MaxFacets, each never cut, and every application has its inventory.
// One query of all 12,000 would come back with 5000 rows and leave 7,000 without links.
func TestInventoryForReadsInParts(t *testing.T) {
	f := inventoryFake()
	tr := New(f, Options{})
	ids := make([]int64, 2*MaxFacets+2000)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	inv, capped, err := tr.inventoryFor(context.Background(), Caller{AccountID: 1}, ids)
	if err != nil || !capped { // application 99 (in the first part) fills uniques()
		t.Fatalf("err %v, capped %v", err, capped)
	}
	if got := f.count("AppInventory"); got != 3 {
		t.Errorf("%d reads, want 3", got)
	}
	var sizes []int
	for _, q := range sentQueries(f, "AppInventory", "query") {
		m := invIDsRe.FindStringSubmatch(q)
		sizes = append(sizes, len(strings.Split(m[1]+m[2], ", ")))
	}
	if fmt.Sprint(sizes) != "[5000 5000 2000]" {
		t.Errorf("reads of %v ids", sizes)
	}
	if len(inv) != len(ids) || inv[1] == nil || inv[int64(len(ids))] == nil {
		t.Errorf("%d applications with an inventory, want %d", len(inv), len(ids))
	}
}
