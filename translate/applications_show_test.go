package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// appShowFake answers AppShow for application 7 of account 1 with summary s (nil: none)
// and the inventory rows.
func appShowFake(s map[string]any, rows []map[string]any) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppShow" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		ent := map[string]any{"__typename": "ApmApplicationEntity", "guid": AppGUID(1, DomainAPM, 7), "accountId": 1,
			"name": "shop", "reporting": true, "alertSeverity": "NOT_ALERTING", "applicationId": 7, "language": "go",
			"settings": map[string]any{"apdexTarget": 0.5}, "apmSummary": s, "browser": map[string]any{"results": []any{}}}
		if rows == nil {
			rows = []map[string]any{}
		}
		return map[string]any{"actor": map[string]any{"entity": ent, "account": map[string]any{"inventory": map[string]any{"results": rows}}}}, nil
	}
	return f
}

// Application 0 is not found, without asking NerdGraph (whose guid of domain id 0 would
// name an application without an applicationId: REST id 0).
func TestShowApplicationZero(t *testing.T) {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"__typename": "ApmApplicationEntity",
			"guid": vars["guid"], "accountId": 1, "name": "ghost", "applicationId": nil}}}, nil
	}
	tr := New(f, Options{})
	var ve *v2.Error
	if _, err := tr.ShowApplication(context.Background(), Caller{AccountID: 1}, 0); !errors.As(err, &ve) || ve.Status != 404 {
		t.Fatalf("application 0: %v, want 404", err)
	}
	if f.count("") != 0 {
		t.Errorf("%d round trips for application 0", f.count(""))
	}
}

// An application shows its inventory (hosts, instances, last report); a complete answer
// is cached for EntityTTL, one whose agents filled uniques() is declared and read again
// each time.
func TestShowApplicationInventory(t *testing.T) {
	c := Caller{AccountID: 1}
	f := appShowFake(nil, []map[string]any{invRow(7, []any{"web-0", "web-1"}, []any{2, 1}, 1.7e12)})
	tr := New(f, Options{})
	for i := 0; i < 2; i++ {
		var notes Notes
		doc, err := tr.ShowApplication(WithNotes(context.Background(), &notes), c, 7)
		if err != nil {
			t.Fatal(err)
		}
		a := doc.Application
		wantHosts := fmt.Sprint([]int64{HostID(1, 7, "web-0"), HostID(1, 7, "web-1")})
		if HostID(1, 7, "web-0") > HostID(1, 7, "web-1") {
			wantHosts = fmt.Sprint([]int64{HostID(1, 7, "web-1"), HostID(1, 7, "web-0")})
		}
		if a.Links == nil || fmt.Sprint(a.Links.ApplicationInstances) != "[1 2]" || fmt.Sprint(a.Links.ApplicationHosts) != wantHosts ||
			a.LastReportedAt == nil || !a.LastReportedAt.Equal(time.UnixMilli(1.7e12).Truncate(time.Second)) || notes.String() != "" {
			t.Fatalf("show %d: links %+v, last reported %v, notes %q", i, a.Links, a.LastReportedAt, notes.String())
		}
	}
	if got := f.count("AppShow"); got != 1 {
		t.Errorf("%d reads for two shows, want 1 (cached)", got)
	}

	agents := make([]any, MaxUniques)
	for i := range agents {
		agents[i] = i + 1
	}
	f = appShowFake(nil, []map[string]any{invRow(7, []any{"web-0", "web-1"}, agents, 1.7e12)})
	tr = New(f, Options{})
	for i := 0; i < 2; i++ {
		var notes Notes
		doc, err := tr.ShowApplication(WithNotes(context.Background(), &notes), c, 7)
		if err != nil {
			t.Fatal(err)
		}
		if notes.String() != string(CapInventory) || len(doc.Application.Links.ApplicationInstances) != MaxUniques {
			t.Fatalf("show %d of 10000 agents: notes %q, %d instances", i, notes.String(), len(doc.Application.Links.ApplicationInstances))
		}
	}
	if got := f.count("AppShow"); got != 2 {
		t.Errorf("%d reads for two capped shows, want 2 (not cached)", got)
	}
}

// Every write count gives its own cache key, the first one included (kind@0, never the
// unscoped kind).
func TestWriteScopedEveryCount(t *testing.T) {
	tr := New(nil, Options{})
	c := Caller{KeyHash: "h", AccountID: 1}
	seen := map[string]bool{c.cacheKey("application", "9"): true}
	for i := 0; i < 5; i++ {
		k := tr.writeScoped(c, "application", "9")
		if seen[k] || !strings.Contains(k, "|application@"+strconv.Itoa(i)+"|") {
			t.Fatalf("after %d writes: key %q (seen before: %v)", i, k, seen[k])
		}
		seen[k] = true
		tr.wroteAccount(c)
	}
}
