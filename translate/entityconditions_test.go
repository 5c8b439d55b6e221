package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// The entity-condition routes. NerdGraph is entFake: the account's NRQL conditions
// (condPages, conditions_test.go), condition 5 with a given query, its static update (the
// query sent is kept), legacy conditions (AsNrqlConditions) and APM application 7 named
// "shop" (appFake's AppShow, appwrites_test.go).

type entFake struct {
	*opFake
	conds    []map[string]any // NrqlConditions
	query    string           // condition 5's query ("": missing)
	baseline bool
	legacy   []string // ids of legacy conditions
	app      *appFake
	sent     []string // queries sent by the updates
}

func newEntFake(query string) *entFake {
	e := &entFake{opFake: &opFake{}, query: query, app: newAppFake()}
	e.answer = func(op string, vars map[string]any) (any, error) {
		cond := func(q string) map[string]any {
			c := nrqlCond(5, "9", map[string]any{"nrql": map[string]any{"query": q}})
			if e.baseline {
				c["__typename"], c["type"] = "AlertsNrqlBaselineCondition", "BASELINE"
			}
			return c
		}
		switch op {
		case "NrqlConditions":
			return condPages(e.conds).answer(op, vars)
		case "NrqlCondition":
			var c any
			if e.query != "" {
				c = cond(e.query)
			}
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{"nrqlCondition": c}}}}, nil
		case "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate":
			q := vars["condition"].(map[string]any)["nrql"].(map[string]any)["query"].(string)
			e.sent = append(e.sent, op+": "+q)
			field := map[string]string{"NrqlConditionStaticUpdate": "alertsNrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate": "alertsNrqlConditionBaselineUpdate"}[op]
			return map[string]any{field: cond(q)}, nil
		case "AsNrqlConditions":
			var cs []map[string]any
			for _, id := range e.legacy {
				var n int
				fmt.Sscan(id, &n)
				cs = append(cs, asCond(n, "APM", nil))
			}
			return condPages(cs).answer(op, vars)
		case "AppShow":
			return e.app.answer(op, vars)
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return e
}

// CheckEntityType: REST's three editable types pass, KeyTransaction/Server/Plugin are
// 501, anything else 406.
func TestCheckEntityType(t *testing.T) {
	var ve *restv2.Error
	for typ, want := range map[string]int{"Application": 0, "BrowserApplication": 0, "MobileApplication": 0,
		"KeyTransaction": 501, "Server": 501, "Plugin": 501, "application": 406, "": 406} {
		err := CheckEntityType(typ)
		got := 0
		if errors.As(err, &ve) {
			got = ve.Status
		}
		if got != want || (want == 0) != (err == nil) {
			t.Errorf("%q: %v, want %d", typ, err, want)
		}
	}
}

