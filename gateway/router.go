package gateway

import (
	"errors"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// routes builds the mux: every route under /v2 and under /accounts/{accountId}/v2,
// with the .json or .xml extension; anything else gets a v2-shaped 404 or 405.
func (g *Gateway) routes() http.Handler { return g.routesOf(Routes()) }

// routesOf builds the mux of the given route table.
func (g *Gateway) routesOf(table []Route) http.Handler {
	m := mux.NewRouter()
	m.UseEncodedPath()
	m.SkipClean(true) // an unclean path is a v2 404 (edges), never gorilla/mux's redirect
	idx := routeIndex{full: m, bySegment: map[string]*mux.Router{}, byShape: map[string]*mux.Router{},
		direct: map[string]map[string]*directRoute{}}
	shapes := map[string][]string{} // a segment's route shapes
	unshaped := map[string]bool{}   // segments with a path a shape cannot stand for
	prefixed := map[string]bool{}   // segments with a prefix route
	for _, rt := range table {
		seg := firstSegment(rt.Path)
		sh, ok := templateShape(rt.Path)
		switch {
		case !ok:
			unshaped[seg] = true
		case !rt.Prefix && !slices.Contains(shapes[seg], sh):
			shapes[seg] = append(shapes[seg], sh)
		}
		prefixed[seg] = prefixed[seg] || rt.Prefix
	}
	for seg := range unshaped {
		delete(shapes, seg)
	}
	for _, rt := range table {
		h := g.handle(rt)
		switch g.modeOf(rt) {
		case ModePassthrough:
			h = g.passthrough(rt)
		case ModeCompare:
			if g.cfg.Compare != nil {
				h = g.cfg.Compare(rt, h, g.passthrough(rt))
			}
		}
		// A route goes to the full router, its segment's, and its shape's; a prefix
		// route to every shape router of its segment (it may match any of them), in
		// the table's order everywhere.
		routers := []*mux.Router{m, idx.segment(rt.Path)}
		if rt.Prefix {
			for _, sh := range shapes[firstSegment(rt.Path)] {
				routers = append(routers, idx.shape(sh))
			}
		} else if sh, _ := templateShape(rt.Path); !unshaped[firstSegment(rt.Path)] {
			routers = append(routers, idx.shape(sh))
			if !rt.Legacy && !prefixed[firstSegment(rt.Path)] {
				idx.addDirect(sh, rt, h)
			}
		}
		for _, r := range routers {
			for _, prefix := range []string{"/v2", "/accounts/{accountId:[0-9]+}/v2"} {
				if rt.Legacy {
					r.Handle(strings.TrimSuffix(prefix, "/v2")+rt.Path+".{format:xml}", h).Methods(rt.Methods...)
					continue
				}
				if rt.Prefix {
					r.PathPrefix(prefix + rt.Path).Handler(h).Methods(rt.Methods...)
					continue
				}
				r.Handle(prefix+rt.Path+".{format:json|xml}", h).Methods(rt.Methods...)
			}
		}
	}
	unmatched := g.passthrough(Route{Name: "unmatched", Fidelity: Unsupported})
	m.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (g.cfg.UnmatchedPassthrough || g.passRetained(r.URL.Path)) && strings.Contains(r.URL.Path, "/v2/") && cleanPath(r.URL.Path) {
			unmatched.ServeHTTP(w, r)
			return
		}
		if g.serveUnsupportedREST(w, r) { // real REST v2 paths not translated: 501
			return
		}
		g.writeError(w, r, formatOf(r), restv2.NotFound(titleRouteNotFound))
	})
	m.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowHeader(m, r))
		g.writeError(w, r, formatOf(r), restv2.MethodNotAllowed("Method "+r.Method+" is not allowed on this route"))
	})
	return idx
}

