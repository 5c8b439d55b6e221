package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// TestIdempotencyKey: no header is no key; exactly one header of 1 to
// MaxIdempotencyKey printable ASCII characters (0x20 to 0x7e, both ends included) is a
// key; two headers, an empty one, one too long or one with another byte is refused.
func TestIdempotencyKey(t *testing.T) {
	max := strings.Repeat("k", translate.MaxIdempotencyKey)
	tests := []struct {
		name string
		vals []string
		want string // "" and ok: no key
		ok   bool
	}{
		{"none", nil, "", true},
		{"one", []string{"retry-1"}, "retry-1", true},
		{"at the maximum", []string{max}, max, true},
		{"over the maximum", []string{max + "k"}, "", false},
		{"empty", []string{""}, "", false},
		{"two headers", []string{"a", "b"}, "", false},
		{"space and tilde", []string{" ~"}, " ~", true},
		{"control character", []string{"a\x1f"}, "", false},
		{"DEL", []string{"a\x7f"}, "", false},
		{"first character bad", []string{"\x01a"}, "", false},
		{"non-ASCII", []string{"é"}, "", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/v2/applications/1/deployments.json", nil)
		for _, v := range tt.vals {
			r.Header.Add("Idempotency-Key", v)
		}
		got, err := idempotencyKey(&request{http: r})
		var ve *restv2.Error
		if tt.ok && (err != nil || got != tt.want) {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
		if !tt.ok && (!errors.As(err, &ve) || ve.Status != 422 || got != "") {
			t.Errorf("%s: %q, %v; want a 422", tt.name, got, err)
		}
	}
}

// TestParseDeployment: form parameters (also for an empty body), XML (a body that
// starts with '<') and JSON, and the errors of each: a missing deployment object, a
// missing revision, an empty timestamp.
func TestParseDeployment(t *testing.T) {
	parse := func(ct, body, query string) (translate.DeploymentInput, error) {
		r := httptest.NewRequest(http.MethodPost, "/v2/applications/1/deployments.json?"+query, strings.NewReader(body))
		r.Header.Set("Content-Type", ct)
		form := ""
		if ct == "application/x-www-form-urlencoded" {
			form = body
		}
		p, err := restv2.ParseParams(query, form)
		if err != nil {
			t.Fatal(err)
		}
		return parseDeployment(&request{http: r, params: p, body: []byte(body)})
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
		var ve *restv2.Error
		if err == nil || (tc.status != 0 && (!errors.As(err, &ve) || ve.Status != tc.status)) {
			t.Errorf("%s %q: %v, want %d", tc.ct, tc.body, err, tc.status)
		}
	}
}
