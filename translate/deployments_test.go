package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// The deployment rules and lists: REST's "later than the most recent deployment" rule,
// the list's window, paging and re-reads past 5000 rows, and the replica's memory of its
// own writes (merged until NRQL has them, for DeploymentMemory). NerdGraph is depFake:
// application 7 of account 1 with the deployments in rows (timestamps in ms).

type depFake struct {
	*opFake
	rows    func(call int, since, until int64) []map[string]any
	created int
}

var limitRe = regexp.MustCompile(`LIMIT (MAX|\d+)$`)

func newDepFake(rows func(call int, since, until int64) []map[string]any) *depFake {
	d := &depFake{opFake: &opFake{}, rows: rows}
	d.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "Deployments":
			q := fmt.Sprint(vars["query"])
			m := rangeRe.FindStringSubmatch(q)
			since, _ := strconv.ParseInt(m[1], 10, 64)
			until, _ := strconv.ParseInt(m[2], 10, 64)
			rs := d.rows(d.count("Deployments")-1, since, until)
			if l := limitRe.FindStringSubmatch(q); l != nil && l[1] != "MAX" {
				n, _ := strconv.Atoi(l[1])
				rs = rs[:min(n, len(rs))]
			}
			acct := 1
			if vars["guid"] != AppGUID(1, DomainAPM, 7) {
				acct = 2 // another account's application
			}
			return map[string]any{"actor": map[string]any{
				"entity":  map[string]any{"__typename": "ApmApplicationEntity", "guid": vars["guid"], "accountId": acct},
				"account": map[string]any{"deployments": map[string]any{"results": rs}}}}, nil
		case "DeploymentCreateEvent":
			d.created++
			ev := vars["event"].(map[string]any)
			return map[string]any{"changeTrackingCreateEvent": map[string]any{"changeTrackingEvent": map[string]any{
				"__typename": "ChangeTrackingDeploymentEvent", "changeTrackingId": "ct-" + strconv.Itoa(d.created),
				"timestamp": ev["timestamp"], "category": "Deployment", "type": "Basic",
				"entity": map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": AppGUID(1, DomainAPM, 7), "applicationId": 7},
			}}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return d
}

// depRow is a ChangeTrackingEvent row of NRQL.
func depRow(id string, ms int64) map[string]any {
	return map[string]any{"timestamp": float64(ms), "changeTrackingId": id, "version": "v-" + id}
}

var depNow = time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)

func depTranslator(d *depFake, now *time.Time) *Translator {
	return New(d, Options{Now: func() time.Time { return *now }})
}

// A timestamp equal to the latest deployment (NRQL's or the one this replica recorded,
// whichever is later) is refused, one a second later accepted; the check reads one row
// (LIMIT 1); no timestamp, no check.
func TestDeploymentLaterThanLatest(t *testing.T) {
	latest := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)
	d := newDepFake(func(int, int64, int64) []map[string]any {
		return []map[string]any{depRow("a", latest.UnixMilli()), depRow("b", latest.UnixMilli()-60_000)}
	})
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	post := func(ts time.Time) error {
		_, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "r" + ts.String(), Timestamp: &ts}, now, false)
		return err
	}
	var ve *restv2.Error
	if err := post(latest); !errors.As(err, &ve) || ve.Status != 422 || !strings.Contains(ve.Title, "later than") {
		t.Fatalf("timestamp equal to the latest: %v", err)
	}
	if !strings.Contains(fmt.Sprint(d.calls[0].vars["query"]), "LIMIT 1") {
		t.Errorf("the check read %q, want LIMIT 1", d.calls[0].vars["query"])
	}
	if err := post(latest.Add(-time.Second)); err == nil {
		t.Fatal("timestamp before the latest accepted")
	}
	mine := latest.Add(10 * time.Second)
	if err := post(mine); err != nil {
		t.Fatalf("timestamp after the latest: %v", err)
	}
	// NRQL does not have it yet: the recorded one is now the latest.
	if err := post(mine); err == nil {
		t.Fatal("timestamp equal to the deployment this replica recorded accepted")
	}
	if err := post(mine.Add(time.Second)); err != nil {
		t.Fatalf("timestamp after the recorded one: %v", err)
	}
	n := d.count("Deployments")
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "no ts"}, now, false); err != nil {
		t.Fatal(err)
	}
	if d.count("Deployments") != n {
		t.Error("a deployment without timestamp read the latest")
	}
	if d.created != 3 {
		t.Errorf("%d created, want 3", d.created)
	}
}

// With no deployment at all, any past timestamp is accepted.
func TestDeploymentFirst(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	ts := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := tr.CreateDeployment(context.Background(), Caller{AccountID: 1}, 7, restv2.DeploymentInput{Revision: "r", Timestamp: &ts}, now, false); err != nil {
		t.Fatal(err)
	}
}

