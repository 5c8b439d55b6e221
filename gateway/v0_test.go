package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// v0Client answers DeploymentCreateEvent with a change tracking event of application
// 77, or with err when set.
func v0Client(err error) *answeringClient {
	return &answeringClient{answer: func(op string, vars map[string]any) (any, error) {
		if op != "DeploymentCreateEvent" {
			return nil, fmt.Errorf("answeringClient: unexpected %s", op)
		}
		if err != nil {
			return nil, err
		}
		ev, _ := vars["event"].(map[string]any)
		return map[string]any{"changeTrackingCreateEvent": map[string]any{"changeTrackingEvent": map[string]any{
			"__typename": "ChangeTrackingDeploymentEvent", "changeTrackingId": "ct-1", "timestamp": ev["timestamp"],
			"category": "Deployment", "type": "Basic",
			"entity": map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": "APP-77", "applicationId": 77},
		}}}, nil
	}}
}

// postV0 posts form to /deployments.xml through a gateway whose NerdGraph is c.
func postV0(t *testing.T, c *answeringClient, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/deployments.xml", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return serveAnswering(t, Config{}, c, r)
}

// searchOf is the entity search of the deployment c was asked to record.
func searchOf(c *answeringClient) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, op := range c.ops {
		if op == "DeploymentCreateEvent" {
			ev, _ := c.vars[i]["event"].(map[string]any)
			es, _ := ev["entitySearch"].(map[string]any)
			q, _ := es["query"].(string)
			return q
		}
	}
	return ""
}

