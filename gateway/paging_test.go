package gateway

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPublicBase: public_url without its trailing slash, else the scheme of the
// connection and the local address it was accepted on (localhost without one), never
// the Host header.
func TestPublicBase(t *testing.T) {
	g := New(Config{PublicURL: "https://v2.example.com/"}, nil, nil)
	if got := g.publicBase(httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)); got != "https://v2.example.com" {
		t.Errorf("with public_url: %q", got)
	}
	g = New(Config{}, nil, nil)
	r := httptest.NewRequest(http.MethodGet, "http://evil.example/v2/x.json", nil)
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("no local address: %q, want http://localhost", got)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8443}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
	r.TLS = &tls.ConnectionState{}
	if got := g.publicBase(r); got != "https://127.0.0.1:8443" {
		t.Errorf("TLS on a local address: %q, want https://127.0.0.1:8443", got)
	}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(nil)))
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("nil local address: %q, want http://localhost", got)
	}
}