// The list covers 90 days; 201 deployments come newest first on two pages; another
// account's application is a 404.
func TestDeploymentListWindowAndPaging(t *testing.T) {
	var rows []map[string]any
	for i := 0; i < 201; i++ {
		rows = append(rows, depRow("d"+strconv.Itoa(i), depNow.UnixMilli()-int64(i)*1000))
	}
	d := newDepFake(func(int, int64, int64) []map[string]any { return rows })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{AccountID: 1}
	tests := []struct {
		page      int
		wantLen   int
		wantFirst string
		want      Paging
	}{
		{0, 200, "v-d0", Paging{Page: 1, Last: 2, HasNext: true}},
		{2, 1, "v-d200", Paging{Page: 2, Last: 2}},
		{3, 0, "", Paging{Page: 3, Last: 2}},
	}
	for _, tt := range tests {
		l, err := tr.ListDeployments(context.Background(), c, 7, tt.page)
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		if len(l.Doc.Deployments) > 0 {
			first = l.Doc.Deployments[0].Revision
		}
		if len(l.Doc.Deployments) != tt.wantLen || first != tt.wantFirst || l.Paging != tt.want {
			t.Errorf("page %d: %d from %q, %+v", tt.page, len(l.Doc.Deployments), first, l.Paging)
		}
	}
	until := time.Date(2026, 11, 20, 12, 1, 0, 0, time.UTC)
	m := rangeRe.FindStringSubmatch(fmt.Sprint(d.calls[0].vars["query"]))
	if want := fmt.Sprintf("%d %d", until.Add(-90*24*time.Hour).UnixMilli(), until.UnixMilli()); m[1]+" "+m[2] != want {
		t.Errorf("window %s %s, want %s", m[1], m[2], want)
	}
	if !strings.HasSuffix(fmt.Sprint(d.calls[0].vars["query"]), "LIMIT MAX") {
		t.Errorf("list query %q, want LIMIT MAX", d.calls[0].vars["query"])
	}
	// One page: Last is 1 (pageOf's max(..., 1) and ceiling).
	one := newDepFake(func(int, int64, int64) []map[string]any { return rows[:200] })
	l, err := depTranslator(one, &now).ListDeployments(context.Background(), c, 7, 1)
	if err != nil || l.Paging != (Paging{Page: 1, Last: 1}) {
		t.Errorf("200 deployments: %+v, %v", l, err)
	}
	none := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	l, err = depTranslator(none, &now).ListDeployments(context.Background(), c, 7, 1)
	if err != nil || l.Paging != (Paging{Page: 1, Last: 1}) {
		t.Errorf("no deployments: %+v, %v", l, err)
	}
	var ve *restv2.Error
	if _, err := tr.ListDeployments(context.Background(), c, 8, 1); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("another account's application: %v", err)
	}
}

// A full read (5000 rows) is followed by one ending 1 ms after its oldest row, dropping
// rows already read; a read that makes no progress, or the 20th, stops and is declared.
func TestDeploymentListReReads(t *testing.T) {
	base := depNow.UnixMilli() - 10_000_000
	full := func(from int) []map[string]any {
		rs := make([]map[string]any, MaxFacets)
		for i := range rs {
			rs[i] = depRow("d"+strconv.Itoa(from+i), base-int64(from+i))
		}
		return rs
	}
	t.Run("two reads", func(t *testing.T) {
		d := newDepFake(func(call int, _, _ int64) []map[string]any {
			if call == 0 {
				return full(0)
			}
			return []map[string]any{depRow("d4999", base-4999), depRow("x", base-6000)}
		})
		now := depNow
		var notes Notes
		l, err := depTranslator(d, &now).ListDeployments(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, 7, 26)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Doc.Deployments) != 1 || l.Doc.Deployments[0].Revision != "v-x" || notes.String() != "" {
			t.Fatalf("page 26: %+v, notes %q", l.Doc.Deployments, notes.String())
		}
		m := rangeRe.FindStringSubmatch(fmt.Sprint(d.calls[1].vars["query"]))
		if m[2] != strconv.FormatInt(base-4999+1, 10) {
			t.Errorf("second read UNTIL %s, want %d", m[2], base-4999+1)
		}
	})
	t.Run("no progress", func(t *testing.T) {
		d := newDepFake(func(int, int64, int64) []map[string]any {
			rs := full(0)
			for _, r := range rs {
				r["timestamp"] = float64(depNow.Add(time.Hour).UnixMilli()) // after the window's end
			}
			return rs
		})
		now := depNow
		var notes Notes
		if _, err := depTranslator(d, &now).ListDeployments(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, 7, 1); err != nil {
			t.Fatal(err)
		}
		if d.count("") != 1 || notes.String() != string(CapDeployments) {
			t.Fatalf("%d reads, notes %q", d.count(""), notes.String())
		}
	})
}

