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
	"github.com/v2bridge/v2bridge/restv2"
)

// GET /v2/alerts_violations: the default window, the start_date/end_date filter edges,
// only_open, paging at 200, the list cache key, the re-read of a full (5000-facet) read
// and the fields of one violation. NerdGraph is opFake answering NrqlQuery; the row shape
// is violationsNRQL's aliases.

// violClock is the translator's clock: half a second past 12:00:00, so the window's end
// (now to the second, plus one second) differs from now.
var violClock = time.Date(2026, 11, 20, 12, 0, 0, 500_000_000, time.UTC)

// violRow is one NrqlQuery row of violationsNRQL; closeAt 0: still open.
func violRow(id int64, openAt, closeAt int64) map[string]any {
	r := map[string]any{"facet": float64(id), "lastSeen": float64(openAt), "openTime": float64(openAt),
		"title": "t" + strconv.FormatInt(id, 10), "lastEvent": "open", "priority": "CRITICAL"}
	if closeAt != 0 {
		r["closeTime"], r["lastEvent"], r["lastSeen"] = float64(closeAt), "close", float64(closeAt)
	}
	return r
}

var rangeRe = regexp.MustCompile(`SINCE (-?\d+) UNTIL (-?\d+)`)

// sentRange is the SINCE and UNTIL of call i's NRQL.
func sentRange(t *testing.T, f *opFake, i int) (int64, int64) {
	t.Helper()
	m := rangeRe.FindStringSubmatch(fmt.Sprint(f.calls[i].vars["query"]))
	if m == nil {
		t.Fatalf("no range in %v", f.calls[i].vars["query"])
	}
	s, _ := strconv.ParseInt(m[1], 10, 64)
	u, _ := strconv.ParseInt(m[2], 10, 64)
	return s, u
}

func violTranslator(rows func(call int) []map[string]any) (*Translator, *opFake) {
	f := &opFake{}
	f.answer = func(op string, _ map[string]any) (any, error) {
		if op != "NrqlQuery" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return nrqlAnswer(rows(len(f.calls) - 1)), nil
	}
	return New(f, Options{Now: func() time.Time { return violClock }}), f
}

// The default window is the last 30 days, start_date moves its start, and its end is
// now to the second plus 1 s.
func TestViolationsWindow(t *testing.T) {
	tr, f := violTranslator(func(int) []map[string]any { return nil })
	if _, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{}); err != nil {
		t.Fatal(err)
	}
	since, until := sentRange(t, f, 0)
	if want := violClock.Add(-30 * 24 * time.Hour).UnixMilli(); since != want {
		t.Errorf("default SINCE %d, want %d (30 days back)", since, want)
	}
	if want := time.Date(2026, 11, 20, 12, 0, 1, 0, time.UTC).UnixMilli(); until != want {
		t.Errorf("UNTIL %d, want %d", until, want)
	}
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if _, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Start: &start}); err != nil {
		t.Fatal(err)
	}
	if since, _ := sentRange(t, f, 1); since != start.UnixMilli() {
		t.Errorf("start_date SINCE %d, want %d", since, start.UnixMilli())
	}
}

// Violations opened exactly at start_date or end_date are kept; only_open keeps the
// open ones.
func TestViolationsDateFilter(t *testing.T) {
	start := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	end := time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC)
	s, e := start.UnixMilli(), end.UnixMilli()
	rows := []map[string]any{violRow(1, s-1, 0), violRow(2, s, 0), violRow(3, s+5, s+10), violRow(4, e, 0), violRow(5, e+1, 0)}
	tr, _ := violTranslator(func(int) []map[string]any { return rows })
	ids := func(r ViolationsRequest) string {
		l, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, r)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, v := range l.Violations {
			out = append(out, v.ID)
		}
		return fmt.Sprint(out)
	}
	tests := []struct {
		name string
		give ViolationsRequest
		want string
	}{
		{"no dates", ViolationsRequest{}, "[5 4 3 2 1]"},
		{"start and end inclusive", ViolationsRequest{Start: &start, End: &end}, "[4 3 2]"},
		{"start only", ViolationsRequest{Start: &start}, "[5 4 3 2]"},
		{"end only", ViolationsRequest{End: &end}, "[4 3 2 1]"},
		{"only open", ViolationsRequest{OnlyOpen: true}, "[5 4 2 1]"},
		{"only open in dates", ViolationsRequest{Start: &start, End: &end, OnlyOpen: true}, "[4 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(tt.give); got != tt.want {
				t.Fatalf("ids %s, want %s", got, tt.want)
			}
		})
	}
}

