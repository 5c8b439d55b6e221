package sim_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// aiIssuesAckIssue marks the issue acknowledged and aiIssuesResolveIssue closes it;
// an unknown issue is the response's error, another account's a GraphQL error.
func TestIssueActions(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	s, err := sim.NewDemo(loadDemo(t), sim.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	h := &harness{sim: s, url: ts.URL + sim.Path}
	type issue struct {
		IssueID        string `json:"issueId"`
		State          string `json:"state"`
		AcknowledgedAt *int64 `json:"acknowledgedAt"`
		ClosedAt       *int64 `json:"closedAt"`
	}
	read := func() []issue {
		var out struct {
			Actor struct {
				Account struct {
					AiIssues struct {
						Issues struct{ Issues []issue }
					}
				}
			}
		}
		h.mustQuery(t, keyOne, `query($tw: TimeWindowInput!) { actor { account(id: 1000001) { aiIssues {
			issues(filter: {states: [ACTIVATED]}, timeWindow: $tw) { issues { issueId state acknowledgedAt closedAt } } } } } }`,
			map[string]any{"tw": map[string]any{"startTime": now.Add(-30 * 24 * time.Hour).UnixMilli(), "endTime": now.UnixMilli()}}, &out)
		return out.Actor.Account.AiIssues.Issues.Issues
	}
	open := read()
	if len(open) == 0 || open[0].AcknowledgedAt != nil {
		t.Fatalf("open issues %+v", open)
	}
	id := open[0].IssueID
	act := func(mutation, issueID string) (string, string) {
		var out map[string]struct {
			Error  *string
			Result *struct{ IssueID, Action string }
		}
		h.mustQuery(t, keyOne, `mutation($id: ID!) { a: `+mutation+`(accountId: 1000001, issueId: $id) { error result { issueId action } } }`,
			map[string]any{"id": issueID}, &out)
		r := out["a"]
		if r.Error != nil {
			return "", *r.Error
		}
		return r.Result.Action, ""
	}
	if action, e := act("aiIssuesAckIssue", id); action != "ACK" || e != "" {
		t.Fatalf("ack = %q %q", action, e)
	}
	if got := read(); got[0].IssueID != id || got[0].AcknowledgedAt == nil || *got[0].AcknowledgedAt != now.UnixMilli() {
		t.Fatalf("after ack %+v", got[0])
	}
	if action, e := act("aiIssuesResolveIssue", id); action != "RESOLVE" || e != "" {
		t.Fatalf("resolve = %q %q", action, e)
	}
	for _, is := range read() {
		if is.IssueID == id {
			t.Fatalf("resolved issue still open: %+v", is)
		}
	}
	if _, e := act("aiIssuesResolveIssue", "issue-nope"); e == "" {
		t.Fatal("unknown issue resolved")
	}
	errs := h.query(t, keyTwo, `mutation { aiIssuesAckIssue(accountId: 1000001, issueId: "x") { error } }`, nil, nil)
	if len(errs) == 0 {
		t.Fatal("another account's issue acknowledged")
	}
}