// A deployment recorded here is listed before NRQL has it, once when NRQL has it (same
// surrogate id), and no longer after DeploymentMemory; another caller does not see it.
func TestDeploymentMemory(t *testing.T) {
	nrqlHas := false
	var recorded map[string]any
	d := newDepFake(func(int, int64, int64) []map[string]any {
		if nrqlHas {
			return []map[string]any{recorded}
		}
		return nil
	})
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	show, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "mine"}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	recorded = depRow("ct-1", show.Deployment.Timestamp.UnixMilli())
	count := func(c Caller) int {
		l, err := tr.ListDeployments(context.Background(), c, 7, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Doc.Deployments)
	}
	if n := count(c); n != 1 {
		t.Fatalf("%d listed before NRQL has it, want 1", n)
	}
	if n := count(Caller{KeyHash: "other", AccountID: 1}); n != 0 {
		t.Fatalf("another caller lists %d", n)
	}
	nrqlHas = true
	if n := count(c); n != 1 {
		t.Fatalf("%d listed once NRQL has it, want 1", n)
	}
	nrqlHas = false
	now = depNow.Add(DeploymentMemory - time.Millisecond)
	if n := count(c); n != 1 {
		t.Fatalf("%d listed just before DeploymentMemory, want 1", n)
	}
	now = depNow.Add(DeploymentMemory)
	if n := count(c); n != 0 {
		t.Fatalf("%d listed after DeploymentMemory, want 0", n)
	}
	// A second write keeps the first in memory.
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "two"}, now, false); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Second)
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "three"}, now, false); err != nil {
		t.Fatal(err)
	}
	if n := count(c); n != 2 {
		t.Fatalf("%d listed after two writes, want 2", n)
	}
}

// The recorded deployment's fields come from the mutation's answer: surrogate id of
// the change-tracking id, the timestamp sent (the caller's), the application.
func TestDeploymentCreatedFields(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	ts := time.Date(2026, 11, 20, 11, 59, 0, 0, time.UTC)
	show, err := depTranslator(d, &now).CreateDeployment(context.Background(), Caller{AccountID: 1}, 7, restv2.DeploymentInput{Revision: "r", Timestamp: &ts}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	got := show.Deployment
	if got.ID != SurrogateID("deployment", 1, "ct-1") || !got.Timestamp.Equal(ts) || got.ApplicationID != 7 || got.Revision != "r" {
		t.Fatalf("%+v", got)
	}
	ev, _ := json.Marshal(d.calls[len(d.calls)-1].vars["event"])
	if !strings.Contains(string(ev), `"timestamp":`+strconv.FormatInt(ts.UnixMilli(), 10)) {
		t.Errorf("event sent %s", ev)
	}
}

// Full reads that always move back stop after deploymentReads (20) reads, declared. The
// fake refuses a 26th read.
func TestDeploymentListReadBound(t *testing.T) {
	d := newDepFake(nil)
	create := d.answer
	d.answer = func(op string, vars map[string]any) (any, error) {
		if op != "Deployments" {
			return create(op, vars)
		}
		if d.count("Deployments") > deploymentReads+5 {
			return nil, errors.New("fake: too many reads")
		}
		m := rangeRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
		until, _ := strconv.ParseInt(m[2], 10, 64)
		// 5000 rows of one deployment 2 ms before this read's end: each read moves 1 ms.
		row := `{"timestamp":` + strconv.FormatInt(until-2, 10) + `,"changeTrackingId":"x` + strconv.Itoa(d.count("")) + `","version":"v"},`
		b := []byte(`{"actor":{"entity":{"__typename":"ApmApplicationEntity","guid":"` + AppGUID(1, DomainAPM, 7) +
			`","accountId":1},"account":{"deployments":{"results":[`)
		b = append(b, strings.Repeat(row, MaxFacets)...)
		b = append(b[:len(b)-1], "]}}}}"...)
		return json.RawMessage(b), nil
	}
	now := depNow
	var notes Notes
	if _, err := depTranslator(d, &now).ListDeployments(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, 7, 1); err != nil {
		t.Fatal(err)
	}
	if d.count("Deployments") != deploymentReads || notes.String() != string(CapDeployments) {
		t.Fatalf("%d reads (want %d), notes %q", d.count("Deployments"), deploymentReads, notes.String())
	}
}

// Rows without deploymentId or changeTrackingId are told apart by their whole row, so
// two such deployments are both listed.
func TestDeploymentRowsWithoutID(t *testing.T) {
	base := depNow.UnixMilli() - 60_000
	d := newDepFake(func(int, int64, int64) []map[string]any {
		return []map[string]any{
			{"timestamp": float64(base), "version": "a"},
			{"timestamp": float64(base - 1000), "version": "b"},
		}
	})
	now := depNow
	l, err := depTranslator(d, &now).ListDeployments(context.Background(), Caller{AccountID: 1}, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Doc.Deployments) != 2 || l.Doc.Deployments[0].Revision != "a" || l.Doc.Deployments[1].Revision != "b" {
		t.Fatalf("%+v, want a and b", l.Doc.Deployments)
	}
}