// routeIndex sends a request to a gorilla/mux router holding only the routes of its
// path's first segment after /v2/ (or /accounts/{id}/v2/, or the legacy root), so a
// route late in the table is not found after every regular expression before it (the
// full router tries them in the table's order; BenchmarkRouting). Whatever a segment's router does
// not match (an unknown path, a method a path does not take, a path its segment does
// not name exactly) goes to the full router, so every answer is the one the full
// router gives (TestRouteIndexMatchesFullRouter, FuzzRouteIndex).
//
// Within a segment, a router per path shape (the path with every number written {}
// and without its extension: "applications/{}/metrics/data") holds only the routes of
// that shape, so a request's regular expressions are those of one or two routes: every
// path variable is a number ([0-9]+) and no literal segment is one, so a route of
// another shape cannot match the path (the segment's prefix routes, which can, are in
// each of its shape routers). A segment with a route for which that does not hold gets
// no shape routers (templateShape; TestRouteIndexUnshapedSegment).
type routeIndex struct {
	full      *mux.Router
	bySegment map[string]*mux.Router
	byShape   map[string]*mux.Router
	// direct holds, by shape and method, the route a shape's router would match
	// (directMatch).
	direct map[string]map[string]*directRoute
}

// directRoute is a route directMatch finds without running gorilla/mux's regular
// expressions: its handler and the names of its path's number variables, in order.
type directRoute struct {
	handler http.Handler
	names   []string
	route   Route
}

// addDirect records rt (a route of shape sh in a segment without prefix routes, not a
// legacy one) for its methods, unless a route before it in the table took the shape
// and method: the shape's router tries them in that order.
func (x routeIndex) addDirect(sh string, rt Route, h http.Handler) {
	var names []string
	for _, sg := range strings.Split(rt.Path, "/") {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(sg, "{"), ":[0-9]+}"); ok && strings.HasPrefix(sg, "{") {
			names = append(names, name)
		}
	}
	byMethod := x.direct[sh]
	if byMethod == nil {
		byMethod = map[string]*directRoute{}
		x.direct[sh] = byMethod
	}
	for _, m := range rt.Methods {
		if _, taken := byMethod[m]; !taken {
			byMethod[m] = &directRoute{handler: h, names: names, route: rt}
		}
	}
}

// directMatch is the route a shape's router would match r with, and its path
// variables as gorilla/mux would set them, when directMatch can tell without a regular
// expression (nil otherwise: the routers decide). It can for a path written as it is
// decoded (no escape), under /v2/ or /accounts/{number}/v2/, whose extension is .json
// or .xml and whose shape and method are a direct route's: the shape stands for the
// route's literal segments, and its numbers are the route's [0-9]+ variables
// (templateShape), in order (TestRouteIndexMatchesFullRouter, FuzzRouteIndex).
func (x routeIndex) directMatch(r *http.Request) (*directRoute, map[string]string) {
	u := r.URL
	if u.RawPath != "" {
		return nil, nil
	}
	rest, account := u.Path, ""
	if after, ok := strings.CutPrefix(rest, "/accounts/"); ok {
		i := strings.IndexByte(after, '/')
		if i < 0 || !allDigits(after[:i]) {
			return nil, nil
		}
		account, rest = after[:i], after[i:]
	}
	rest, ok := strings.CutPrefix(rest, "/v2/")
	if !ok {
		return nil, nil
	}
	var buf [maxShape]byte
	sh, ok := requestShape(&buf, rest)
	if !ok {
		return nil, nil
	}
	d := x.direct[string(sh)][r.Method]
	if d == nil {
		return nil, nil
	}
	format := "json"
	if strings.HasSuffix(rest, ".xml") {
		format = "xml"
	}
	vars := make(map[string]string, len(d.names)+2)
	vars["format"] = format
	if account != "" {
		vars["accountId"] = account
	}
	k := 0
	for seg := range strings.SplitSeq(rest[:len(rest)-len(format)-1], "/") {
		if allDigits(seg) {
			if k == len(d.names) {
				return nil, nil
			}
			vars[d.names[k]] = seg
			k++
		}
	}
	if k != len(d.names) {
		return nil, nil
	}
	return d, vars
}

// newIndexRouter is a router whose misses go to the full router.
func newIndexRouter(full *mux.Router) *mux.Router {
	r := mux.NewRouter()
	r.UseEncodedPath()
	r.SkipClean(true)
	r.NotFoundHandler = full
	r.MethodNotAllowedHandler = full
	return r
}

// shape is the router of a path shape, made on first use.
func (x routeIndex) shape(sh string) *mux.Router {
	r, ok := x.byShape[sh]
	if !ok {
		r = newIndexRouter(x.full)
		x.byShape[sh] = r
	}
	return r
}

