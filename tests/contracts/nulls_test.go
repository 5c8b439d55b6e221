package contracts

import (
	"errors"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// TestNullableStitchedFields feeds answers in which a nullable field of the real
// schema is null with no error (Account.alerts: AlertsAccountStitchedFields and
// Account.aiIssues are nullable in NerdGraph's schema).
// The answers are constructed (schema-valid, not recorded). Each must translate to an
// empty list or REST's 404, never a nil dereference (a 500).
func TestNullableStitchedFields(t *testing.T) {
	tests := []struct {
		name    string
		op      string
		file    string
		call    func(*translate.Translator, contextCaller) (int, error)
		want404 bool
	}{
		{name: "nrqlConditionsSearch", op: "NrqlConditions", file: "constructed/alerts-null.json",
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				l, _, err := tr.ListNrqlConditions(cc.ctx, cc.c, 1001, 1)
				if err != nil {
					return 0, err
				}
				return len(l.Conditions), nil
			}},
		{name: "asNrqlConditionsSearch", op: "AsNrqlConditions", file: "constructed/alerts-null.json",
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				l, _, err := tr.ListConditions(cc.ctx, cc.c, 1001, 1)
				if err != nil {
					return 0, err
				}
				return len(l.Conditions), nil
			}},
		{name: "nrqlCondition", op: "NrqlCondition", file: "constructed/alerts-null.json", want404: true,
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				_, err := tr.DeleteNrqlCondition(cc.ctx, cc.c, 6101)
				return 0, err
			}},
		{name: "policiesSearch", op: "Policies", file: "constructed/alerts-null.json",
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				l, _, err := tr.ListPolicies(cc.ctx, cc.c, "", 1)
				if err != nil {
					return 0, err
				}
				return len(l.Policies), nil
			}},
		{name: "policy", op: "Policy", file: "constructed/alerts-null.json", want404: true,
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				_, err := tr.DeletePolicy(cc.ctx, cc.c, 1001)
				return 0, err
			}},
		{name: "aiIssues", op: "Incidents", file: "constructed/aiIssues-alerts-null.json",
			call: func(tr *translate.Translator, cc contextCaller) (int, error) {
				l, _, err := tr.Incidents(cc.ctx, cc.c, translate.IncidentsRequest{})
				if err != nil {
					return 0, err
				}
				return len(l.Incidents), nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _, ctx, c := setup(t, map[string]recording{tt.op: {file: tt.file}})
			n, err := tt.call(tr, contextCaller{ctx, c})
			if tt.want404 {
				var ve *restv2.Error
				if !errors.As(err, &ve) || ve.Status != 404 {
					t.Fatalf("err %v, want REST's 404", err)
				}
				return
			}
			if err != nil || n != 0 {
				t.Fatalf("%d items, %v; want an empty list", n, err)
			}
		})
	}
}

// TestNullDeploymentEventIsOutcomeUnknown: changeTrackingCreateEvent (a nullable
// ChangeTrackingCreateEventResponse in the real schema) answered null with no error.
// The mutation may have been applied, so the caller gets the 502 that says so and how
// to check, never a nil dereference (a 500 that invites a blind retry). Constructed,
// schema-valid answer (not recorded).
func TestNullDeploymentEventIsOutcomeUnknown(t *testing.T) {
	tr, _, ctx, c := setup(t, map[string]recording{"DeploymentCreateEvent": {file: "constructed/changeTrackingCreateEvent-null.json"}})
	_, err := tr.CreateDeployment(ctx, c, 123, restv2.DeploymentInput{Revision: "r1"}, clock, false)
	var ve *restv2.Error
	if !errors.As(err, &ve) || ve.Status != 502 || !strings.Contains(ve.Title, "may have been recorded") {
		t.Fatalf("err %v, want the 502 of a write whose outcome is unknown", err)
	}
}
