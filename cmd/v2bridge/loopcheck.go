package main

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"time"

	"go.uber.org/zap"
)

// upstreamIsSelf reports whether rest (the REST API's URL) resolves, through lookup, to
// one of this host's addresses (local) on the port the gateway listens on (listen): the
// DNS that sends New Relic's hostname to the gateway for clients that cannot change
// their host also answers the gateway's own lookups, so passthrough and compare would
// call the gateway itself (migrate's loop guard then answers them 508).
func upstreamIsSelf(ctx context.Context, rest string, listen netip.AddrPort, local []netip.Addr,
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)) bool {
	u, err := url.Parse(rest)
	if err != nil || u.Hostname() == "" {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if p, err := netip.ParseAddrPort(net.JoinHostPort("0.0.0.0", port)); err != nil || p.Port() != listen.Port() {
		return false
	}
	addrs, err := lookup(ctx, u.Hostname())
	if err != nil {
		return false
	}
	for _, a := range addrs {
		a = a.Unmap()
		if a.IsLoopback() || (listen.Addr().IsValid() && !listen.Addr().IsUnspecified() && a == listen.Addr().Unmap()) {
			return true
		}
		for _, l := range local {
			if a == l.Unmap() && (!listen.Addr().IsValid() || listen.Addr().IsUnspecified()) {
				return true
			}
		}
	}
	return false
}

// warnIfUpstreamIsSelf logs, at startup, a rest_upstream that leads back to this gateway.
func warnIfUpstreamIsSelf(rest string, ln net.Listener, log *zap.Logger) {
	listen, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil {
		return
	}
	var local []netip.Addr
	if ifaces, err := net.InterfaceAddrs(); err == nil {
		for _, a := range ifaces {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				local = append(local, p.Addr())
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	lookup := func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	if upstreamIsSelf(ctx, rest, listen, local, lookup) {
		log.Warn("rest_upstream resolves to this gateway's own address: passthrough, compare and the retained alerts would call the gateway itself "+
			"and are answered 508; give the gateway a resolver (or rest_upstream an address) that reaches the REST API itself",
			zap.String("rest_upstream", rest), zap.String("listen", ln.Addr().String()))
	}
}
