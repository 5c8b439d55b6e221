package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestAPIKey: Api-Key wins over X-Api-Key, blanks do not count.
func TestAPIKey(t *testing.T) {
	tests := []struct{ apiKey, xAPIKey, want string }{
		{"A", "", "A"},
		{"", "X", "X"},
		{"A", "X", "A"},
		{"  ", " X ", "X"},
		{"", "", ""},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.apiKey != "" {
			h.Set("Api-Key", tt.apiKey)
		}
		if tt.xAPIKey != "" {
			h.Set("X-Api-Key", tt.xAPIKey)
		}
		if got := apiKey(h); got != tt.want {
			t.Errorf("apiKey(Api-Key %q, X-Api-Key %q) = %q, want %q", tt.apiKey, tt.xAPIKey, got, tt.want)
		}
	}
}

// TestReadRequestBodyLimit: a body of exactly MaxBodyBytes is read whole, one byte more
// is a 413.
func TestReadRequestBodyLimit(t *testing.T) {
	g := New(Config{MaxBodyBytes: 16}, nil, nil)
	tests := []struct {
		name       string
		body       string
		wantStatus int // 0: read
	}{
		{"empty", "", 0},
		{"under the limit", `{"a":1}`, 0},
		{"at the limit", `{"a":"12345678"}`, 0},
		{"over the limit", `{"a":"123456789"}`, 413},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodPost, "/v2/alerts_policies.json", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "application/json")
		rq, err := g.readRequest(req, nil)
		if tt.wantStatus != 0 {
			var e *v2.Error
			if !errors.As(err, &e) || e.Status != tt.wantStatus {
				t.Errorf("%s (%d bytes): error %v, want status %d", tt.name, len(tt.body), err, tt.wantStatus)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s (%d bytes): %v", tt.name, len(tt.body), err)
			continue
		}
		if string(rq.body) != tt.body {
			t.Errorf("%s: body %q, want %q", tt.name, rq.body, tt.body)
		}
	}
}

// TestIsFormBodyByTypeOrShape: a declared form is a form whatever its shape, a declared JSON or XML
// body never is; an undeclared (or unknown) type is a form when shaped like k=v.
func TestIsFormBodyByTypeOrShape(t *testing.T) {
	tests := []struct {
		ct, body string
		want     bool
	}{
		{"", "", false},
		{"", "  ", false},
		{"", "a=b", true},
		{"", " a=b&c=d ", true},
		{"", "=b", false},
		{"", "ab", false},
		{"", `{"a":"="}`, false},
		{"", `[{"a":"="}]`, false},
		{"", `<a b="c"/>`, false},
		{"application/x-www-form-urlencoded", `{"a":1}`, true},
		{"application/x-www-form-urlencoded; charset=utf-8", "ab", true},
		{"application/json", "a=b", false},
		{"application/xml", "a=b", false},
		{"text/xml", "a=b", false},
		{"text/plain", "a=b", true},
		{"text/plain", "ab", false},
		{"not a media type;;", "a=b", true},
	}
	for _, tt := range tests {
		if got := isFormBody(tt.ct, []byte(tt.body)); got != tt.want {
			t.Errorf("isFormBody(%q, %q) = %v, want %v", tt.ct, tt.body, got, tt.want)
		}
	}
}
