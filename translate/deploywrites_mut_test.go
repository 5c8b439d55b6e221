package translate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Tests of deployment writes whose outcome is unknown (deployments.go CreateDeployment,
// findDeployment, writeError) written for mutants no own test reached (issue 22): a
// deployment is never sent twice while it may have been recorded. After a timeout, an
// identical retry looks for it first: found, it is answered; not found within
// DeploymentSettle, the retry waits (503, nothing sent); after that, it is sent again.

// Mutants deployments.go:130-137 (prevSent, d != nil, wait > 0) and findDeployment
// (:154-168).
func TestDeploymentRetryAfterUnknownMut(t *testing.T) {
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
			in := DeploymentInput{Revision: "r1", User: &user}
			var ve *v2.Error
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

// Mutants of writeError (deployments.go:290-320) and outcomeUnknown: which failures may
// hide a recorded deployment, which are refusals, which name a missing application.
func TestDeploymentWriteErrorMut(t *testing.T) {
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
			var ve *v2.Error
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

// The legacy mutation (deployments.go:227-240): changeTrackingCreateDeployment with the
// caller's timestamp; its deploymentId is the surrogate id's key; a null answer is an
// unknown outcome, not a success.
func TestDeploymentLegacyCreateMut(t *testing.T) {
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
		show, err := depTranslator(d, &now).CreateDeployment(context.Background(), Caller{AccountID: 1}, 7, DeploymentInput{Revision: "r"}, now, true)
		if null {
			var ve *v2.Error
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
