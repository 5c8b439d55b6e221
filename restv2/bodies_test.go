package restv2

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestApplicationUpdateSettings: the settings' apdex thresholds reach the update input;
// a threshold of 0 or less is refused with 422.
func TestApplicationUpdateSettings(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		wantApdex  float64 // 0: no app_apdex_threshold in the input
		wantRUM    bool
		wantStatus int // 0: no error
	}{
		{"json settings", `{"application":{"settings":{"app_apdex_threshold":0.5,"enable_real_user_monitoring":true}}}`, 0.5, true, 0},
		{"xml settings", `<application><settings><app_apdex_threshold>0.7</app_apdex_threshold></settings></application>`, 0.7, false, 0},
		{"no settings", `{"application":{"name":"x"}}`, 0, false, 0},
		{"app apdex 0", `{"application":{"settings":{"app_apdex_threshold":0}}}`, 0, false, 422},
		{"end user apdex 0", `{"application":{"settings":{"end_user_apdex_threshold":0}}}`, 0, false, 422},
		{"app apdex negative", `{"application":{"settings":{"app_apdex_threshold":-1}}}`, 0, false, 422},
	}
	for _, tt := range tests {
		in, err := DecodeApplicationUpdate([]byte(tt.body))
		if tt.wantStatus != 0 {
			var e *Error
			if !errors.As(err, &e) || e.Status != tt.wantStatus {
				t.Errorf("%s: error %v, want status %d", tt.name, err, tt.wantStatus)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		got := 0.0
		if in.AppApdexThreshold != nil {
			got = *in.AppApdexThreshold
		}
		if got != tt.wantApdex {
			t.Errorf("%s: app apdex %v, want %v", tt.name, got, tt.wantApdex)
		}
		if rum := in.EnableRealUserMonitoring != nil && *in.EnableRealUserMonitoring; rum != tt.wantRUM {
			t.Errorf("%s: real user monitoring %v, want %v", tt.name, rum, tt.wantRUM)
		}
	}
}

// TestBrowserApplicationBody: the name of a browser application create comes from a JSON
// body or from the form field browser_application[name]; an empty body is a 4xx, not a
// panic.
func TestBrowserApplicationBody(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		form     string
		wantName string
		wantErr  bool
	}{
		{"json", `{"browser_application":{"name":"shop"}}`, "", "shop", false},
		{"form", `browser_application%5Bname%5D=shop`, `browser_application%5Bname%5D=shop`, "shop", false},
		{"empty body", ``, "", "", true},
		{"json without the object", `{}`, "", "", true},
	}
	for _, tt := range tests {
		p, err := ParseParams("", tt.form)
		if err != nil {
			t.Fatal(err)
		}
		var name string
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = errors.New("panic")
					t.Errorf("%s: panicked: %v", tt.name, r)
				}
			}()
			name, err = DecodeBrowserApplication([]byte(tt.body), p)
		}()
		if (err != nil) != tt.wantErr || name != tt.wantName {
			t.Errorf("%s: (%q, %v), want (%q, error %v)", tt.name, name, err, tt.wantName, tt.wantErr)
		}
	}
}

