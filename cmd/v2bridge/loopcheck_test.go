package main

import (
	"context"
	"net/netip"
	"testing"
)

// A rest_upstream whose host resolves to this gateway's own address and port is found
// at startup (the gateway's DNS sends New Relic's hostname to the gateway); the REST
// API's real address, another port, or a lookup failure is not.
func TestUpstreamIsSelf(t *testing.T) {
	local := []netip.Addr{netip.MustParseAddr("10.0.0.5"), netip.MustParseAddr("127.0.0.1")}
	lookup := func(to ...string) func(context.Context, string) ([]netip.Addr, error) {
		return func(context.Context, string) ([]netip.Addr, error) {
			var out []netip.Addr
			for _, a := range to {
				out = append(out, netip.MustParseAddr(a))
			}
			if len(out) == 0 {
				return nil, context.DeadlineExceeded
			}
			return out, nil
		}
	}
	for _, tc := range []struct {
		name, rest, listen string
		resolves           []string
		want               bool
	}{
		{"internal DNS sends the REST host to this gateway", "https://api.newrelic.com/v2", "0.0.0.0:443", []string{"10.0.0.5"}, true},
		{"bound to that address", "https://api.newrelic.com/v2", "10.0.0.5:443", []string{"10.0.0.5"}, true},
		{"loopback on the port", "http://localhost:8080/v2", "0.0.0.0:8080", []string{"127.0.0.1"}, true},
		{"the REST API itself", "https://api.newrelic.com/v2", "0.0.0.0:443", []string{"162.247.241.2"}, false},
		{"another port of this host", "https://api.newrelic.com/v2", "0.0.0.0:8443", []string{"10.0.0.5"}, false},
		{"lookup fails", "https://api.newrelic.com/v2", "0.0.0.0:443", nil, false},
	} {
		got := upstreamIsSelf(context.Background(), tc.rest, netip.MustParseAddrPort(tc.listen), local, lookup(tc.resolves...))
		if got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