// Pages of 200: 200 and 201 violations, pages 0 to 3; a next page only when one is
// left.
func TestViolationsPaging(t *testing.T) {
	for _, n := range []int{200, 201} {
		var rows []map[string]any
		for i := 1; i <= n; i++ {
			rows = append(rows, violRow(int64(i), int64(i)*1000, 0))
		}
		tr, f := violTranslator(func(int) []map[string]any { return rows })
		tests := []struct {
			page, wantLen, wantPage int
			wantFirst               int64
			wantNext                bool
		}{
			{0, 200, 1, int64(n), n > 200},
			{1, 200, 1, int64(n), n > 200},
			{2, n - 200, 2, int64(min(n-200, 1)), false},
			{3, 0, 3, 0, false},
		}
		for _, tt := range tests {
			l, p, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Page: tt.page})
			if err != nil {
				t.Fatal(err)
			}
			var first int64
			if len(l.Violations) > 0 {
				first = l.Violations[0].ID
			}
			if len(l.Violations) != tt.wantLen || p.Page != tt.wantPage || p.HasNext != tt.wantNext || p.Last != 0 || first != tt.wantFirst {
				t.Errorf("%d violations, page %d: %d items from %d, paging %+v; want %d from %d, page %d, next %v",
					n, tt.page, len(l.Violations), first, p, tt.wantLen, tt.wantFirst, tt.wantPage, tt.wantNext)
			}
		}
		if got := f.count("NrqlQuery"); got != 1 {
			t.Errorf("%d reads for 4 pages, want 1 (list cache)", got)
		}
	}
}

// The list is cached: pages and end_date or only_open changes reuse one read per caller
// and start_date; another start_date, or another caller, reads again.
func TestViolationsCacheKey(t *testing.T) {
	tr, f := violTranslator(func(int) []map[string]any { return []map[string]any{violRow(1, 1000, 0)} })
	s1 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	s2 := s1.Add(time.Millisecond)
	end := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		c         Caller
		r         ViolationsRequest
		wantReads int
	}{
		{Caller{KeyHash: "a", AccountID: 1}, ViolationsRequest{}, 1},
		{Caller{KeyHash: "a", AccountID: 1}, ViolationsRequest{Page: 2, OnlyOpen: true, End: &end}, 1},
		{Caller{KeyHash: "a", AccountID: 1}, ViolationsRequest{Start: &s1}, 2},
		{Caller{KeyHash: "a", AccountID: 1}, ViolationsRequest{Start: &s1, Page: 3}, 2},
		{Caller{KeyHash: "a", AccountID: 1}, ViolationsRequest{Start: &s2}, 3},
		{Caller{KeyHash: "a", AccountID: 2}, ViolationsRequest{Start: &s2}, 4},
		{Caller{KeyHash: "b", AccountID: 2}, ViolationsRequest{Start: &s2}, 5},
	}
	for i, st := range steps {
		if _, _, err := tr.Violations(context.Background(), st.c, st.r); err != nil {
			t.Fatal(err)
		}
		if got := f.count("NrqlQuery"); got != st.wantReads {
			t.Fatalf("step %d: %d reads, want %d", i, got, st.wantReads)
		}
	}
}

