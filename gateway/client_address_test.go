package gateway

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// A request is attributed to its connection's peer, unless the peer is a trusted proxy:
// then to the last X-Forwarded-For address that is not itself trusted. What a caller
// writes at the header's start is never believed over what a trusted proxy appended.
func TestClientOfBelievesOnlyTrustedProxies(t *testing.T) {
	g := New(Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}}, nil, nil)
	tests := []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no header", "198.51.100.1:5000", nil, "198.51.100.1"},
		{"untrusted peer's header ignored", "198.51.100.1:5000", []string{"203.0.113.9"}, "198.51.100.1"},
		{"trusted proxy", "192.0.2.10:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"spoofed start", "192.0.2.10:5000", []string{"6.6.6.6, 203.0.113.9"}, "203.0.113.9"},
		{"chain of trusted proxies", "192.0.2.10:5000", []string{"203.0.113.9, 192.0.2.11"}, "203.0.113.9"},
		{"several headers", "192.0.2.10:5000", []string{"6.6.6.6", "203.0.113.9, 192.0.2.11"}, "203.0.113.9"},
		{"not an address", "192.0.2.10:5000", []string{"203.0.113.9, bogus"}, "192.0.2.10"},
		{"only trusted hops", "192.0.2.10:5000", []string{"192.0.2.12"}, "192.0.2.10"},
		{"IPv6", "192.0.2.10:5000", []string{"2001:db8::7"}, "2001:db8::7"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
		r.RemoteAddr = tt.peer
		for _, v := range tt.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := g.clientOf(r); got != tt.want {
			t.Errorf("%s: clientOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The access line names the client address (and the forwarded one behind a trusted
// proxy) and the User-Agent's product and version, never the whole header: so every refusal of the
// per-address guard is logged with the address it counted.
func TestAccessLineNamesClientAndProduct(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	g := New(Config{RateLimitPerMinute: -1,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}}, nil, zap.New(core))
	h := g.Handler()
	serve := func(peer, xff, ua string) map[string]any {
		t.Helper()
		logs.TakeAll()
		r := httptest.NewRequest(http.MethodGet, "/v2/nothing_here.json", nil)
		r.RemoteAddr = peer
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		r.Header.Set("User-Agent", ua)
		h.ServeHTTP(httptest.NewRecorder(), r)
		lines := logs.FilterMessage("request").AllUntimed()
		if len(lines) != 1 {
			t.Fatalf("%d access lines", len(lines))
		}
		return lines[0].ContextMap()
	}
	direct := serve("198.51.100.1:5000", "", "newrelic-client-go/2.1.0 (go1.23; linux)")
	if direct["client"] != "198.51.100.1" || direct["user_agent"] != "newrelic-client-go/2.1.0" || direct["forwarded_for"] != nil {
		t.Errorf("direct: %v", direct)
	}
	behind := serve("192.0.2.10:5000", "203.0.113.9", "python-requests/2.31")
	if behind["client"] != "192.0.2.10" || behind["forwarded_for"] != "203.0.113.9" || behind["user_agent"] != "python-requests/2.31" {
		t.Errorf("behind a trusted proxy: %v", behind)
	}
}
