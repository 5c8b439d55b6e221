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