// TestParseDeployment: form parameters (also for an empty body), XML (a body that
// starts with '<') and JSON, and the errors of each: a missing deployment object, a
// missing revision, an empty timestamp.
func TestParseDeployment(t *testing.T) {
	parse := func(ct, body, query string) (DeploymentInput, error) {
		form := ""
		if ct == "application/x-www-form-urlencoded" {
			form = body
		}
		p, err := ParseParams(query, form)
		if err != nil {
			t.Fatal(err)
		}
		return DecodeDeployment([]byte(body), ct, p)
	}
	str := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	in, err := parse("application/x-www-form-urlencoded", "deployment%5Brevision%5D=r1&deployment%5Buser%5D=u", "")
	if err != nil || in.Revision != "r1" || str(in.User) != "u" || in.Changelog != nil || in.Timestamp != nil {
		t.Errorf("form: %+v %v", in, err)
	}
	in, err = parse("", "", "deployment%5Brevision%5D=q1&deployment%5Bchangelog%5D=c")
	if err != nil || in.Revision != "q1" || str(in.Changelog) != "c" {
		t.Errorf("empty body, query parameters: %+v %v", in, err)
	}
	in, err = parse("application/xml", "<deployment><revision>x1</revision><description>d</description></deployment>", "")
	if err != nil || in.Revision != "x1" || str(in.Description) != "d" {
		t.Errorf("XML: %+v %v", in, err)
	}
	in, err = parse("application/json", `{"deployment":{"revision":"j1","timestamp":"2026-11-24T12:00:00Z"}}`, "")
	if err != nil || in.Revision != "j1" || in.Timestamp == nil || in.Timestamp.Year() != 2026 {
		t.Errorf("JSON: %+v %v", in, err)
	}
	in, err = parse("application/json", `{"deployment":{"user":"only","timestamp":""}}`, "")
	if err != nil || in.Revision != "" || str(in.User) != "only" || in.Timestamp != nil {
		t.Errorf("JSON without revision and an empty timestamp: %+v %v", in, err)
	}
	for _, tc := range []struct {
		ct, body string
		status   int
	}{
		{"application/xml", "<deployment><revision>", 400},
		{"application/xml", "<other/>", 400},
		{"application/json", `{"deployment":`, 400},
		{"application/json", `{"deployment":{"revision":[5]}}`, 422},
		{"application/json", `{"other":{}}`, 422},
		{"application/json", `{"deployment":{"timestamp":"yesterday"}}`, 0},
	} {
		_, err := parse(tc.ct, tc.body, "")
		var ve *Error
		if err == nil || (tc.status != 0 && (!errors.As(err, &ve) || ve.Status != tc.status)) {
			t.Errorf("%s %q: %v, want %d", tc.ct, tc.body, err, tc.status)
		}
	}
}

// A body that is not JSON is a 400; valid JSON with a value of the wrong kind is the
// resource's 422 naming the value.
func TestJSONBodyErrors(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		title      string
	}{
		{"single quotes", `{'policy':{'name':'x'}}`, 400, "The request body is not valid JSON"},
		{"truncated", `{"policy":{"name":"x"`, 400, "The request body is not valid JSON"},
		{"list for a name", `{"policy":{"name":[5]}}`, 422, "Validation or internal error occurred"},
		{"object for a preference", `{"policy":{"incident_preference":{}}}`, 422, "Validation or internal error occurred"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodePolicy([]byte(tt.body))
			e, ok := err.(*Error)
			if !ok || e.Status != tt.status || !strings.HasPrefix(e.Title, tt.title) {
				t.Fatalf("got %v, want %d %q", err, tt.status, tt.title)
			}
			if tt.status == 422 && (len(e.Messages) == 0 || !strings.Contains(e.Messages[0], "policy")) {
				t.Errorf("the message does not name the value: %v", e.Messages)
			}
		})
	}
}