// TestV0DeploymentFields: application_id names the application by id when it is a
// positive integer, else by name (the Ruby agent sends the name there); an optional field
// sent empty is nil="true" like one not sent.
func TestV0DeploymentFields(t *testing.T) {
	byID := func(id int64) string { return "id = '" + translate.AppGUID(1000001, translate.DomainAPM, id) + "'" }
	byName := func(n string) string {
		return "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001 AND name = '" + n + "'"
	}
	tests := []struct {
		name       string
		form       url.Values
		wantSearch string
		wantLines  []string
	}{
		{"application id", url.Values{"deployment[application_id]": {"5"}, "deployment[revision]": {"r1"}}, byID(5),
			[]string{`<agent-id type="integer">77</agent-id>`, `<revision>r1</revision>`}},
		{"name in application_id", url.Values{"deployment[application_id]": {"shop"}}, byName("shop"), nil},
		{"0 in application_id is a name", url.Values{"deployment[application_id]": {"0"}}, byName("0"), nil},
		{"-3 in application_id is a name", url.Values{"deployment[application_id]": {"-3"}}, byName("-3"), nil},
		{"fields sent, empty and absent", url.Values{"deployment[app_name]": {"shop"}, "deployment[description]": {"a <b>"},
			"deployment[user]": {""}, "deployment[revision]": {"r2"}}, byName("shop"),
			[]string{`<description>a &lt;b&gt;</description>`, `<user nil="true"></user>`, `<changelog nil="true"></changelog>`,
				`<account-id type="integer">1000001</account-id>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := v0Client(nil)
			rec := postV0(t, c, tt.form)
			if rec.Code != http.StatusCreated || rec.Header().Get("Content-Type") != v0ContentType {
				t.Fatalf("%d %q %s, want 201", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
			search := searchOf(c)
			if search != tt.wantSearch {
				t.Errorf("entity search %q, want %q", search, tt.wantSearch)
			}
			for _, l := range tt.wantLines {
				if !strings.Contains(rec.Body.String(), "\n  "+l+"\n") {
					t.Errorf("answer lacks %s:\n%s", l, rec.Body)
				}
			}
		})
	}
}

// TestV0DeploymentNotFound: an application NerdGraph does not know is v0's 404 naming
// it; another failure keeps its own status.
func TestV0DeploymentNotFound(t *testing.T) {
	notFound := &ng.Error{Kind: ng.KindInvalid, Status: 200, Errors: []ng.GraphQLError{{Message: "entity search matched 0 entities"}}}
	tests := []struct {
		name       string
		err        error
		form       url.Values
		wantStatus int
		wantError  string // the <error> text; "" not checked
	}{
		{"unknown name", notFound, url.Values{"deployment[app_name]": {"No Such App"}}, 404,
			"Deployment not recorded: Application No Such App does not exist."},
		{"unknown id", notFound, url.Values{"deployment[application_id]": {"5"}}, 404,
			"Deployment not recorded: Application 5 does not exist."},
		{"NerdGraph failing", &ng.Error{Kind: ng.KindServer, Status: 500, Err: errors.New("boom")},
			url.Values{"deployment[app_name]": {"shop"}}, 502, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := postV0(t, v0Client(tt.err), tt.form)
			if rec.Code != tt.wantStatus {
				t.Fatalf("%d %s, want %d", rec.Code, rec.Body, tt.wantStatus)
			}
			if tt.wantError != "" && !strings.Contains(rec.Body.String(), "<error>"+tt.wantError+"</error>") {
				t.Errorf("answer %s, want <error>%s</error>", rec.Body, tt.wantError)
			}
		})
	}
}

// TestWriteV0Error: v0's error answers. Retry-After goes with 429 and 503 only, and
// never replaces one already set; the cause of a 5xx is kept for the access log (the first
// one), a 4xx's is not; every title but a 401's says the deployment was not recorded.
func TestWriteV0Error(t *testing.T) {
	g := New(Config{}, nil, nil)
	tests := []struct {
		name       string
		err        error
		preset     string
		wantStatus int
		wantRetry  string
		wantCause  bool
		wantError  string // the <error> text; "" not checked
	}{
		{"429", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 2600 * time.Millisecond}, "", 429, "3", false, ""},
		{"503", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "", 503, "5", true, ""},
		{"503 keeps a set Retry-After", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "9", 503, "9", true, ""},
		{"502", &ng.Error{Kind: ng.KindServer, RetryAfter: 5 * time.Second}, "", 502, "", true, ""},
		{"500", errors.New("bug"), "", 500, "", true, ""},
		{"422", &restv2.Error{Status: 422, Title: "Invalid revision"}, "", 422, "", false, "Deployment not recorded: Invalid revision"},
		{"404 already prefixed", &restv2.Error{Status: 404, Title: "Deployment not recorded: Application x does not exist."}, "", 404, "", false,
			"Deployment not recorded: Application x does not exist."},
		{"401", &restv2.Error{Status: 401, Title: "No API key specified"}, "", 401, "", false, "No API key specified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &reqState{}
			r := httptest.NewRequest(http.MethodPost, "/deployments.xml", nil)
			r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
			rec := httptest.NewRecorder()
			if tt.preset != "" {
				rec.Header().Set("Retry-After", tt.preset)
			}
			g.writeV0Error(rec, r, tt.err)
			if rec.Code != tt.wantStatus || rec.Header().Get("Content-Type") != v0ContentType {
				t.Fatalf("%d %q, want %d %q", rec.Code, rec.Header().Get("Content-Type"), tt.wantStatus, v0ContentType)
			}
			if got := rec.Header().Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("Retry-After %q, want %q", got, tt.wantRetry)
			}
			if (st.internal != nil) != tt.wantCause {
				t.Errorf("logged cause %v, want one: %v", st.internal, tt.wantCause)
			}
			if tt.wantError != "" {
				want := `<?xml version="1.0" encoding="UTF-8"?>` + "\n<errors>\n  <error>" + tt.wantError + "</error>\n</errors>\n"
				if rec.Body.String() != want {
					t.Errorf("body %q, want %q", rec.Body, want)
				}
			}
		})
	}
	// The first cause is kept; without request state nothing is noted.
	st := &reqState{internal: errors.New("first")}
	r := httptest.NewRequest(http.MethodPost, "/deployments.xml", nil)
	g.writeV0Error(httptest.NewRecorder(), r.WithContext(context.WithValue(r.Context(), stateKey{}, st)), errors.New("second"))
	if st.internal.Error() != "first" {
		t.Errorf("cause %v replaced the first", st.internal)
	}
	rec := httptest.NewRecorder()
	g.writeV0Error(rec, r, errors.New("no state"))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("without request state: %d, want 500", rec.Code)
	}
}
