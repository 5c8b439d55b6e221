package gateway

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/v2bridge/v2bridge/translate"
)

// Mode is how a route is answered during a migration pilot.
type Mode string

// The route modes.
const (
	// ModeTranslate answers from NerdGraph (the default).
	ModeTranslate Mode = "translate"
	// ModePassthrough forwards the call unchanged to the REST v2 API while it lives.
	ModePassthrough Mode = "passthrough"
)

// RESTEndpointUS and RESTEndpointEU are the REST v2 base URLs.
const (
	RESTEndpointUS = "https://api.newrelic.com/v2"
	RESTEndpointEU = "https://api.eu.newrelic.com/v2"
)

// sunset is the REST API v2 end of life (RFC 8594 Sunset header on passed-through
// answers, so callers see the route is temporary).
func sunset() time.Time { return time.Date(2027, 7, 31, 23, 59, 59, 0, time.UTC) }

// bufferPool gives ReverseProxy reusable 32 KiB copy buffers.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, 32<<10)
}

func (b *bufferPool) Put(buf []byte) { b.p.Put(&buf) }

// newPassthrough forwards REST v2 calls to base (…/v2): method, body, query and key
// headers unchanged, the response streamed back with its Link URLs rewritten to the
// gateway and Sunset/Deprecation headers added (not for the retained alerts
// namespaces, which the REST v2 end of life does not retire). Hop-by-hop headers are handled by
// httputil.ReverseProxy.
func (g *Gateway) newPassthrough(base *url.URL) http.Handler {
	rp := &httputil.ReverseProxy{
		BufferPool: &bufferPool{},
		Rewrite: func(pr *httputil.ProxyRequest) {
			path := pr.In.URL.EscapedPath()
			if i := strings.Index(path, "/v2/"); i >= 0 {
				path = path[i+len("/v2"):]
			} else if strings.HasPrefix(path, "/accounts/") {
				// legacy root routes under an account prefix: /accounts/{id}/deployments.xml
				if j := strings.Index(path[len("/accounts/"):], "/"); j >= 0 {
					path = path[len("/accounts/")+j:]
				}
			}
			target := *base
			target.RawPath = ""
			target.Path = strings.TrimSuffix(base.Path, "/v2") + pathPrefixFor(pr.In.URL.Path) + mustUnescape(path)
			target.RawQuery = pr.In.URL.RawQuery
			pr.Out.URL = &target
			pr.Out.Host = target.Host
			pr.Out.Header.Del("X-Account-ID") // a gateway selector, not a REST v2 header
		},
		ModifyResponse: func(resp *http.Response) error {
			h := resp.Header
			if link := h.Get("Link"); link != "" {
				h.Set("Link", g.rewriteLinks(resp.Request, link, base))
			}
			if !isRetainedPath(resp.Request.URL.Path) { // the retained namespaces are not retired
				h.Set("Sunset", sunset().Format(http.TimeFormat))
				h.Set("Deprecation", "@"+itoa(sunset().Unix()))
			}
			h.Set("X-V2bridge-Mode", string(ModePassthrough))
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if st := stateFrom(r.Context()); st != nil {
				st.internal = err
			}
			g.writeError(w, r, formatOf(r), errPassthrough)
		},
	}
	return rp
}

var errPassthrough = &passthroughError{}

type passthroughError struct{}

func (*passthroughError) Error() string { return "the REST API v2 did not answer" }

// pathPrefixFor keeps /v2 for v2 routes; legacy root routes have none.
func pathPrefixFor(p string) string {
	if strings.Contains(p, "/v2/") {
		return "/v2"
	}
	return ""
}

func mustUnescape(p string) string {
	u, err := url.PathUnescape(p)
	if err != nil {
		return p
	}
	return u
}

// rewriteLinks points REST v2's absolute Link URLs at the gateway as the caller reached
// it (its /accounts/{id} prefix included).
func (g *Gateway) rewriteLinks(out *http.Request, link string, base *url.URL) string {
	st := stateFrom(out.Context())
	if st == nil || st.publicBase == "" {
		return link
	}
	return strings.ReplaceAll(link, strings.TrimSuffix(base.String(), "/"), st.publicBase+"/v2")
}

// passthrough serves a route by forwarding it to the REST v2 API.
func (g *Gateway) passthrough(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st := stateFrom(r.Context()); st != nil {
			st.route, st.fidelity, st.mode = rt.Name, rt.Fidelity, ModePassthrough
			st.publicBase = g.publicBase(r)
			if key := apiKey(r.Header); key != "" {
				st.callerHash = translate.HashKey(key)[:8]
			}
			if acct := routeVars(r)["accountId"]; acct != "" {
				st.publicBase += "/accounts/" + acct
			}
		}
		g.proxy.ServeHTTP(w, r)
		if st := stateFrom(r.Context()); st != nil && (st.sw.status == http.StatusUnauthorized || st.sw.status == http.StatusForbidden) {
			st.callerHash = "" // REST refused the key: no usage row (authguard.go)
		}
	})
}

// retainedNamespaces are the REST v2 alerts namespaces New Relic's end-of-life notice
// lists as not impacted by the REST v2 shutdown (MAPPING.md §0;
// https://docs.newrelic.com/eol/2024/05/rest-api-v2-end-of-life/ as stored in the
// notice's two versions): they stay on the REST API after July 31, 2027.
func retainedNamespaces() []string {
	return []string{"/alerts_policies", "/alerts_conditions", "/alerts_nrql_conditions", "/alerts_external_service_conditions",
		"/alerts_synthetics_conditions", "/alerts_location_failure_conditions/policies", "/alerts_entity_conditions"}
}

// isRetainedPath reports whether a request path (/v2/..., /accounts/{id}/v2/...) is in
// a retained alerts namespace: the namespace followed by its extension or a '/'.
func isRetainedPath(p string) bool {
	i := strings.Index(p, "/v2/")
	if i < 0 {
		return false
	}
	p = p[i+len("/v2"):]
	for _, ns := range retainedNamespaces() {
		if rest, ok := strings.CutPrefix(p, ns); ok && (rest == "" || rest[0] == '.' || rest[0] == '/') {
			return true
		}
	}
	return false
}

// modeOf is a route's mode: its own entry in Modes, else pass-through for the
// retained alerts namespaces when retained_alerts is passthrough, or for their
// untranslated (501) paths when unmatched_passthrough forwards what is not translated,
// else translate.
func (g *Gateway) modeOf(rt Route) Mode {
	if m, ok := g.cfg.Modes[rt.Name]; ok {
		return m
	}
	if rt.Legacy || !isRetainedPath("/v2"+rt.Path) {
		return ModeTranslate
	}
	untranslated := rt.Retired != nil && rt.Retired.Status == http.StatusNotImplemented
	if g.cfg.RetainedAlerts == ModePassthrough || (g.cfg.UnmatchedPassthrough && untranslated) {
		return ModePassthrough
	}
	return ModeTranslate
}

// passRetained reports whether an unmatched path is forwarded because it is in a
// retained alerts namespace passed through.
func (g *Gateway) passRetained(p string) bool {
	return g.cfg.RetainedAlerts == ModePassthrough && isRetainedPath(p)
}
