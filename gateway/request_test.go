package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

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
			var e *restv2.Error
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

// TestIsWrite: POST, PUT and PATCH carry a body the gateway writes upstream; GET and
// DELETE do not.
func TestIsWrite(t *testing.T) {
	if !isWrite("POST") || !isWrite("PUT") || !isWrite("PATCH") || isWrite("GET") || isWrite("DELETE") {
		t.Error("isWrite")
	}
}