// templateShape is a route path's shape: "/applications/{id:[0-9]+}/hosts" →
// "applications/{}/hosts". ok is false when a shape cannot stand for the path: a
// variable that may be other than a number, or a literal segment that is one (a
// request's shape could then name another route's); such a segment gets no shape
// routers, its requests its segment's router.
func templateShape(p string) (shape string, ok bool) {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, sg := range segs {
		switch {
		case strings.HasPrefix(sg, "{"):
			if !strings.HasSuffix(sg, ":[0-9]+}") {
				return "", false
			}
			segs[i] = "{}"
		case allDigits(sg) || strings.ContainsAny(sg, "{}"):
			return "", false
		}
	}
	return strings.Join(segs, "/"), true
}

// maxShape bounds the shapes looked up (the longest route's is 47 bytes).
const maxShape = 96

// requestShape writes the shape of p (the path below /v2/, or below the root for a
// legacy route) into buf: each segment of digits only becomes {}, and the last
// segment's .json or .xml is dropped. ok is false for a path without one of those
// extensions or too long for buf; such paths use the segment's router.
func requestShape(buf *[maxShape]byte, p string) (shape []byte, ok bool) {
	switch {
	case strings.HasSuffix(p, ".json"):
		p = p[:len(p)-len(".json")]
	case strings.HasSuffix(p, ".xml"):
		p = p[:len(p)-len(".xml")]
	default:
		return nil, false
	}
	out := buf[:0]
	for first := true; p != ""; first = false {
		seg := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			seg, p = p[:i], p[i+1:]
			if p == "" {
				return nil, false // a trailing slash: no route's shape
			}
		} else {
			p = ""
		}
		if !first {
			out = append(out, '/')
		}
		if allDigits(seg) {
			seg = "{}"
		}
		if len(out)+len(seg) > maxShape {
			return nil, false
		}
		out = append(out, seg...)
	}
	return out, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// segment is the router of path's first segment, made on first use.
func (x routeIndex) segment(path string) *mux.Router {
	seg := firstSegment(path)
	r, ok := x.bySegment[seg]
	if !ok {
		r = newIndexRouter(x.full)
		x.bySegment[seg] = r
	}
	return r
}

// ServeHTTP calls the route directMatch finds, else matches r on its segment's router,
// and calls the route's handler with r itself: the path variables go into the
// request's state (routeVars), so neither of
// the two request copies gorilla/mux's Router.ServeHTTP makes to carry them (and the
// matched route) in the context is made. Everything else takes gorilla/mux's own
// path unchanged: a request without a state, a path gorilla would clean (the routers
// skip its redirect: such a path matches no route), and what the segment does not match (the full router's answer, as its NotFound and
// MethodNotAllowed handlers would give it).
func (x routeIndex) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	st := stateFrom(r.Context())
	if st != nil {
		if d, vars := x.directMatch(r); d != nil {
			st.vars = vars
			d.handler.ServeHTTP(w, r)
			return
		}
	}
	sub := x.pick(r)
	if sub == x.full || st == nil || !cleanEscapedPath(r.URL) {
		sub.ServeHTTP(w, r)
		return
	}
	m := &st.match // in the state: one allocation a request fewer
	if !sub.Match(r, m) || m.MatchErr != nil || m.Handler == nil {
		x.full.ServeHTTP(w, r)
		return
	}
	st.vars = m.Vars
	m.Handler.ServeHTTP(w, r)
}

// cleanEscapedPath reports whether gorilla/mux would serve u's escaped path as it is
// (a router with UseEncodedPath redirects to its cleaned form otherwise): rooted, and
// path.Clean leaves it alone but for a kept trailing slash.
func cleanEscapedPath(u *url.URL) bool {
	p := u.EscapedPath()
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// routeVars are r's route path variables: from the request's state when routeIndex
// matched the route, else from gorilla/mux's context.
func routeVars(r *http.Request) map[string]string {
	if st := stateFrom(r.Context()); st != nil && st.vars != nil {
		return st.vars
	}
	return mux.Vars(r)
}

// pick is the router of r's first segment, or the full router.
func (x routeIndex) pick(r *http.Request) *mux.Router {
	p := r.URL.Path
	if rest, ok := strings.CutPrefix(p, "/accounts/"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p = rest[i:]
		}
	}
	if rest, ok := strings.CutPrefix(p, "/v2/"); ok {
		p = rest
	} else {
		p = strings.TrimPrefix(p, "/")
	}
	var buf [maxShape]byte
	if sh, ok := requestShape(&buf, strings.TrimPrefix(p, "/")); ok {
		if sub, ok := x.byShape[string(sh)]; ok {
			return sub
		}
	}
	if sub, ok := x.bySegment[firstSegment(p)]; ok {
		return sub
	}
	return x.full
}

