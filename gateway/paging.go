package gateway

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// linkHeader builds REST v2's RFC 5988 Link header: absolute URLs to
// the gateway that repeat every parameter the caller sent (clients such as
// newrelic-client-go do not re-add filters to a next URL), `page=` in every link,
// `<url>; rel="x"` joined by ", ", commas inside URLs percent-encoded. First page:
// next + last; middle pages: first, prev, next, last; last page: first, prev. No
// header when everything fits on one page; no rel="last" when the last page is
// unknown.
func (g *Gateway) linkHeader(r *http.Request, params v2.Params, p translate.Paging) string {
	if p.Page <= 1 && !p.HasNext {
		return ""
	}
	base := g.publicBase(r) + r.URL.EscapedPath()
	vals := params.Values()
	link := func(page int, rel string) string {
		vals.Set("page", strconv.Itoa(page))
		return "<" + base + "?" + vals.Encode() + ">; rel=\"" + rel + "\""
	}
	var parts []string
	if p.Page > 1 {
		parts = append(parts, link(1, "first"), link(p.Page-1, "prev"))
	}
	if p.HasNext {
		parts = append(parts, link(p.Page+1, "next"))
		if p.Last > 0 {
			parts = append(parts, link(p.Last, "last"))
		}
	}
	return strings.Join(parts, ", ")
}

// publicBase is scheme://host of the gateway as callers reach it: public_url, else the
// local address the connection was accepted on (the listen address). Never the
// request's Host or X-Forwarded-* headers, which any caller can set (Host:
// evil.example must not put evil.example into Link). Behind a proxy, set public_url.
func (g *Gateway) publicBase(r *http.Request) string {
	if g.cfg.PublicURL != "" {
		return strings.TrimRight(g.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := "localhost"
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && a != nil {
		host = a.String()
	}
	u := url.URL{Scheme: scheme, Host: host}
	return u.String()
}
