package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

// Every JSON body is read as REST's Rails parser read it: booleans as "true"/"false"/
// "1"/"0", numbers as numeric strings, strings as numbers.
func TestBodiesAcceptWhatRailsCast(t *testing.T) {
	rq := func(body string) *request {
		r := httptest.NewRequest(http.MethodPost, "/v2/x.json", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return &request{http: r, body: []byte(body)}
	}
	t.Run("nrql condition", func(t *testing.T) {
		in, err := parseNrqlCondition([]byte(`{"nrql_condition":{"name":"n","enabled":"true","expiration":{"open_violation_on_expiration":"0","close_violations_on_expiration":1}}}`), "update")
		if err != nil {
			t.Fatal(err)
		}
		if in.Enabled == nil || !*in.Enabled || !(*in.Expiration.OpenViolationOnExpiration == false) || !*in.Expiration.CloseViolationsOnExpiration {
			t.Fatalf("got %+v %+v", in, in.Expiration)
		}
	})
	t.Run("application", func(t *testing.T) {
		in, err := parseApplicationUpdate(rq(`{"application":{"name":"a","settings":{"app_apdex_threshold":"0.5","end_user_apdex_threshold":"7","enable_real_user_monitoring":"false","use_server_side_config":"f"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if *in.AppApdexThreshold != 0.5 || *in.EndUserApdexThreshold != 7 || *in.EnableRealUserMonitoring {
			t.Fatalf("got %+v", in)
		}
	})
	t.Run("policy", func(t *testing.T) {
		in, err := parsePolicy(rq(`{"policy":{"name":5,"incident_preference":"PER_POLICY"}}`))
		if err != nil || *in.Name != "5" {
			t.Fatalf("got %+v %v", in, err)
		}
	})
	t.Run("deployment", func(t *testing.T) {
		in, err := parseDeployment(rq(`{"deployment":{"revision":42,"user":7}}`))
		if err != nil || in.Revision != "42" || *in.User != "7" {
			t.Fatalf("got %+v %v", in, err)
		}
	})
	t.Run("browser application", func(t *testing.T) {
		name, err := parseBrowserApplication(rq(`{"browser_application":{"name":12}}`))
		if err != nil || name != "12" {
			t.Fatalf("got %q %v", name, err)
		}
	})
	t.Run("mobile application", func(t *testing.T) {
		name, err := parseMobileApplication(rq(`{"mobile_application":{"name":12}}`))
		if err != nil || name != "12" {
			t.Fatalf("got %q %v", name, err)
		}
	})
}

// A value that still cannot be read is a 422 naming the field and the form it takes.
func TestBodiesRefuseNamingTheField(t *testing.T) {
	_, err := parseNrqlCondition([]byte(`{"nrql_condition":{"enabled":"maybe"}}`), "update")
	var ve *restv2.Error
	if !errors.As(err, &ve) || ve.Status != 422 || len(ve.Messages) == 0 ||
		!strings.Contains(ve.Messages[0], "nrql_condition.enabled") || !strings.Contains(ve.Messages[0], "true or false") {
		t.Fatalf("got %v", err)
	}
}
