package graphql

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// TestResponseSizeLimit: an answer of exactly MaxResponseBytes is read, one byte more is
// refused as too large.
func TestResponseSizeLimit(t *testing.T) {
	const limit = 64
	body := `{"data":{"x":"1"}}`
	for _, tt := range []struct {
		size    int
		wantErr bool
	}{{limit, false}, {limit + 1, true}} {
		padded := body + strings.Repeat(" ", tt.size-len(body))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(padded))
		}))
		c := NewClient(srv.URL, Options{MaxResponseBytes: limit, MaxAttempts: 1})
		var data struct {
			X string `json:"x"`
		}
		err := c.MakeRequest(context.Background(), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &data})
		srv.Close()
		var ge *Error
		switch {
		case !tt.wantErr && (err != nil || data.X != "1"):
			t.Errorf("%d-byte answer with limit %d: %v, data %q", tt.size, limit, err, data.X)
		case tt.wantErr && (!errors.As(err, &ge) || ge.Kind != KindTransport || !strings.Contains(err.Error(), "too large")):
			t.Errorf("%d-byte answer with limit %d: %v, want a transport error: too large", tt.size, limit, err)
		}
	}
}

// TestReadBodyCapacity pins how readBody sizes its buffer: a declared length within the
// limit gets exactly length+1 bytes (read in one buffer, never grown); an undeclared one
// starts at 8 KiB.
func TestReadBodyCapacity(t *testing.T) {
	tests := []struct {
		name            string
		body            string
		declared, limit int64
		wantCap         int
	}{
		{"declared 0, empty", "", 0, 1 << 20, 1},
		{"declared within the limit", strings.Repeat("x", 10000), 10000, 1 << 20, 10001},
		{"declared exactly the limit", strings.Repeat("x", 10000), 10000, 10000, 10001},
		{"undeclared, small", strings.Repeat("x", 100), -1, 1 << 20, 8 << 10},
		{"undeclared, small limit", strings.Repeat("x", 10), -1, 50, 51},
	}
	for _, tt := range tests {
		b, err := readBody(strings.NewReader(tt.body), tt.declared, tt.limit)
		if err != nil || string(b) != tt.body {
			t.Errorf("%s: read %d bytes, %v", tt.name, len(b), err)
		}
		if cap(b) != tt.wantCap {
			t.Errorf("%s: buffer capacity %d, want %d", tt.name, cap(b), tt.wantCap)
		}
	}
}