// Every JSON body is read as REST's Rails parser read it: booleans as "true"/"false"/
// "1"/"0", numbers as numeric strings, strings as numbers.
func TestBodiesAcceptWhatRailsCast(t *testing.T) {
	t.Run("nrql condition", func(t *testing.T) {
		in, err := DecodeNrqlCondition([]byte(`{"nrql_condition":{"name":"n","enabled":"true","expiration":{"open_violation_on_expiration":"0","close_violations_on_expiration":1}}}`), "update")
		if err != nil {
			t.Fatal(err)
		}
		if in.Enabled == nil || !*in.Enabled || !(*in.Expiration.OpenViolationOnExpiration == false) || !*in.Expiration.CloseViolationsOnExpiration {
			t.Fatalf("got %+v %+v", in, in.Expiration)
		}
	})
	t.Run("application", func(t *testing.T) {
		in, err := DecodeApplicationUpdate([]byte(`{"application":{"name":"a","settings":{"app_apdex_threshold":"0.5","end_user_apdex_threshold":"7","enable_real_user_monitoring":"false","use_server_side_config":"f"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if *in.AppApdexThreshold != 0.5 || *in.EndUserApdexThreshold != 7 || *in.EnableRealUserMonitoring {
			t.Fatalf("got %+v", in)
		}
	})
	t.Run("policy", func(t *testing.T) {
		in, err := DecodePolicy([]byte(`{"policy":{"name":5,"incident_preference":"PER_POLICY"}}`))
		if err != nil || *in.Name != "5" {
			t.Fatalf("got %+v %v", in, err)
		}
	})
	t.Run("deployment", func(t *testing.T) {
		in, err := DecodeDeployment([]byte(`{"deployment":{"revision":42,"user":7}}`), "application/json", Params{})
		if err != nil || in.Revision != "42" || *in.User != "7" {
			t.Fatalf("got %+v %v", in, err)
		}
	})
	t.Run("browser application", func(t *testing.T) {
		name, err := DecodeBrowserApplication([]byte(`{"browser_application":{"name":12}}`), Params{})
		if err != nil || name != "12" {
			t.Fatalf("got %q %v", name, err)
		}
	})
	t.Run("mobile application", func(t *testing.T) {
		name, err := DecodeMobileApplication([]byte(`{"mobile_application":{"name":12}}`))
		if err != nil || name != "12" {
			t.Fatalf("got %q %v", name, err)
		}
	})
}

// A value that still cannot be read is a 422 naming the field and the form it takes.
func TestBodiesRefuseNamingTheField(t *testing.T) {
	_, err := DecodeNrqlCondition([]byte(`{"nrql_condition":{"enabled":"maybe"}}`), "update")
	var ve *Error
	if !errors.As(err, &ve) || ve.Status != 422 || len(ve.Messages) == 0 ||
		!strings.Contains(ve.Messages[0], "nrql_condition.enabled") || !strings.Contains(ve.Messages[0], "true or false") {
		t.Fatalf("got %v", err)
	}
}

// ParseDeploymentTimestamp reads ISO 8601 in UTC to the second; another offset, a
// fraction or another format is 422.
func TestParseDeploymentTimestamp(t *testing.T) {
	want := time.Date(2019, 10, 8, 0, 15, 36, 0, time.UTC)
	for s, ok := range map[string]bool{
		"2019-10-08T00:15:36Z": true, "2019-10-08T00:15:36+00:00": true,
		"2019-10-08T02:15:36+02:00": false, "2019-10-08T00:15:36.5Z": false, "2019-10-08 00:15:36": false, "": false,
	} {
		got, err := ParseDeploymentTimestamp(s)
		var ve *Error
		if ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Errorf("%q: %v, %v", s, got, err)
		}
		if !ok && (!errors.As(err, &ve) || ve.Status != 422) {
			t.Errorf("%q: %v, want 422", s, err)
		}
	}
}

// TestConditionTermText: a term value sent as a string or a number reaches the
// translator as text; an empty or malformed value is an error, not a panic.
func TestConditionTermText(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{`"5"`, "5", false},
		{`5`, "5", false},
		{` 0.9 `, "0.9", false},
		{`null`, "", false},
		{``, "", true},
		{`   `, "", true},
		{`true`, "", true},
	}
	for _, tt := range tests {
		var x text
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("UnmarshalJSON(%q) panicked: %v", tt.in, r)
				}
			}()
			return x.UnmarshalJSON([]byte(tt.in))
		}()
		if (err != nil) != tt.wantErr {
			t.Errorf("UnmarshalJSON(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		got := ""
		if x.s != nil {
			got = *x.s
		}
		if !tt.wantErr && got != tt.want {
			t.Errorf("UnmarshalJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