// A read of 5000 facets is followed by one ending at the oldest lastSeen + 1 ms; an
// incident met twice keeps its first read; fewer than 5000 ends; the answers are newest
// first.
func TestViolationsReReadFull(t *testing.T) {
	full := make([]map[string]any, 0, MaxFacets)
	for i := 0; i < MaxFacets; i++ {
		full = append(full, violRow(int64(10_000+i), 2_000_000+int64(i), 0))
	}
	oldest := int64(2_000_000)
	second := []map[string]any{violRow(10_000, 5, 0), violRow(7, 1_000_000, 0)} // 10000 again: the first read wins
	tr, f := violTranslator(func(call int) []map[string]any {
		if call == 0 {
			return full
		}
		return second
	})
	start := time.UnixMilli(1)
	l, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Start: &start, Page: 26})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.count("NrqlQuery"); got != 2 {
		t.Fatalf("%d reads, want 2", got)
	}
	since, until := sentRange(t, f, 1)
	if since != 1 || until != oldest+1 {
		t.Errorf("second read SINCE %d UNTIL %d, want 1, %d", since, until, oldest+1)
	}
	// 5001 violations, newest first: page 26 holds the last one, the oldest (id 7).
	if len(l.Violations) != 1 || l.Violations[0].ID != 7 {
		t.Fatalf("page 26: %+v", l.Violations)
	}
	all, _, _ := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Start: &start, Page: 1})
	if all.Violations[0].ID != 10_000+MaxFacets-1 {
		t.Errorf("first violation %d, want the newest", all.Violations[0].ID)
	}
	var notes Notes
	if _, _, err := tr.Violations(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ViolationsRequest{Start: &start}); err != nil {
		t.Fatal(err)
	}
	if notes.String() != "" {
		t.Errorf("caps %q after a complete read", notes.String())
	}
}

// Full reads that never move stop at once, declared; full reads that always move stop
// after 40, declared.
func TestViolationsReadLimits(t *testing.T) {
	t.Run("no progress", func(t *testing.T) {
		full := make([]map[string]any, MaxFacets)
		for i := range full {
			full[i] = violRow(int64(i+1), violClock.UnixMilli()+5000, 0) // lastSeen after the window's end
		}
		tr, f := violTranslator(func(int) []map[string]any { return full })
		var notes Notes
		if _, _, err := tr.Violations(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ViolationsRequest{}); err != nil {
			t.Fatal(err)
		}
		if f.count("") != 1 || notes.String() != string(CapViolations) {
			t.Fatalf("%d reads, notes %q", f.count(""), notes.String())
		}
	})
	t.Run("40 reads", func(t *testing.T) {
		f := &opFake{}
		f.answer = func(_ string, vars map[string]any) (any, error) {
			m := rangeRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
			until, _ := strconv.ParseInt(m[2], 10, 64)
			// 5000 rows, as JSON text: 4999 null rows (skipped, cheap to decode) and one
			// incident seen 2 ms before this read's end, so each read moves the end back 1 ms.
			b := []byte(`{"actor":{"account":{"nrql":{"results":[`)
			b = append(b, strings.Repeat("null,", MaxFacets-1)...)
			b = append(b, `{"facet":`...)
			b = strconv.AppendInt(b, int64(len(f.calls)), 10)
			b = append(b, `,"openTime":1,"lastSeen":`...)
			b = strconv.AppendInt(b, until-2, 10)
			return json.RawMessage(append(b, "}]}}}}"...)), nil
		}
		tr := New(f, Options{Now: func() time.Time { return violClock }})
		var notes Notes
		if _, _, err := tr.Violations(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ViolationsRequest{}); err != nil {
			t.Fatal(err)
		}
		if f.count("") != violationReads || notes.String() != string(CapViolations) {
			t.Fatalf("%d reads (want %d), notes %q", f.count(""), violationReads, notes.String())
		}
	})
}

