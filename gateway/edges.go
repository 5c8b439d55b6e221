package gateway

import (
	"net/http"
	"path"
	"strings"

	"github.com/gorilla/mux"

	"github.com/v2bridge/v2bridge/restv2"
)

// REST-shaped edges: what the gateway answers for requests that are
// not a route's ordinary GET/POST/PUT/DELETE — unclean paths, HEAD, a method a path
// does not take, and the real REST v2 paths the gateway does not translate.

// edges wraps the root handler: a path that is not clean (//, /./, /../) gets a v2 404
// body instead of net/http's redirect with an HTML body, and HEAD is answered as GET
// without a body.
func (g *Gateway) edges(root http.Handler) http.Handler {
	unclean := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st := stateFrom(r.Context()); st != nil {
			st.route = "unclean_path"
		}
		g.writeError(w, r, formatOf(r), restv2.NotFound(titleUncleanPath))
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !cleanPath(r.URL.Path) {
			unclean.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodHead {
			get := r.Clone(r.Context())
			get.Method = http.MethodGet
			root.ServeHTTP(headWriter{w}, get)
			return
		}
		root.ServeHTTP(w, r)
	})
}

// titleUncleanPath is the v2 404's title for a path with an empty, '.' or '..' segment.
const titleUncleanPath = "No route matches this request: the path holds empty, '.' or '..' segments"

// cleanPath reports whether p is rooted and has no empty, '.' or '..' segment (the
// paths net/http's ServeMux would redirect).
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if p == "/" {
		return true
	}
	return path.Clean(p) == strings.TrimSuffix(p, "/") && !strings.HasSuffix(p, "//")
}

// headWriter answers a HEAD request with GET's status and headers and no body
// (RFC 9110 §9.3.2).
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

// allowHeader lists the methods that some route of m takes for r's path, for the Allow
// header of a 405 (RFC 9110 §15.5.6); HEAD goes with GET.
func allowHeader(m *mux.Router, r *http.Request) string {
	var allowed []string
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		probe := r.Clone(r.Context())
		probe.Method = method
		var match mux.RouteMatch
		if m.Match(probe, &match) && match.MatchErr == nil {
			allowed = append(allowed, method)
			if method == http.MethodGet {
				allowed = append(allowed, http.MethodHead)
			}
		}
	}
	return strings.Join(allowed, ", ")
}

// unsupportedREST is a real REST v2 path (its first segment after /v2/) the gateway
// does not translate, with the replacement its 501 names and where the path is
// documented. Paths already answered by a route (retired products: 410; entity
// conditions, condition writes, deployment deletes, the synthetics, external-service
// and location-failure conditions: gateway.Routes) are not repeated here.
type unsupportedREST struct {
	segment string
	title   string
	source  string
}

// unsupportedRESTPaths are answered 501 (or passed through with unmatched_passthrough)
// instead of a generic 404, which clients that keep state (Terraform) read as "the
// resource was deleted".
var unsupportedRESTPaths = [...]unsupportedREST{
	{"alerts_plugins_conditions", "Plugins alert conditions are not translated by v2bridge (the Plugins product was decommissioned); " +
		"use a NerdGraph NRQL condition on the integration's data (alertsNrqlConditionStaticCreate)",
		"newrelic/terraform-provider-newrelic website/docs/d/plugin.html.markdown (Plugins end of life, June 16, 2021)"},
	{"usages", "Usage data is not translated by v2bridge; query NrConsumption or NrMTDConsumption with NRQL (NerdGraph actor.account.nrql)",
		"newrelic/docs-website src/content/docs/apis/rest-api-v2/account-examples-v2/subscription-usage-apis.mdx"},
	{"notification_channels", "Notification channels of the pre-2015 alerts are not translated by v2bridge; " +
		"use NerdGraph notification destinations and channels (aiNotificationsCreateDestination)",
		"https://api.newrelic.com/v2/definitions.json (notification_channels)"},
	{"dashboards", "Dashboards are not translated by v2bridge; use NerdGraph dashboards (dashboardCreate, entitySearch with type DASHBOARD)",
		"https://api.newrelic.com/v2/definitions.json (dashboards: REST v2 Insights dashboards)"},
	{"definitions", "The API Explorer definitions are not served by v2bridge; NerdGraph describes itself through GraphQL introspection",
		"https://api.newrelic.com/v2/definitions.json"},
}

// UnsupportedRESTPaths lists the first path segments (after /v2/) of the real REST v2
// paths that are answered 501, with their sources (README, fidelity notes).
func UnsupportedRESTPaths() [][3]string {
	out := make([][3]string, len(unsupportedRESTPaths))
	for i, u := range unsupportedRESTPaths {
		out[i] = [3]string{u.segment, u.title, u.source}
	}
	return out
}

// serveUnsupportedREST answers a real REST v2 path the gateway does not translate with
// 501 and a v2 body naming the replacement; false when the path is not one of them.
func (g *Gateway) serveUnsupportedREST(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if strings.HasPrefix(p, "/accounts/") {
		if i := strings.Index(p, "/v2/"); i > 0 {
			p = p[i:]
		}
	}
	rest, ok := strings.CutPrefix(p, "/v2/")
	if !ok {
		return false
	}
	seg := rest
	if i := strings.IndexAny(rest, "./"); i >= 0 {
		seg = rest[:i]
	}
	for _, u := range unsupportedRESTPaths {
		if u.segment == seg {
			if st := stateFrom(r.Context()); st != nil {
				st.route, st.fidelity = u.segment+".unsupported", Unsupported
			}
			slotsOf(stateFrom(r.Context())).set(w.Header(), "X-V2bridge-Fidelity", string(Unsupported))
			g.writeError(w, r, formatOf(r), restv2.NotImplemented(u.title))
			return true
		}
	}
	return false
}
