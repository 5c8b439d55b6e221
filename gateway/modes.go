package gateway

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/translate"
)

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
func (g *Gateway) passthrough(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st := stateFrom(r.Context()); st != nil {
			st.route, st.fidelity, st.mode = rt.Name, rt.Fidelity, ModePassthrough
			st.publicBase = g.publicBase(r)
			if key, ok := forwardedKey(r.Header); ok {
				st.callerHash = translate.HashKey(key)[:8]
			}
			if acct := routeVars(r)["accountId"]; acct != "" {
				st.publicBase += "/accounts/" + acct
			}
		}
		if g.cfg.Passthrough == nil {
			g.writeError(w, r, formatOf(r), &PassthroughError{Err: errors.New("no pass-through configured")})
		} else {
			g.cfg.Passthrough.ServeHTTP(w, r)
		}
		if st := stateFrom(r.Context()); st != nil && (st.sw.status == http.StatusUnauthorized || st.sw.status == http.StatusForbidden) {
			st.callerHash = "" // REST refused the key: no usage row (authguard.go)
		}
	})
}

// forwardedKey is the key REST authenticates when a request is passed through: the one
// key the request carries in Api-Key and X-Api-Key. When the two headers carry
// different keys, which one REST took is not known, so the call earns no usage row
// (a made-up key beside a valid one cannot grow the report).
func forwardedKey(h http.Header) (string, bool) {
	a, x := strings.TrimSpace(h.Get("Api-Key")), strings.TrimSpace(h.Get("X-Api-Key"))
	switch {
	case a != "" && x != "" && a != x:
		return "", false
	case a != "":
		return a, true
	}
	return x, x != ""
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
	untranslated := rt.Retired != nil && rt.Retired.Status == http.StatusNotImplemented
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
