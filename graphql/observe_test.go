package graphql

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// BreakerOpen follows the global breaker: one tenant's failing answers leave it closed
// (that tenant's own breaker opens), a NerdGraph no tenant can reach opens it after the
// threshold of consecutive failures.
func TestBreakerOpen(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer srv.Close()
	call := func(c *Client) {
		ctx := WithAPIKey(context.Background(), "NRAK-ONE-TENANT")
		_ = c.MakeRequest(ctx, &gql.Request{Query: "query Q { a }", OpName: "Q"}, &gql.Response{Data: &struct{}{}})
	}
	c := NewClient(srv.URL, Options{MaxAttempts: 1, BreakerThreshold: 2})
	if c.BreakerOpen() {
		t.Fatal("open before any call")
	}
	for i := 0; i < 3; i++ {
		call(c)
	}
	if c.BreakerOpen() {
		t.Fatal("one tenant's 502s opened the global breaker")
	}

	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // connection refused: no tenant's failure
	c = NewClient(gone.URL, Options{MaxAttempts: 1, BreakerThreshold: 2})
	for i := 0; i < 2; i++ {
		call(c)
	}
	if !c.BreakerOpen() {
		t.Fatal("closed after two refused connections with threshold 2")
	}
	if (&Client{}).BreakerOpen() {
		t.Fatal("a client without a breaker reports it open")
	}
}
