package migrate

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// ExplainSample is a sample request of a route, for its explanation: the usage report
// links each route to it, and the tests explain every route with it.
type ExplainSample struct {
	Line string // "METHOD /v2/..."
	Body string // a write's JSON or form body
}

// sampleExtras is what a route's sample needs beyond its path: the parameters a read
// requires, the body a write needs. Bodies follow REST v2's request shapes.
func sampleExtras(route string) (query, body string) {
	switch route {
	case "applications.update":
		return "", `{"application":{"name":"Checkout","settings":{"app_apdex_threshold":0.5}}}`
	case "applications.metric_data", "application_hosts.metric_data", "application_instances.metric_data":
		return "names[]=HttpDispatcher&values[]=call_count", ""
	case "mobile_applications.metric_data":
		return "names[]=Mobile/Crash/All&values[]=call_count", ""
	case "deployments.create":
		return "", `{"deployment":{"revision":"v1.2.3","description":"Release","user":"ci"}}`
	case "deployments.v0":
		return "", "deployment[application_id]=123&deployment[revision]=v1.2.3"
	case "browser_applications.create":
		return "", `{"browser_application":{"name":"Marketing Site"}}`
	case "mobile_applications.create":
		return "", `{"mobile_application":{"name":"Shop iOS"}}`
	case "alerts_policies.create":
		return "", `{"policy":{"name":"Checkout","incident_preference":"PER_POLICY"}}`
	case "alerts_policies.update":
		return "", `{"policy":{"name":"Checkout (renamed)"}}`
	case "alerts_conditions.list", "alerts_nrql_conditions.list", "alerts_synthetics_conditions.list":
		return "policy_id=1001", ""
	case "alerts_entity_conditions.list":
		return "entity_type=Application", ""
	case "alerts_entity_conditions.add", "alerts_entity_conditions.remove":
		return "entity_type=Application&condition_id=6101", ""
	case "alerts_nrql_conditions.create":
		return "", `{"nrql_condition":{"type":"static","name":"Slow checkout","enabled":true,` +
			`"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],` +
			`"nrql":{"query":"SELECT average(duration) FROM Transaction WHERE appName = 'Checkout'"}}}`
	case "alerts_nrql_conditions.update":
		return "", `{"nrql_condition":{"type":"static","name":"Slow checkout (p95)"}}`
	}
	return "", ""
}

// sampleID is the value a sample puts in a path variable.
func sampleID(name string) string {
	switch name {
	case "id":
		return "123"
	case "host_id":
		return "456"
	case "instance_id":
		return "789"
	case "policy_id":
		return "1001"
	}
	return "1"
}

var pathVarRe = regexp.MustCompile(`\{(\w+)(:[^}]*)?\}`)

// SampleRequest is the sample request of the route named name (false when there is no
// such route).
func SampleRequest(name string) (ExplainSample, bool) {
	rt, ok := routeNamed(name)
	if !ok || len(rt.Methods) == 0 {
		return ExplainSample{}, false
	}
	path := pathVarRe.ReplaceAllStringFunc(rt.Path, func(v string) string {
		return sampleID(pathVarRe.FindStringSubmatch(v)[1])
	})
	switch {
	case rt.Legacy:
		path += ".xml"
	case strings.HasSuffix(path, "/"):
		path = "/v2" + path + "1.json"
	default:
		path = "/v2" + path + ".json"
	}
	query, body := sampleExtras(name)
	if query != "" {
		path += "?" + query
	}
	return ExplainSample{Line: rt.Methods[0] + " " + path, Body: body}, true
}

// explainLink is the /v2bridge/explain address of a route's sample request, scoped to
// account when it is known; "" for names outside the route table.
func explainLink(route string, account int64) string {
	s, ok := SampleRequest(route)
	if !ok {
		return ""
	}
	q := "request=" + queryEscape(s.Line)
	if s.Body != "" {
		q += "&body=" + queryEscape(s.Body)
	}
	if account > 0 {
		q += "&account=" + strconv.FormatInt(account, 10)
	}
	return "/v2bridge/explain?" + q
}

// queryEscape escapes a query value with %20 for spaces (a + reads as a space only
// in form encoding, and HTML escapes it).
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