// GET lists every NRQL condition whose WHERE clause names the entity (appId,
// entity.guid, or the name, looked up once and only for APM applications), over every
// page; nulls and unreadable queries are skipped.
func TestListEntityConditions(t *testing.T) {
	guid := AppGUID(1, DomainAPM, 7)
	q := func(where string) string { return "SELECT count(*) FROM Transaction WHERE " + where }
	conds := []map[string]any{
		nrqlCond(1, "9", map[string]any{"nrql": map[string]any{"query": q("appId IN (7, 8)")}}),
		nrqlCond(2, "9", map[string]any{"nrql": map[string]any{"query": q("appName IN ('shop')")}}),
		nrqlCond(3, "9", map[string]any{"nrql": map[string]any{"query": q("entity.guid IN ('" + guid + "')")}}),
		nrqlCond(4, "9", map[string]any{"nrql": map[string]any{"query": q("appId IN (8)")}}),
		nrqlCond(6, "9", map[string]any{"nrql": map[string]any{"query": "SELECT count(*) FROM Transaction"}}),
		nrqlCond(10, "9", map[string]any{"nrql": map[string]any{"query": q("appName IN ('other') AND appId IN (7)")}}),
	}
	ids := func(l *restv2.EntityConditionList) string {
		var out []int64
		for _, c := range l.Conditions {
			out = append(out, c.ID)
		}
		return fmt.Sprint(out)
	}
	e := newEntFake("")
	e.conds = conds
	c := Caller{AccountID: 1}
	l, err := New(e, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "Application", ID: 7})
	if err != nil {
		t.Fatal(err)
	}
	if ids(l) != "[1 2 3 10]" || e.count("NrqlConditions") != 3 || e.count("AppShow") != 1 {
		t.Errorf("application 7: %s, %d pages, %d name reads; want [1 2 3 10], 3, 1", ids(l), e.count("NrqlConditions"), e.count("AppShow"))
	}
	// A browser application: no name lookup, its guid is of the BROWSER domain.
	e = newEntFake("")
	e.conds = append(conds, nrqlCond(11, "9", map[string]any{"nrql": map[string]any{"query": q("entity.guid IN ('" + AppGUID(1, DomainBrowser, 7) + "')")}}))
	l, err = New(e, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "BrowserApplication", ID: 7})
	if err != nil || ids(l) != "[1 10 11]" || e.count("AppShow") != 0 {
		t.Errorf("browser 7: %s, %v, %d name reads", ids(l), err, e.count("AppShow"))
	}
	// The name cannot be read: an error, not a shorter list.
	e = newEntFake("")
	e.conds = conds
	e.app.missing = true
	if _, err := New(e, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "Application", ID: 7}); err == nil {
		t.Error("a failed name lookup answered")
	}
	// No conditions at all, a null alerts object, a failed read.
	e = newEntFake("")
	if l, err := New(e, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "Application", ID: 7}); err != nil || l.Conditions == nil || len(l.Conditions) != 0 {
		t.Errorf("none: %+v, %v (want an empty, non-nil list)", l, err)
	}
	f := &opFake{}
	f.answer = func(string, map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": nil}}}, nil
	}
	if l, err := New(f, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "Application", ID: 7}); err != nil || len(l.Conditions) != 0 {
		t.Errorf("null alerts: %+v, %v", l, err)
	}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, err := New(f, Options{}).ListEntityConditions(context.Background(), c, EntityRef{Type: "Application", ID: 7}); err == nil {
		t.Error("a failed read answered")
	}
}