// violationOf and productName: the duration of an open and a closed violation, the close
// event in any case, an incident id that is not a number, a row without openTime,
// priority and entity fields.
func TestViolationOf(t *testing.T) {
	now := time.UnixMilli(100_000)
	guid := GUID{AccountID: 1, Domain: "INFRA", Type: "HOST", DomainID: "77"}.String()
	tests := []struct {
		name, row string
		wantOK    bool
		check     func(t *testing.T, v violationResult)
	}{
		{"open: duration to now", `{"facet":12,"openTime":40000,"lastSeen":41000,"lastEvent":"open","priority":"critical"}`, true,
			func(t *testing.T, r violationResult) {
				if r.v.ID != 12 || r.v.Duration != 60 || r.v.ClosedAt != nil || r.v.Priority != "Critical" || r.last != 41000 {
					t.Errorf("%+v last %d", r.v, r.last)
				}
			}},
		{"closed: duration to close", `{"facet":"13","openTime":40000,"closeTime":70500,"lastEvent":"Close","priority":"WARNING"}`, true,
			func(t *testing.T, r violationResult) {
				if r.v.ID != 13 || r.v.Duration != 30 || r.v.ClosedAt == nil || *r.v.ClosedAt != 70500 || r.v.Priority != "Warning" || r.last != 0 {
					t.Errorf("%+v", r.v)
				}
			}},
		{"close time but last event open", `{"facet":14,"openTime":40000,"closeTime":50000,"lastEvent":"open"}`, true,
			func(t *testing.T, r violationResult) {
				if r.v.ClosedAt != nil || r.v.Duration != 60 {
					t.Errorf("%+v", r.v)
				}
			}},
		{"string incident id", `{"facet":"inc-a","openTime":1000}`, true,
			func(t *testing.T, r violationResult) {
				if r.v.ID != SurrogateID("incident", 0, "inc-a") || r.key != "inc-a" {
					t.Errorf("id %d key %q", r.v.ID, r.key)
				}
			}},
		{"entity", `{"facet":15,"openTime":1000,"entityGuid":"` + guid + `","policyId":"5","conditionId":6,"entityName":"h"}`, true,
			func(t *testing.T, r violationResult) {
				if r.v.EntityProduct != "Infrastructure" || r.v.EntityType != "Host" || r.v.EntityID != 77 || r.v.PolicyID != 5 || r.v.ConditionID != 6 || r.v.EntityName != "h" {
					t.Errorf("%+v", r.v)
				}
			}},
		{"no openTime", `{"facet":16,"lastSeen":9}`, false,
			func(t *testing.T, r violationResult) {
				if r.key != "16" || r.last != 9 {
					t.Errorf("key %q last %d", r.key, r.last)
				}
			}},
		{"not an object", `[1]`, false, func(*testing.T, violationResult) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, key, last, ok := violationOf([]byte(tt.row), now)
			if ok != tt.wantOK {
				t.Fatalf("ok %v", ok)
			}
			tt.check(t, violationResult{v: v, key: key, last: last})
		})
	}
	for domain, want := range map[string]string{DomainAPM: "Apm", DomainBrowser: "Browser", DomainMobile: "Mobile",
		"INFRA": "Infrastructure", "SYNTH": "Synthetics", "EXT": "Ext", "": ""} {
		if got := productName(domain); got != want {
			t.Errorf("productName(%q) = %q, want %q", domain, got, want)
		}
	}
}

type violationResult struct {
	v    restv2.Violation
	key  string
	last int64
}

// A row without lastSeen does not count as the oldest event, so a full read is still
// followed by the read that ends at the oldest real lastSeen + 1 ms.
func TestViolationsFullReadRowWithoutLastSeen(t *testing.T) {
	full := make([]map[string]any, 0, MaxFacets)
	for i := 0; i < MaxFacets; i++ {
		full = append(full, violRow(int64(10_000+i), 2_000_000+int64(i), 0))
	}
	delete(full[MaxFacets-1], "lastSeen")
	tr, f := violTranslator(func(call int) []map[string]any {
		if call == 0 {
			return full
		}
		return nil
	})
	start := time.UnixMilli(1)
	var notes Notes
	if _, _, err := tr.Violations(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ViolationsRequest{Start: &start}); err != nil {
		t.Fatal(err)
	}
	if f.count("NrqlQuery") != 2 || notes.String() != "" {
		t.Fatalf("%d reads, notes %q; want 2 reads, no cap", f.count("NrqlQuery"), notes.String())
	}
	if _, until := sentRange(t, f, 1); until != 2_000_001 {
		t.Errorf("second read UNTIL %d, want 2000001", until)
	}
}

