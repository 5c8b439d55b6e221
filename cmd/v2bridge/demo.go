package main

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/restdouble"
)

// demoRESTPrefix is where the demo's listener serves the REST v2 double: REST's own
// paths follow it (…/rest/v2/applications.json).
const demoRESTPrefix = "/rest"

// demoGraphQLPath is where the demo's listener serves the NerdGraph simulator.
const demoGraphQLPath = "/graphql"

// demoListen is the demo's default address (demoFlags, the Makefile's LISTEN).
const demoListen = "127.0.0.1:8080"

// demoRoutesExample is the --routes value the banner suggests.
const demoRoutesExample = "applications.list=compare,alerts_policies.list=passthrough"

// demoHandler serves the REST v2 double under demoRESTPrefix, the simulator at
// demoGraphQLPath (the gateway's own upstream, so the banner's verify command names
// the demo's one address) and the gateway elsewhere. The double has the gateway's
// admission, limits and throttles (gateway.Guard with guard's settings; the demo gives
// the gateway's defaults). The paths are told apart by prefix, not by net/http's
// ServeMux, which would answer a path with an empty, '.' or '..' segment with a
// redirect: the gateway and the guard answer such a path with a v2 404.
func demoHandler(gw, simulator http.Handler, guard gateway.Config) (http.Handler, error) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return nil, fmt.Errorf("demo data: %w", err)
	}
	double := gateway.NewGuard(guard).Wrap(
		http.StripPrefix(demoRESTPrefix, restdouble.New(data, restdouble.Options{Summary: sim.DemoSummaries(data)})))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, demoRESTPrefix+"/v2/"):
			double.ServeHTTP(w, r)
		case r.URL.Path == demoGraphQLPath:
			simulator.ServeHTTP(w, r)
		default:
			gw.ServeHTTP(w, r)
		}
	}), nil
}

// programName is how the banner names this program so that its commands work as pasted
// where the demo was started: "v2bridge" when it was found on PATH, otherwise
// bin/v2bridge, where `make run` and `make build` put it (a test binary or a `go run`
// build lives in a temporary directory nobody should paste).
func programName(arg0 string) string {
	if arg0 == "v2bridge" {
		return arg0
	}
	return "bin/v2bridge"
}

// demoRestart is the command that restarts the demo with route modes: under make
// (which exports MAKELEVEL to its recipes) make run's ARGS, otherwise the program itself.
func demoRestart(getenv func(string) string, prog, listen string) string {
	if getenv("MAKELEVEL") != "" {
		cmd := "make run"
		if listen != demoListen {
			cmd += " LISTEN=" + listen
		}
		return cmd + " ARGS='--routes " + demoRoutesExample + "'"
	}
	cmd := prog + " demo"
	if listen != demoListen {
		cmd += " --listen " + listen
	}
	return cmd + " --routes " + demoRoutesExample
}

// demoModesLine says which routes run in which mode.
func demoModesLine(modes map[string]gateway.Mode) string {
	if len(modes) == 0 {
		return "Modes: every route translates (no --routes)."
	}
	pairs := make([]string, 0, len(modes))
	for name, m := range modes {
		pairs = append(pairs, name+"="+string(m))
	}
	sort.Strings(pairs)
	return "Modes: " + strings.Join(pairs, ", ") + "; every other route translates."
}

// demoPrinted is what the banner is built from.
type demoPrinted struct {
	base, endpoint, prog, restart string
	modes                         map[string]gateway.Mode
}

// demoBanner is what the demo prints: commands that work as pasted into a POSIX shell
// where the demo was started (-g keeps curl from reading filter[...] as a range) and
// print a screenful at most (TestQuickStartCommandsWork runs each of them).
func demoBanner(p demoPrinted) string {
	return fmt.Sprintf(`v2bridge demo: REST API v2 on %[1]s, answered from the NerdGraph simulator at %[2]s
%[6]s

Try:
  curl -gi -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' '%[1]s/v2/applications.json?filter[ids]=314221522'
  curl -sg -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' '%[1]s/v2/applications.xml?filter[name]=checkout' | head -n 25
  curl -s -D - -o /dev/null -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' %[1]s/v2/applications.json
  curl -sg -H 'X-Api-Key: NRAK-DEMO-MULTI' -H 'X-Account-ID: 1000002' '%[1]s/v2/applications.json?filter[ids]=527085889'

Keys: NRAK-DEMO-ACCOUNT-1 (account 1000001), NRAK-DEMO-ACCOUNT-2 (1000002), NRAK-DEMO-MULTI (both).
REST v2 double (the same data in REST's published shapes; a tool, not REST itself):
  curl -s -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' %[1]s/rest/v2/alerts_policies.json
Compare it with the translation (writes v2bridge-verify.html and .json here):
  NEW_RELIC_API_KEY=NRAK-DEMO-ACCOUNT-1 %[4]s verify --rest %[1]s/rest/v2 --upstream %[2]s --sample 1
Compare or pass through routes: Ctrl-C, then
  %[5]s
Usage report (also .json, and an HTML page without the suffix):
  curl -H 'Authorization: Bearer %[3]s' %[1]s/v2bridge/report.csv
Operations:
  curl %[1]s/healthz
  curl %[1]s/readyz
  curl -s %[1]s/metrics | grep -m 20 '^v2bridge_'
Ctrl-C stops the demo.
`, p.base, p.endpoint, demoReportToken, p.prog, p.restart, demoModesLine(p.modes))
}

// demoModes parses --routes: comma-separated ROUTE=MODE pairs, checked as serve checks
// its routes key.
func demoModes(flagValue string) (map[string]gateway.Mode, error) {
	routes := map[string]string{}
	for _, pair := range strings.Split(flagValue, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		name, mode, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("demo --routes: %q is not ROUTE=MODE", pair)
		}
		routes[strings.TrimSpace(name)] = strings.TrimSpace(mode)
	}
	modes, err := fileConfig{Routes: routes}.modes()
	if err != nil {
		return nil, fmt.Errorf("demo --routes: %w", err)
	}
	return modes, nil
}
