package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/v2bridge/v2bridge/sim"
)

// The dashboard and the alert rules of configs/ reference only metrics and labels a real
// gateway exports: serve runs against the simulator with a route in compare mode (its
// REST side a local stand-in), traffic goes through it, and every selector, grouping
// and matching label of every expression is checked against the /metrics scrape.
// The rules parse with Prometheus's own rule parser (rulefmt, which also parses each
// expression with promql/parser), the dashboard's queries with promql/parser.
func TestDashboardAndAlertsMatchMetrics(t *testing.T) {
	families, _ := scrapeAfterTraffic(t)
	exprs := map[string]string{} // where → expression
	rules, errs := rulefmt.ParseFile(filepath.Join("..", "..", "configs", "prometheus", "v2bridge-alerts.yaml"))
	for _, err := range errs {
		t.Errorf("alert rules: %v", err)
	}
	alerts := map[string]bool{}
	if rules != nil {
		for _, g := range rules.Groups {
			for _, r := range g.Rules {
				exprs["rule "+r.Alert.Value+r.Record.Value] = r.Expr.Value
				alerts[r.Alert.Value] = true
			}
		}
	}
	for _, want := range []string{"V2bridgeHigh5xxRatio", "V2bridgeNerdGraphBreakerOpen", "V2bridgeNerdGraphSlow", "V2bridgeCompareDiffRate", "V2bridgeShedding"} {
		if !alerts[want] {
			t.Errorf("alert rules lack %s", want)
		}
	}
	var dash struct {
		Panels []struct {
			ID      int
			Type    string
			Title   string
			Targets []struct{ Expr, RefID string }
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "configs", "grafana", "v2bridge-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	ids := map[int]bool{}
	for _, p := range dash.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type != "row" && len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			exprs[fmt.Sprintf("panel %q %s", p.Title, q.RefID)] = q.Expr
		}
	}
	used := map[string]bool{}
	for where, text := range exprs {
		expr, err := parser.ParseExpr(text)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		for _, problem := range checkExpr(expr, families, used) {
			t.Errorf("%s: %s", where, problem)
		}
	}
	// The panels cover what operators asked for.
	for _, name := range []string{"v2bridge_requests_total", "v2bridge_v2_calls_total", "v2bridge_upstream_duration_seconds",
		"v2bridge_upstream_round_trips_per_request", "v2bridge_cache_requests_total", "v2bridge_upstream_breaker_open",
		"v2bridge_rate_limited_total", "v2bridge_compare_total", "v2bridge_rest_v2_shutdown_remaining_seconds",
		"v2bridge_large_answer_wait_seconds", "v2bridge_store_up", "v2bridge_store_errors_total",
		"v2bridge_store_cache_total", "v2bridge_auth_refused_total"} {
		if !used[name] {
			t.Errorf("no panel or rule uses %s", name)
		}
	}
}

// checkExpr returns what expr references that the scrape lacks. Prometheus adds job and
// instance when it scrapes; histogram series add le.
func checkExpr(expr parser.Expr, families map[string]map[string]bool, used map[string]bool) []string {
	var problems []string
	var labelsHere []map[string]bool
	family := func(name string) (string, map[string]bool) {
		if l, ok := families[name]; ok {
			return name, l
		}
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base := strings.TrimSuffix(name, suffix); base != name {
				if l, ok := families[base]; ok {
					return base, l
				}
			}
		}
		return "", nil
	}
	target := map[string]bool{"job": true, "instance": true, "le": true, "__name__": true}
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		if vs, ok := node.(*parser.VectorSelector); ok {
			base, labels := family(vs.Name)
			if labels == nil {
				problems = append(problems, "metric "+vs.Name+" is not exported")
				return nil
			}
			used[base] = true
			labelsHere = append(labelsHere, labels)
			for _, m := range vs.LabelMatchers {
				if !labels[m.Name] && !target[m.Name] {
					problems = append(problems, fmt.Sprintf("%s has no label %s", vs.Name, m.Name))
				}
			}
		}
		return nil
	})
	known := func(l string) bool {
		if target[l] {
			return true
		}
		for _, labels := range labelsHere {
			if labels[l] {
				return true
			}
		}
		return false
	}
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		var names []string
		switch n := node.(type) {
		case *parser.AggregateExpr:
			names = n.Grouping
		case *parser.BinaryExpr:
			if n.VectorMatching != nil {
				names = append(names, n.VectorMatching.MatchingLabels...)
				names = append(names, n.VectorMatching.Include...)
			}
		}
		for _, l := range names {
			if !known(l) {
				problems = append(problems, "label "+l+" is on none of the expression's metrics")
			}
		}
		return nil
	})
	return problems
}

