package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// Deployment writes whose outcome is unknown: a deployment is never sent twice while it
// may have been recorded. After a timeout, an identical retry looks for it first: found,
// it is answered; not found within DeploymentSettle, the retry waits (503, nothing sent);
// after that, it is sent again.

// CreateDeployment's retry after an unknown outcome, and findDeployment.
func TestDeploymentRetryAfterUnknown(t *testing.T) {
	for _, found := range []bool{false, true} {
		t.Run(fmt.Sprintf("found %v", found), func(t *testing.T) {
			var sentMs float64
			inNRQL := false
			d := newDepFake(func(int, int64, int64) []map[string]any {
				if inNRQL {
					r := depRow("ct-x", int64(sentMs))
					r["version"], r["user"] = "r1", "me"
					return []map[string]any{r, depRow("other", int64(sentMs))}
				}
				return nil
			})
			create := d.answer
			timeouts := 1
			d.answer = func(op string, vars map[string]any) (any, error) {
				if op == "DeploymentCreateEvent" {
					sentMs = vars["event"].(map[string]any)["timestamp"].(float64)
					if timeouts > 0 {
						timeouts--
						d.created++
						return nil, &ng.Error{Kind: ng.KindTimeout}
					}
				}
				return create(op, vars)
			}
			now := depNow
			tr := depTranslator(d, &now)
			c := Caller{KeyHash: "k", AccountID: 1}
			user := "me"
			in := restv2.DeploymentInput{Revision: "r1", User: &user}
			var ve *restv2.Error
			if _, err := tr.CreateDeployment(context.Background(), c, 7, in, now, false); !errors.As(err, &ve) || ve.Status != 504 {
				t.Fatalf("timeout: %v", err)
			}
			inNRQL = found
			now = depNow.Add(DeploymentSettle - time.Second)
			show, err := tr.CreateDeployment(context.Background(), c, 7, in, now, false)
			if found {
				if err != nil || show.Deployment.ID != SurrogateID("deployment", 1, "ct-x") || d.created != 1 {
					t.Fatalf("found: %+v, %v, %d sent", show, err, d.created)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "not found yet") || d.created != 1 {
				t.Fatalf("within the settle time: %v, %d sent", err, d.created)
			}
			now = depNow.Add(DeploymentSettle)
			if _, err := tr.CreateDeployment(context.Background(), c, 7, in, now, false); err != nil || d.created != 2 {
				t.Fatalf("after the settle time: %v, %d sent", err, d.created)
			}
		})
	}
}

// writeError and outcomeUnknown: which failures may hide a recorded deployment, which
// are refusals, which name a missing application.
func TestDeploymentWriteError(t *testing.T) {
	dial := &net.OpError{Op: "dial", Err: errors.New("refused")}
	read := &net.OpError{Op: "read", Err: errors.New("reset")}
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantTitle  string
	}{
		{"not a NerdGraph error", errors.New("x"), 0, "x"},
		{"refused at dial", &ng.Error{Kind: ng.KindTransport, Err: dial}, 502, "Deployment not recorded"},
		{"reset after sending", &ng.Error{Kind: ng.KindTransport, Err: read}, 502, "may have been recorded"},
		{"timeout", &ng.Error{Kind: ng.KindTimeout}, 504, "may have been recorded"},
		{"server", &ng.Error{Kind: ng.KindServer, Status: 500}, 502, "may have been recorded"},
		{"no match", &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "x"}, {Message: "query matched 0 entities"}}}, 404, "No Application found"},
		{"not found", &ng.Error{Kind: ng.KindNotFound, Errors: []ng.GraphQLError{{Message: "entity not found"}}}, 404, "No Application found"},
		{"invalid", &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "bad version"}}}, 422, "Deployment not recorded: bad version"},
		{"invalid without message", &ng.Error{Kind: ng.KindInvalid}, 422, "Deployment not recorded: rejected by New Relic"},
		{"rate limited", &ng.Error{Kind: ng.KindRateLimited}, 0, "nerdgraph"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeError(tt.err, 7)
			var ve *restv2.Error
			status := 0
			if errors.As(got, &ve) {
				status = ve.Status
			}
			if status != tt.wantStatus || !strings.Contains(got.Error()+fmt.Sprint(ve), tt.wantTitle) {
				t.Fatalf("%v: status %d %v", got, status, ve)
			}
		})
	}
	if !strings.Contains(deploymentCheck(7), "/v2/applications/7/deployments.json") || !strings.Contains(deploymentCheck(0), "GET .../deployments.json") {
		t.Errorf("checks %q %q", deploymentCheck(7), deploymentCheck(0))
	}
}