// Violations opened in the same millisecond keep NRQL's order, so a page holds the same
// ones on every read.
func TestViolationsTieOrder(t *testing.T) {
	rows := []map[string]any{violRow(3, 5000, 0), violRow(1, 5000, 0), violRow(2, 5000, 0), violRow(9, 9000, 0)}
	tr, _ := violTranslator(func(int) []map[string]any { return rows })
	start := time.UnixMilli(1)
	l, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Start: &start})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, v := range l.Violations {
		ids = append(ids, v.ID)
	}
	if fmt.Sprint(ids) != "[9 3 1 2]" {
		t.Fatalf("order %v, want [9 3 1 2]", ids)
	}
}

// GET /v2/alerts_incidents. NerdGraph is opFake answering Incidents
// (graphql/operations/alerts.graphql) and, for the further pages of policies, Policies.

var incClock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func incidentsAnswer(next any, alerts any, issues ...map[string]any) map[string]any {
	return map[string]any{"actor": map[string]any{"account": map[string]any{
		"aiIssues": map[string]any{"issues": map[string]any{"nextCursor": next, "issues": issues}},
		"alerts":   alerts}}}
}

func policyPage(next any, ps ...map[string]any) map[string]any {
	return map[string]any{"policiesSearch": map[string]any{"nextCursor": next, "policies": ps}}
}

// The 30-day window, the cached list, activatedAt over createdAt, no policy, numeric and
// other incident ids, the issue cursor loop, and the preferences filled from the
// policies of the first page and the further policy pages.
func TestIncidents(t *testing.T) {
	act := int64(1500)
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "Incidents":
			if vars["cursor"] == nil {
				return incidentsAnswer("i2", policyPage("p2", policyJSON("1", "a", "PER_POLICY")),
					map[string]any{"issueId": "is-1", "state": "ACTIVATED", "createdAt": 1000, "activatedAt": act, "closedAt": nil,
						"policyIds": []int{1}, "incidentIds": []string{"123", "abc"}},
					map[string]any{"issueId": "is-2", "state": "CLOSED", "createdAt": 2000, "closedAt": 3000, "policyIds": []int{}, "incidentIds": []string{}}), nil
			}
			// A later page's policies are ignored (the first page's are complete with their cursor).
			return incidentsAnswer(nil, policyPage(nil, policyJSON("1", "a", "PER_CONDITION"), policyJSON("7", "b", "PER_CONDITION")),
				map[string]any{"issueId": "is-3", "state": "CREATED", "createdAt": 4000, "policyIds": []int{7}, "incidentIds": []string{}}), nil
		case "Policies":
			if vars["cursor"] != "p2" {
				return nil, fmt.Errorf("policies cursor %v", vars["cursor"])
			}
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": policyPage(nil, policyJSON("7", "b", "PER_CONDITION_AND_TARGET"))}}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	tr := New(f, Options{Now: func() time.Time { return incClock }})
	c := Caller{AccountID: 1}
	l, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{ExcludeViolations: true})
	if err != nil {
		t.Fatal(err)
	}
	closed := int64(3000)
	want := []restv2.Incident{
		{ID: SurrogateID("issue", 1, "is-1"), OpenedAt: 1500, IncidentPreference: "PER_POLICY", PolicyID: 1,
			Violations: []int64{123, SurrogateID("incident", 0, "abc")}, ExcludeViolations: true},
		{ID: SurrogateID("issue", 1, "is-2"), OpenedAt: 2000, ClosedAt: &closed, Violations: []int64{}, ExcludeViolations: true},
		{ID: SurrogateID("issue", 1, "is-3"), OpenedAt: 4000, IncidentPreference: "PER_CONDITION_AND_TARGET", PolicyID: 7, Violations: []int64{}, ExcludeViolations: true},
	}
	if len(l.Incidents) != len(want) {
		t.Fatalf("%d incidents: %+v", len(l.Incidents), l.Incidents)
	}
	for i, w := range want {
		g := l.Incidents[i]
		if g.ID != w.ID || g.OpenedAt != w.OpenedAt || fmt.Sprint(g.ClosedAt != nil) != fmt.Sprint(w.ClosedAt != nil) ||
			(g.ClosedAt != nil && *g.ClosedAt != *w.ClosedAt) || g.IncidentPreference != w.IncidentPreference ||
			g.PolicyID != w.PolicyID || fmt.Sprint(g.Violations) != fmt.Sprint(w.Violations) || g.ExcludeViolations != w.ExcludeViolations {
			t.Errorf("incident %d: %+v, want %+v", i, g, w)
		}
	}
	if f.count("Incidents") != 2 || f.count("Policies") != 1 {
		t.Errorf("%d issue reads, %d policy reads; want 2, 1", f.count("Incidents"), f.count("Policies"))
	}
	tw := f.calls[0].vars["timeWindow"].(map[string]any)
	if tw["startTime"] != float64(incClock.Add(-30*24*time.Hour).UnixMilli()) || tw["endTime"] != float64(incClock.UnixMilli()) {
		t.Errorf("time window %v", tw)
	}
	if _, ok := f.calls[0].vars["filter"].(map[string]any)["states"]; ok {
		t.Errorf("states sent without only_open: %v", f.calls[0].vars["filter"])
	}
	// The list is kept: page 2 and a repeat cost no round trip; only_open is another list.
	n := f.count("")
	if _, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{ExcludeViolations: true, Page: 2}); err != nil || f.count("") != n {
		t.Errorf("cached list re-read: %v, %d calls", err, f.count("")-n)
	}
	if _, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{OnlyOpen: true, ExcludeViolations: true}); err != nil || f.count("") == n {
		t.Fatalf("only_open: %v", err)
	}
	if st := fmt.Sprint(f.calls[n].vars["filter"].(map[string]any)["states"]); st != "[CREATED ACTIVATED]" {
		t.Errorf("only_open states %s", st)
	}
}