// firstSegment is p (without its leading '/') up to its first '/' or '.'.
func firstSegment(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexAny(p, "/."); i >= 0 {
		return p[:i]
	}
	return p
}

// Mode is how a route is answered during a migration pilot.
type Mode string

// The route modes.
const (
	// ModeTranslate answers from NerdGraph (the default).
	ModeTranslate Mode = "translate"
	// ModePassthrough forwards the call unchanged to the REST v2 API while it lives
	// (Config.Passthrough).
	ModePassthrough Mode = "passthrough"
	// ModeCompare answers from one side and compares it with the other
	// (Config.Compare).
	ModeCompare Mode = "compare"
)

// RESTEndpointUS and RESTEndpointEU are the REST v2 base URLs.
const (
	RESTEndpointUS = "https://api.newrelic.com/v2"
	RESTEndpointEU = "https://api.eu.newrelic.com/v2"
)

// Sunset is the REST API v2 end of life (the RFC 8594 Sunset header of passed-through
// answers, and the days-left gauge).
func Sunset() time.Time { return time.Date(2027, 7, 31, 23, 59, 59, 0, time.UTC) }

// passthrough serves a route by forwarding it to the REST v2 API through
// Config.Passthrough, with the request's route, mode, caller and public base recorded.
// A request carrying two different keys is refused (presentedKey) before it is
// forwarded: the one key forwarded (ForwardedHeaders) is the caller's.
func (g *Gateway) passthrough(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, _, err := presentedKey(r.Header)
		if st := stateFrom(r.Context()); st != nil {
			st.route, st.fidelity, st.mode = rt.Name, rt.Fidelity, ModePassthrough
			st.publicBase = g.publicBase(r)
			if key != "" {
				st.callerHash = translate.HashKey(key)[:8]
			}
			if acct := routeVars(r)["accountId"]; acct != "" {
				st.publicBase += "/accounts/" + acct
			}
		}
		if err != nil {
			g.writeError(w, r, formatOf(r), err)
			return
		}
		if g.cfg.Passthrough == nil {
			g.writeError(w, r, formatOf(r), &PassthroughError{Err: errors.New("no pass-through configured")})
		} else {
			g.cfg.Passthrough.ServeHTTP(w, r)
		}
		if st := stateFrom(r.Context()); st != nil && (st.sw.status == restv2.StatusUnauthorized || st.sw.status == restv2.StatusForbidden) {
			st.callerHash = "" // REST refused the key: no usage row
		}
	})
}

// retainedNamespaces are the REST v2 alerts namespaces New Relic's end-of-life notice
// lists as not impacted by the REST v2 shutdown
// (https://docs.newrelic.com/eol/2024/05/rest-api-v2-end-of-life/): they stay on the
// REST API after July 31, 2027.
func retainedNamespaces() []string {
	return []string{"/alerts_policies", "/alerts_conditions", "/alerts_nrql_conditions", "/alerts_external_service_conditions",
		"/alerts_synthetics_conditions", "/alerts_location_failure_conditions/policies", "/alerts_entity_conditions"}
}

// IsRetainedPath reports whether a request path (/v2/..., /accounts/{id}/v2/...) is in
// a retained alerts namespace: the namespace followed by its extension or a '/'.
func IsRetainedPath(p string) bool {
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
	if rt.Legacy || !IsRetainedPath("/v2"+rt.Path) {
		return ModeTranslate
	}
	untranslated := rt.Retired != nil && rt.Retired.Status == restv2.StatusNotImplemented
	if g.cfg.RetainedAlerts == ModePassthrough || (g.cfg.UnmatchedPassthrough && untranslated) {
		return ModePassthrough
	}
	return ModeTranslate
}

// passRetained reports whether an unmatched path is forwarded because it is in a
// retained alerts namespace passed through.
func (g *Gateway) passRetained(p string) bool {
	return g.cfg.RetainedAlerts == ModePassthrough && IsRetainedPath(p)
}
