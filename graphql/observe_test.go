package graphql

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// BreakerOpen follows the breaker: closed at first, open after the threshold of
// consecutive failures.
func TestBreakerOpen(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{MaxAttempts: 1, BreakerThreshold: 2})
	if c.BreakerOpen() {
		t.Fatal("open before any call")
	}
	for i := 0; i < 2; i++ {
		_ = c.MakeRequest(context.Background(), &gql.Request{Query: "query Q { a }", OpName: "Q"}, &gql.Response{Data: &struct{}{}})
	}
	if !c.BreakerOpen() {
		t.Fatal("closed after two failures with threshold 2")
	}
	if (&Client{}).BreakerOpen() {
		t.Fatal("a client without a breaker reports it open")
	}
}
