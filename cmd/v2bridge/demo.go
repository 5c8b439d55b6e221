package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/graphql/sim"
	"github.com/v2bridge/v2bridge/migrate/restdouble"
)

// demoRESTPrefix is where the demo's listener serves the REST v2 double: REST's own
// paths follow it (…/rest/v2/applications.json).
const demoRESTPrefix = "/rest"

// demoHandler serves the REST v2 double under demoRESTPrefix and the gateway elsewhere.
// The double has the gateway's admission, limits and throttles (gateway.Guard with
// guard's settings; the demo gives the gateway's defaults). The paths are told apart by prefix, not by net/http's
// ServeMux, which would answer a path with an empty, '.' or '..' segment with a
// redirect: the gateway and the guard answer such a path with a v2 404.
func demoHandler(gw http.Handler, guard gateway.Config) (http.Handler, error) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return nil, fmt.Errorf("demo data: %w", err)
	}
	double := gateway.NewGuard(guard).Wrap(
		http.StripPrefix(demoRESTPrefix, restdouble.New(data, restdouble.Options{Summary: sim.DemoSummaries(data)})))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, demoRESTPrefix+"/v2/") {
			double.ServeHTTP(w, r)
			return
		}
		gw.ServeHTTP(w, r)
	}), nil
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