// The legacy mutation: changeTrackingCreateDeployment with the caller's timestamp; its
// deploymentId is the surrogate id's key; a null answer is an unknown outcome, not a
// success.
func TestDeploymentLegacyCreate(t *testing.T) {
	for _, null := range []bool{false, true} {
		d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
		create := d.answer
		d.answer = func(op string, vars map[string]any) (any, error) {
			if op == "DeploymentCreate" {
				d.created++
				if null {
					return map[string]any{"changeTrackingCreateDeployment": nil}, nil
				}
				dep := vars["deployment"].(map[string]any)
				return map[string]any{"changeTrackingCreateDeployment": map[string]any{"deploymentId": "dep-1", "timestamp": dep["timestamp"],
					"version": dep["version"], "entityGuid": dep["entityGuid"]}}, nil
			}
			return create(op, vars)
		}
		now := depNow
		show, err := depTranslator(d, &now).CreateDeployment(context.Background(), Caller{AccountID: 1}, 7, restv2.DeploymentInput{Revision: "r"}, now, true)
		if null {
			var ve *restv2.Error
			if !errors.As(err, &ve) || ve.Status != 502 || d.created != 1 {
				t.Errorf("null answer: %v", err)
			}
			continue
		}
		if err != nil || show.Deployment.ID != SurrogateID("deployment", 1, "dep-1") || !show.Deployment.Timestamp.Equal(now) || d.count("DeploymentCreateEvent") != 0 {
			t.Errorf("legacy: %+v, %v", show, err)
		}
	}
}

// The legacy v0 write names its application, so after a timeout the identical retry
// must find the application by name (an exact, case-sensitive name; entities without an
// application id skipped; two matches are none) to look the deployment up, and must not
// send it again while it may exist.
func TestDeploymentNamedRetry(t *testing.T) {
	app := func(name string, id any) map[string]any {
		return map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": "g", "accountId": 1, "name": name, "reporting": true, "applicationId": id}
	}
	for _, tt := range []struct {
		name     string
		apps     []map[string]any
		listErr  error
		found    bool // the retry answers the recorded deployment
		pending  bool // the retry waits (503), nothing sent
		wantErr  bool
		wantSent int
	}{
		{"one exact match", []map[string]any{app("Shop", 9), app("shop", nil), app("shop", 7), app("shop-2", 8)}, nil, true, false, false, 1},
		{"two exact matches", []map[string]any{app("shop", 7), app("shop", 8)}, nil, false, true, false, 1},
		{"no exact match", []map[string]any{app("Shop", 7)}, nil, false, true, false, 1},
		{"lookup fails", nil, &ng.Error{Kind: ng.KindServer, Status: 500}, false, false, true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var sentMs float64
			d := newDepFake(func(int, int64, int64) []map[string]any {
				r := depRow("ct-named", int64(sentMs))
				r["version"] = "r1"
				return []map[string]any{r}
			})
			create := d.answer
			d.answer = func(op string, vars map[string]any) (any, error) {
				switch op {
				case "DeploymentCreateEvent":
					if d.created == 0 {
						sentMs = vars["event"].(map[string]any)["timestamp"].(float64)
						d.created++
						return nil, &ng.Error{Kind: ng.KindTimeout}
					}
				case "AppList":
					if tt.listErr != nil {
						return nil, tt.listErr
					}
					return map[string]any{"actor": map[string]any{
						"entitySearch": map[string]any{"count": len(tt.apps), "results": map[string]any{"nextCursor": nil, "entities": tt.apps}},
						"browsers":     map[string]any{"results": map[string]any{"entities": []any{}}},
						"account":      map[string]any{"inventory": map[string]any{"results": []any{}}}}}, nil
				}
				return create(op, vars)
			}
			now := depNow
			tr := depTranslator(d, &now)
			c := Caller{KeyHash: "k", AccountID: 1}
			in := restv2.DeploymentInput{Revision: "r1", AppName: "shop"}
			var ve *restv2.Error
			if _, err := tr.CreateDeployment(context.Background(), c, 0, in, now, false); !errors.As(err, &ve) || ve.Status != 504 {
				t.Fatalf("first: %v", err)
			}
			now = depNow.Add(time.Minute)
			show, err := tr.CreateDeployment(context.Background(), c, 0, in, now, false)
			switch {
			case tt.found:
				if err != nil || show.Deployment.ID != SurrogateID("deployment", 1, "ct-named") {
					t.Errorf("retry: %+v, %v; want the recorded deployment", show, err)
				}
				if q := fmt.Sprint(d.calls[len(d.calls)-1].vars["guid"]); q != AppGUID(1, DomainAPM, 7) {
					t.Errorf("looked up in %s, want application 7's", q)
				}
			case tt.pending:
				if !errors.As(err, &ve) || ve.Status != 503 {
					t.Errorf("retry: %v, want 503 (not found yet)", err)
				}
			case tt.wantErr:
				if err == nil {
					t.Error("retry answered although the lookup failed")
				}
			}
			if d.created != tt.wantSent {
				t.Errorf("%d sent, want %d", d.created, tt.wantSent)
			}
		})
	}
}