// A failed read is an error, a null account or aiIssues is an empty list, a failed or
// null policy page leaves the preference empty.
func TestIncidentsNullsAndErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		answer  func(op string) (any, error)
		wantErr bool
		want    int
	}{
		{"error", func(string) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }, true, 0},
		{"null account", func(string) (any, error) {
			return map[string]any{"actor": map[string]any{"account": nil}}, nil
		}, false, 0},
		{"null aiIssues", func(string) (any, error) {
			return map[string]any{"actor": map[string]any{"account": map[string]any{"aiIssues": nil, "alerts": nil}}}, nil
		}, false, 0},
		{"policy page fails", func(op string) (any, error) {
			if op == "Policies" {
				return nil, &ng.Error{Kind: ng.KindServer, Status: 500}
			}
			return incidentsAnswer(nil, policyPage("p2"), map[string]any{"issueId": "x", "createdAt": 1, "policyIds": []int{7}}), nil
		}, true, 0},
		{"policy page null", func(op string) (any, error) {
			if op == "Policies" {
				return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": nil}}}, nil
			}
			return incidentsAnswer(nil, policyPage("p2"), map[string]any{"issueId": "x", "createdAt": 1, "policyIds": []int{7}}), nil
		}, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &opFake{}
			f.answer = func(op string, _ map[string]any) (any, error) { return tt.answer(op) }
			l, _, err := New(f, Options{Now: func() time.Time { return incClock }}).Incidents(context.Background(), Caller{AccountID: 1}, IncidentsRequest{})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v", err)
			}
			if err == nil && (len(l.Incidents) != tt.want || tt.want == 1 && l.Incidents[0].IncidentPreference != "") {
				t.Errorf("%+v, want %d", l.Incidents, tt.want)
			}
		})
	}
}