// PUT appends the entity to the condition's list (an appId list takes the id, a name
// list the application's name) and sends the new query once with the condition's own
// type; a condition that already names it is answered without a write; no WHERE clause,
// no list or no list of the entity's kind is 409; a missing condition is 404, or 501 when
// the id is a legacy condition's.
func TestAddEntityCondition(t *testing.T) {
	c := Caller{AccountID: 1}
	app := EntityRef{Type: "Application", ID: 7}
	base := "SELECT count(*) FROM Transaction WHERE "
	for _, tt := range []struct {
		name     string
		where    string
		ref      EntityRef
		baseline bool
		sent     string // "": nothing sent
		status   int
	}{
		{"appId list", "appId IN (8)", app, false, "NrqlConditionStaticUpdate: " + base + "appId IN (8, 7)", 0},
		{"name list", "appName IN ('x')", app, true, "NrqlConditionBaselineUpdate: " + base + "appName IN ('x', 'shop')", 0},
		{"guid list", "entity.guid IN ('g')", app, false, "NrqlConditionStaticUpdate: " + base + "entity.guid IN ('g', '" + AppGUID(1, DomainAPM, 7) + "')", 0},
		{"appId preferred", "appName IN ('x') AND appId IN (8)", app, false, "NrqlConditionStaticUpdate: " + base + "appName IN ('x') AND appId IN (8, 7)", 0},
		{"already named", "appId IN (7)", app, false, "", 0},
		{"browser: no name list edited", "appName IN ('x')", EntityRef{Type: "BrowserApplication", ID: 7}, false, "", 409},
		{"appId list of strings", "appId IN ('8')", app, false, "", 409},
		{"no list", "name = 'x'", app, false, "", 409},
		{"no where", "", app, false, "", 409},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := strings.TrimSuffix(base+tt.where, " WHERE ")
			e := newEntFake(q)
			e.baseline = tt.baseline
			show, err := New(e, Options{}).AddEntityCondition(context.Background(), c, tt.ref, 5)
			var ve *restv2.Error
			if tt.status != 0 {
				if !errors.As(err, &ve) || ve.Status != tt.status {
					t.Fatalf("%v, want %d", err, tt.status)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(e.sent, "|"); got != tt.sent {
				t.Errorf("sent %q, want %q", got, tt.sent)
			}
			if err == nil {
				want := q
				if tt.sent != "" {
					want = tt.sent[strings.Index(tt.sent, ": ")+2:]
				}
				if show.Condition.Query != want || show.Condition.ID != 5 {
					t.Errorf("answer %+v, want query %q", show.Condition, want)
				}
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		var ve *restv2.Error
		e := newEntFake("")
		if _, err := New(e, Options{}).AddEntityCondition(context.Background(), c, app, 5); !errors.As(err, &ve) || ve.Status != 404 {
			t.Errorf("missing: %v, want 404", err)
		}
		e.legacy = []string{"4", "5"}
		if _, err := New(e, Options{}).AddEntityCondition(context.Background(), c, app, 5); !errors.As(err, &ve) || ve.Status != 501 {
			t.Errorf("legacy: %v, want 501", err)
		}
		if len(e.sent) != 0 {
			t.Errorf("sent %v", e.sent)
		}
	})
	t.Run("name lookup fails", func(t *testing.T) {
		e := newEntFake(base + "appName IN ('x')")
		e.app.missing = true
		if _, err := New(e, Options{}).AddEntityCondition(context.Background(), c, app, 5); err == nil || len(e.sent) != 0 {
			t.Errorf("%v, sent %v", err, e.sent)
		}
	})
}

// DELETE removes the entity from every list naming it in one write (each list in turn,
// parsed again after each edit); a condition not naming it is answered without a write;
// removing a list's last entity is 409.
func TestRemoveEntityCondition(t *testing.T) {
	c := Caller{AccountID: 1}
	app := EntityRef{Type: "Application", ID: 7}
	base := "SELECT count(*) FROM Transaction WHERE "
	for _, tt := range []struct {
		name   string
		where  string
		sent   string
		status int
	}{
		{"two lists", "appId IN (7, 8) AND appName IN ('shop', 'x')", "NrqlConditionStaticUpdate: " + base + "appId IN (8) AND appName IN ('x')", 0},
		{"middle of a list", "appId IN (6, 7, 8)", "NrqlConditionStaticUpdate: " + base + "appId IN (6, 8)", 0},
		{"not named", "appId IN (8)", "", 0},
		{"last entity", "appId IN (7)", "", 409},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEntFake(base + tt.where)
			_, err := New(e, Options{}).RemoveEntityCondition(context.Background(), c, app, 5)
			var ve *restv2.Error
			if tt.status != 0 {
				if !errors.As(err, &ve) || ve.Status != tt.status {
					t.Fatalf("%v, want %d", err, tt.status)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(e.sent, "|"); got != tt.sent {
				t.Errorf("sent %q, want %q", got, tt.sent)
			}
		})
	}
}

// An id is a legacy condition only when the search, over all its pages, lists that id.
func TestIsLegacyCondition(t *testing.T) {
	f := condPages([]map[string]any{asCond(5, "APM", nil), asCond(6, "BROWSER", nil), asCond(8, "APM", nil)})
	tr := New(f, Options{})
	for id, want := range map[int64]bool{5: true, 8: true, 7: false} {
		got, err := tr.isLegacyCondition(context.Background(), Caller{AccountID: 1}, id)
		if err != nil || got != want {
			t.Errorf("isLegacyCondition(%d) = %v, %v; want %v", id, got, err, want)
		}
	}
}
