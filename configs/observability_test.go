package configs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
	yamlv3 "gopkg.in/yaml.v3"
)

// Every alert of the rules has a promtool unit test in which it fires and one in which
// it stays quiet (promtool test rules runs them in .ci/run).
func TestEveryAlertHasUnitTests(t *testing.T) {
	var rules struct {
		Groups []struct {
			Rules []struct{ Alert string }
		}
	}
	var tests struct {
		RuleFiles []string `yaml:"rule_files"`
		Tests     []struct {
			AlertRuleTest []struct {
				Alertname string
				ExpAlerts []any `yaml:"exp_alerts"`
			} `yaml:"alert_rule_test"`
		}
	}
	for file, into := range map[string]any{"v2bridge-alerts.yaml": &rules, "v2bridge-alerts_test.yaml": &tests} {
		b, err := os.ReadFile(filepath.Join("prometheus", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := yamlv3.Unmarshal(b, into); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	if len(tests.RuleFiles) != 1 || tests.RuleFiles[0] != "v2bridge-alerts.yaml" {
		t.Errorf("v2bridge-alerts_test.yaml tests %v, want [v2bridge-alerts.yaml]", tests.RuleFiles)
	}
	fires, quiet := map[string]bool{}, map[string]bool{}
	for _, tc := range tests.Tests {
		for _, a := range tc.AlertRuleTest {
			if len(a.ExpAlerts) > 0 {
				fires[a.Alertname] = true
			} else {
				quiet[a.Alertname] = true
			}
		}
	}
	n := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			n++
			if !fires[r.Alert] {
				t.Errorf("alert %s has no promtool test in which it fires", r.Alert)
			}
			if !quiet[r.Alert] {
				t.Errorf("alert %s has no promtool test in which it stays quiet", r.Alert)
			}
		}
	}
	if n == 0 {
		t.Fatal("no alert in v2bridge-alerts.yaml")
	}
}

// The dashboard has job and instance variables, and every series a panel reads is
// filtered by both.
func TestDashboardFiltersByJobAndInstance(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("grafana", "v2bridge-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Templating struct {
			List []struct{ Name, Type string }
		}
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, v := range dash.Templating.List {
		vars[v.Name] = v.Type
	}
	for _, name := range []string{"job", "instance"} {
		if vars[name] != "query" {
			t.Errorf("dashboard: no query variable %s", name)
		}
	}
	for _, p := range dash.Panels {
		for _, q := range p.Targets {
			expr, err := parser.ParseExpr(q.Expr)
			if err != nil {
				t.Errorf("panel %q: %v", p.Title, err)
				continue
			}
			parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
				vs, ok := node.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				has := map[string]bool{}
				for _, m := range vs.LabelMatchers {
					has[m.Name+m.Type.String()+m.Value] = true
				}
				if !has[`job=~$job`] || !has[`instance=~$instance`] {
					t.Errorf("panel %q: %s is not filtered by job=~\"$job\" and instance=~\"$instance\"", p.Title, vs)
				}
				return nil
			})
		}
	}
}
