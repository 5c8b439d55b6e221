package gateway

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// request is a v2 call after the edge has read it: format, key identity, account,
// merged parameters and the raw body.
type request struct {
	http   *http.Request
	format string
	vars   map[string]string
	params restv2.Params
	body   []byte
	caller translate.Caller
	// mobile marks the mobile application routes (metric scope).
	mobile bool
}

// formatOf is the response format a path asks for: its .xml/.json extension.
func formatOf(r *http.Request) string {
	if strings.HasSuffix(r.URL.Path, ".xml") {
		return "xml"
	}
	return "json"
}

// readRequest reads what every route needs; errors are v2 errors for the caller.
// With the request's state st (nil: none), the request is kept in it.
func (g *Gateway) readRequest(r *http.Request, st *reqState) (*request, error) {
	var rq *request
	if st != nil {
		rq = &st.rq // one allocation a request fewer; the state lives as long
	} else {
		rq = new(request)
	}
	*rq = request{http: r, format: formatOf(r), vars: routeVars(r)}
	body, err := readBody(r, g.cfg.MaxBodyBytes) // bodycoding.go
	if err != nil {
		return nil, err
	}
	rq.body = body
	if isWrite(r.Method) {
		if err := restv2.CheckBodyText(r.Header.Get("Content-Type"), body); err != nil {
			return nil, err
		}
	}
	form := ""
	if restv2.IsFormBody(r.Header.Get("Content-Type"), body) {
		form = string(body)
	}
	rq.params, err = restv2.ParseParams(r.URL.RawQuery, form)
	if err != nil {
		return nil, err
	}
	return rq, nil
}

// resolveAccount picks the one account a request is scoped to:
// the /accounts/{id} path prefix, else the X-Account-ID header, else the key's only
// account, else default_account_id, else the account the key belongs to, else a 422
// naming those options.
func (g *Gateway) resolveAccount(ctx context.Context, rq *request, keyHash string) (int64, string, error) {
	s, name, err := accountHeader(rq.http.Header) // headers naming two accounts are a 400, path or not
	if err != nil {
		return 0, "", err
	}
	if s := rq.vars["accountId"]; s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return 0, "", restv2.BadRequest("Invalid account id in the path")
		}
		return id, "path", nil
	}
	if s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return 0, "", restv2.BadRequest("Invalid account id in the " + name + " header")
		}
		return id, "header", nil
	}
	ids, err := g.tr.Accounts(ctx, keyHash)
	if err != nil {
		var ge *ng.Error
		if errors.As(err, &ge) && ge.Kind == ng.KindAuth {
			return 0, "", restv2.ErrInvalidAPIKey()
		}
		return 0, "", err
	}
	if len(ids) == 1 {
		return ids[0], "single", nil
	}
	if g.cfg.DefaultAccountID != 0 {
		return g.cfg.DefaultAccountID, "default", nil
	}
	if len(ids) == 0 {
		return 0, "", restv2.Forbidden("This API key reaches no New Relic account")
	}
	return g.ownAccount(ctx, ids, keyHash) // ownaccount.go
}

// pathID is the path variable name as a positive id; anything else is a 404 titled
// notFound (REST answered an unknown id so).
func pathID(rq *request, name, notFound string) (int64, error) {
	id, err := strconv.ParseInt(rq.vars[name], 10, 64)
	if err != nil || id <= 0 {
		return 0, restv2.NotFound(notFound)
	}
	return id, nil
}

// isWrite reports whether a method carries a body the gateway writes upstream.
func isWrite(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// peerAddress is the address of the connection a request came on: never a header a
// caller can set.
func peerAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// clientOf is the address a request is attributed to (the per-address guard, the
// access line): the connection's peer, unless the peer is one of
// Config.TrustedProxies; then the last address of X-Forwarded-For that is not itself a
// trusted proxy, as the proxies appended them (a caller can write the header's start,
// never what a trusted proxy appended after it).
func (g *Gateway) clientOf(r *http.Request) string { return g.clientBehind(r, peerAddress(r)) }

// clientBehind is clientOf for a request whose peer address is already read.
func (g *Gateway) clientBehind(r *http.Request, peer string) string {
	if len(g.cfg.TrustedProxies) == 0 || !g.trusted(peer) {
		return peer
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			hop := strings.TrimSpace(parts[j])
			if _, err := netip.ParseAddr(hop); err != nil {
				return peer // a hop that is no address: believe nothing before it
			}
			if !g.trusted(hop) {
				return hop
			}
		}
	}
	return peer
}

// trusted reports whether addr is in Config.TrustedProxies.
func (g *Gateway) trusted(addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range g.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// userAgentProduct is the product of a User-Agent (its first token, without the
// version), at most 64 characters of an HTTP token: what the access line records, never
// the whole header.
func userAgentProduct(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	tok, _, _ = strings.Cut(tok, "/")
	if len(tok) > 64 {
		tok = tok[:64]
	}
	b := []byte(tok)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			b[i] = '_'
		}
	}
	return string(b)
}