// An Idempotency-Key replays its recorded answer without a second write; the same key
// with another body (another revision, or another application) is refused with 422 and
// sends nothing; without a key, the same body for two applications is two writes.
func TestDeploymentIdempotencyKeyScope(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	post := func(appID int64, rev, key string) (*restv2.DeploymentShow, error) {
		return tr.CreateDeployment(context.Background(), c, appID, restv2.DeploymentInput{Revision: rev, IdempotencyKey: key}, now, false)
	}
	first, err := post(7, "r1", "key-1")
	if err != nil || d.created != 1 {
		t.Fatalf("first: %v, %d sent", err, d.created)
	}
	again, err := post(7, "r1", "key-1")
	if err != nil || d.created != 1 || again.Deployment.ID != first.Deployment.ID {
		t.Fatalf("replay: %+v, %v, %d sent (want the recorded answer, 1 sent)", again, err, d.created)
	}
	var ve *restv2.Error
	for _, tt := range []struct {
		app int64
		rev string
	}{{7, "r2"}, {8, "r1"}} {
		if _, err := post(tt.app, tt.rev, "key-1"); !errors.As(err, &ve) || ve.Status != 422 || !strings.Contains(ve.Title, "Idempotency-Key") {
			t.Errorf("key-1 reused for app %d revision %s: %v, want 422", tt.app, tt.rev, err)
		}
	}
	if d.created != 1 {
		t.Errorf("%d sent after the refused reuses, want 1", d.created)
	}
	// Without a key: two applications, same body, are two writes; neither is refused.
	for _, app := range []int64{7, 8} {
		if _, err := post(app, "r9", ""); err != nil {
			t.Fatalf("app %d without a key: %v", app, err)
		}
	}
	if d.created != 3 {
		t.Errorf("%d sent, want 3", d.created)
	}
}

// A legacy v0 write names the application (`name = '...'`), an id write names its guid;
// the created event's entity gives a named write its application id, which the answer
// carries and under which the replica remembers the deployment (listed before NRQL has
// it).
func TestDeploymentCreatedEntity(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	show, err := tr.CreateDeployment(context.Background(), c, 0, restv2.DeploymentInput{Revision: "named", AppName: "shop"}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	if show.Deployment.ApplicationID != 7 {
		t.Errorf("named write answered application %d, want 7 (the event's entity)", show.Deployment.ApplicationID)
	}
	search := func() string {
		ev, _ := json.Marshal(d.calls[len(d.calls)-1].vars["event"])
		return string(ev)
	}
	if s := search(); !strings.Contains(s, `name = 'shop'`) || strings.Contains(s, "id = ") {
		t.Errorf("named write's event %s, want the name search", s)
	}
	l, err := tr.ListDeployments(context.Background(), c, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Doc.Deployments) != 1 || l.Doc.Deployments[0].Revision != "named" {
		t.Errorf("list of 7 after the named write: %+v, want it remembered", l.Doc.Deployments)
	}
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "by id"}, now, false); err != nil {
		t.Fatal(err)
	}
	want := `id = '` + AppGUID(1, DomainAPM, 7) + `'`
	if s := search(); !strings.Contains(s, want) || strings.Contains(s, "name = ") {
		t.Errorf("id write's event %s, want %s", s, want)
	}
}

// A created event NerdGraph answers as null (no error) leaves the write's outcome
// unknown: REST's 502 naming how to check, never a deployment made up from nothing.
func TestDeploymentNullEventIsUnknown(t *testing.T) {
	for _, answer := range []string{
		`{"changeTrackingCreateEvent":null}`,
		`{"changeTrackingCreateEvent":{"changeTrackingEvent":null,"messages":[]}}`,
	} {
		d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
		next := d.answer
		d.answer = func(op string, vars map[string]any) (any, error) {
			if op == "DeploymentCreateEvent" {
				return json.RawMessage(answer), nil
			}
			return next(op, vars)
		}
		now := depNow
		tr := depTranslator(d, &now)
		_, err := tr.CreateDeployment(context.Background(), Caller{KeyHash: "k", AccountID: 1}, 7, restv2.DeploymentInput{Revision: "r"}, now, false)
		var ve *restv2.Error
		if !errors.As(err, &ve) || ve.Status != 502 || !strings.Contains(ve.Error(), "deployments.json") {
			t.Errorf("answer %s: err = %v, want the 502 of an unknown outcome", answer, err)
		}
	}
}