// scrapeAfterTraffic runs serve (compare mode on applications.show, a fleet store with the
// shared cache), sends requests of every kind the panels show and returns the scraped
// families with their label names, and the log serve wrote.
func scrapeAfterTraffic(t *testing.T) (map[string]map[string]bool, string) {
	t.Helper()
	families, _, logs := scrapeText(t)
	return families, logs
}

// scrapeText is scrapeAfterTraffic that also returns the /metrics text.
func scrapeText(t *testing.T) (map[string]map[string]bool, string, string) {
	t.Helper()
	upstream := demoUpstream(t)
	store := miniredis.RunT(t)
	// The REST side of compare mode: an application that differs from the gateway's.
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"application":{"id":314221522,"name":"somewhere else"}}`)
	}))
	defer rest.Close()
	srv := startServe(t, "upstream: "+upstream.URL+sim.Path+"\nrest_upstream: "+rest.URL+"/v2\n"+
		"routes:\n  applications.show: compare\ncompare:\n  primary: graph\n"+
		"store:\n  url: redis://"+store.Addr()+"/0\n  shared_cache: true\n")
	base := srv.base
	getAs := func(key, path string) string {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	get := func(path string) string { return getAs("NRAK-DEMO-ACCOUNT-1", path) }
	// NerdGraph refuses the key, then the gateway refuses it without asking again.
	getAs("NRAK-NOT-A-DEMO-KEY", "/v2/applications.json")
	getAs("NRAK-NOT-A-DEMO-KEY", "/v2/applications.json")
	for _, p := range []string{"/v2/applications.json", "/v2/applications.json", "/v2/applications/314221522.json",
		"/v2/applications/1.json", "/v2/deployments/1.json"} {
		get(p)
	}
	var families map[string]*dto
	var text string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		text = get("/metrics")
		families = parseScrape(t, text)
		if _, ok := families["v2bridge_compare_total"]; ok || time.Now().After(deadline) {
			break
		}
	}
	out := map[string]map[string]bool{}
	var names []string
	for name, f := range families {
		out[name] = f.labels
		names = append(names, name)
	}
	sort.Strings(names)
	if _, ok := out["v2bridge_compare_total"]; !ok {
		t.Fatalf("no comparison was counted; families: %v", names)
	}
	if err := srv.stop(); err != nil { // serve writes its buffered log lines as it stops
		t.Errorf("serve: %v", err)
	}
	return out, text, srv.logs.String()
}

type dto struct{ labels map[string]bool }

func parseScrape(t *testing.T, text string) map[string]*dto {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("/metrics: %v", err)
	}
	out := map[string]*dto{}
	for name, f := range fams {
		d := &dto{labels: map[string]bool{}}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				d.labels[l.GetName()] = true
			}
		}
		out[name] = d
	}
	return out
}

// promtool's linter (promtool check metrics: base units, counter suffixes, help texts)
// accepts the gateway's /metrics after traffic of every kind. It needs promtool on PATH
// (Debian's prometheus package); .ci/run installs it in CI, where its absence fails.
func TestMetricsPassPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("promtool is not installed (.ci/run installs Debian's prometheus package)")
		}
		t.Skip("promtool is not installed")
	}
	_, text, _ := scrapeText(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}
