package translate

import (
	"context"
	"errors"
	"fmt"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// The mobile application routes. NerdGraph is opFake; answers follow
// graphql/operations/mobile.graphql.

func mobileJSON(typename string, id int, reporting bool, sessions int) map[string]any {
	return map[string]any{"__typename": typename, "guid": AppGUID(1, DomainMobile, int64(id)), "accountId": 1,
		"name": fmt.Sprint("m", id), "reporting": reporting, "alertSeverity": "NOT_ALERTING", "applicationId": id,
		"mobileSummary": map[string]any{"appLaunchCount": 10, "crashCount": 2, "crashRate": 0.2, "httpErrorRate": 0.5,
			"httpRequestCount": 7, "httpRequestRate": 3.5, "httpResponseTimeAverage": 0.0123456, "mobileSessionCount": sessions,
			"networkFailureRate": 0.25}}
}

// The list reads every page of the search (nulls skipped, only mobile entities); each
// application's summary maps NerdGraph's fields to REST's: only while reporting, the
// response time in seconds (TestMobileFiguresAsREST), calls per session (requests /
// sessions) only with sessions.
func TestListMobileApplications(t *testing.T) {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "MobileSearch" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		res := map[string]any{"nextCursor": "c2", "entities": []any{mobileJSON("MobileApplicationEntityOutline", 1, true, 2), mobileJSON("MobileApplicationEntityOutline", 2, false, 2)}}
		if vars["cursor"] != nil {
			res = map[string]any{"nextCursor": nil, "entities": []any{mobileJSON("MobileApplicationEntityOutline", 3, true, 0)}}
		}
		return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"results": res}}}, nil
	}
	tr := New(f, Options{})
	l, _, err := tr.ListMobileApplications(context.Background(), Caller{AccountID: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Applications) != 3 || f.count("") != 2 || f.calls[1].vars["cursor"] != "c2" {
		t.Fatalf("%d applications, %d reads: %+v", len(l.Applications), f.count(""), l.Applications)
	}
	a := l.Applications[0]
	wantSum := restv2.MobileSummary{LaunchCount: 10, Throughput: 3.5, ResponseTime: 0.0123, CallsPerSession: 3.5, FailedCallRate: 0.25, RemoteErrorRate: 0.5}
	if a.ID != 1 || a.Name != "m1" || !a.Reporting || a.Summary == nil || *a.Summary != wantSum ||
		a.Crash == nil || *a.Crash != (restv2.CrashSummary{SupportsCrashData: true, CrashCount: 2, CrashRate: 0.2}) {
		t.Errorf("reporting application: %+v %+v %+v", a, a.Summary, a.Crash)
	}
	if b := l.Applications[1]; b.Summary != nil || b.Crash != nil || b.Reporting {
		t.Errorf("not reporting: %+v", b)
	}
	if c := l.Applications[2]; c.Summary == nil || c.Summary.CallsPerSession != 0 {
		t.Errorf("no sessions: %+v", c.Summary)
	}
	if q := fmt.Sprint(f.calls[0].vars["query"]); q != "domain = 'MOBILE' AND type = 'APPLICATION' AND accountId = 1" {
		t.Errorf("query %q", q)
	}
	f.answer = func(string, map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"results": nil}}}, nil
	}
	if l, _, err := tr.ListMobileApplications(context.Background(), Caller{AccountID: 1}, 1); err != nil || len(l.Applications) != 0 {
		t.Errorf("null results: %+v, %v", l, err)
	}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, _, err := tr.ListMobileApplications(context.Background(), Caller{AccountID: 1}, 1); err == nil {
		t.Error("a failed read answered")
	}
}

// One application by id; another account's or a missing one is 404.
func TestShowMobileApplication(t *testing.T) {
	var ent any
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "MobileShow" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return map[string]any{"actor": map[string]any{"entity": ent}}, nil
	}
	tr := New(f, Options{})
	ent = mobileJSON("MobileApplicationEntity", 4, true, 1)
	show, err := tr.ShowMobileApplication(context.Background(), Caller{AccountID: 1}, 4)
	if err != nil || show.Application.ID != 4 || show.Application.Summary == nil || f.calls[0].vars["guid"] != AppGUID(1, DomainMobile, 4) {
		t.Fatalf("show: %+v, %v", show, err)
	}
	other := mobileJSON("MobileApplicationEntity", 4, true, 1)
	other["accountId"] = 2
	var ve *restv2.Error
	for _, e := range []any{nil, other, map[string]any{"__typename": "MobileApplicationEntity", "guid": "g"}} {
		ent = e
		if _, err := tr.ShowMobileApplication(context.Background(), Caller{AccountID: 1}, 4); !errors.As(err, &ve) || ve.Status != 404 {
			t.Errorf("entity %v: %v, want 404", e, err)
		}
	}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, err := tr.ShowMobileApplication(context.Background(), Caller{AccountID: 1}, 4); err == nil || errors.As(err, &ve) {
		t.Errorf("failed read: %v", err)
	}
}

// A mobile application is created once with the given name; the answer carries the id
// of its guid and the agent's token; a blank name sends nothing; a null answer may hide
// a created application (502).
func TestCreateMobileApplication(t *testing.T) {
	var answer any = map[string]any{"agentApplicationCreateMobile": map[string]any{"guid": AppGUID(1, DomainMobile, 77), "name": "new", "applicationToken": "tok"}}
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "MobileCreate" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		if err, ok := answer.(error); ok {
			return nil, err
		}
		return answer, nil
	}
	tr := New(f, Options{})
	c := Caller{AccountID: 1}
	show, err := tr.CreateMobileApplication(context.Background(), c, "new")
	if err != nil || show.Application.ID != 77 || show.Application.Name != "new" || show.Application.ApplicationToken == nil ||
		*show.Application.ApplicationToken != "tok" || show.Application.HealthStatus != "gray" {
		t.Fatalf("create: %+v, %v", show, err)
	}
	if f.calls[0].vars["name"] != "new" || f.calls[0].vars["accountId"] != 1.0 {
		t.Errorf("sent %v", f.calls[0].vars)
	}
	var ve *restv2.Error
	if _, err := tr.CreateMobileApplication(context.Background(), c, " "); !errors.As(err, &ve) || ve.Status != 422 || f.count("") != 1 {
		t.Errorf("blank name: %v, %d sent", err, f.count(""))
	}
	for _, tt := range []struct {
		answer any
		status int
	}{
		{map[string]any{"agentApplicationCreateMobile": nil}, 502},
		{&ng.Error{Kind: ng.KindTimeout}, 504},
		{&ng.Error{Kind: ng.KindInvalid}, 422},
	} {
		answer = tt.answer
		if _, err := tr.CreateMobileApplication(context.Background(), c, "new"); !errors.As(err, &ve) || ve.Status != tt.status {
			t.Errorf("%v: %v, want %d", tt.answer, err, tt.status)
		}
	}
	answer = map[string]any{"agentApplicationCreateMobile": map[string]any{"guid": "not a guid", "name": "new", "applicationToken": "tok"}}
	if _, err := tr.CreateMobileApplication(context.Background(), c, "new"); err == nil {
		t.Error("an unreadable guid answered")
	}
}
