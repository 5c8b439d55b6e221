package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// A value of the wrong type is named by its line and key with the form the key takes,
// and every URL key needs a scheme and a host: config check lists each with its fix, and
// what it accepts is what serve runs with (us/eu in either case, a variable's value
// without surrounding spaces).
func TestConfigCheckNamesTheKeyAndTheFix(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		env        []string
		want       []string // each in the error; none: no error mentions the key
	}{
		{"duration without a unit", "request_timeout: 5\n", nil,
			[]string{"line 1: request_timeout: `5` is not a duration: write it with a unit, such as 5s"}},
		{"nested duration", "cache:\n  list_ttl: soon\n", nil, []string{"line 2: cache.list_ttl: `soon` is not a duration"}},
		{"integer", "max_in_flight: lots\n", nil, []string{"line 1: max_in_flight: `lots` is not a whole number, such as 10"}},
		{"number", "compare:\n  tolerance: high\n", nil, []string{"line 2: compare.tolerance: `high` is not a number, such as 0.05"}},
		{"boolean", "unmatched_passthrough: maybe\n", nil, []string{"line 1: unmatched_passthrough: `maybe` is not true or false"}},
		{"mapping given a value", "store: 5\n", nil, []string{"line 1: store: `5` is not a mapping of keys"}},
		{"map given a list", "routes: [applications.list]\n", nil, []string{"line 1: routes: a list is not a mapping"}},
		{"list given a mapping", "trusted_proxies:\n  a: b\n", nil, []string{"line 2: trusted_proxies: a mapping is not a list"}},
		{"value given a list", "log_level: [debug]\n", nil, []string{"line 1: log_level: a list is not a single value"}},
		{"public_url without a scheme", "public_url: example.com\n", nil,
			[]string{`public_url: "example.com" has no http:// or https:// scheme; write it whole, such as https://example.com`}},
		{"public_url with a query", "public_url: https://example.com/?a=1\n", nil, []string{"public_url:", "query"}},
		{"public_url from the environment, spaces around", "", []string{"V2BRIDGE_PUBLIC_URL= https://gw.example.com "}, nil},
		{"upstream without a scheme", "upstream: api.newrelic.com/graphql\n", nil, []string{"upstream:", "https://api.newrelic.com/graphql"}},
		{"rest_upstream without a scheme", "rest_upstream: api.newrelic.com/v2\n", nil,
			[]string{`rest_upstream: not us or eu, and "api.newrelic.com/v2" has no http:// or https:// scheme`}},
		{"rest_upstream without a host", "rest_upstream: 'https:///v2'\n", nil, []string{"rest_upstream:", "names no host"}},
		{"rest_upstream in capitals, as upstream takes it", "upstream: EU\nrest_upstream: EU\n", nil, nil},
		{"store url without a scheme", "store:\n  url: redis.internal:6379\n", nil, []string{"store.url:", "such as redis://"}},
		{"prometheus_url without a scheme", "report:\n  prometheus_url: prometheus:9090\n", nil, []string{"report.prometheus_url:", "scheme"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := loadEffective(path, tc.env, nil)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if _, err := cfg.restUpstream(); err != nil {
					t.Errorf("serve would refuse what config check accepts: %v", err)
				}
				if tc.env != nil && cfg.PublicURL != "https://gw.example.com" {
					t.Errorf("public_url %q, want it without the spaces", cfg.PublicURL)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "cannot unmarshal") {
				t.Errorf("error speaks yaml's words:\n%v", err)
			}
		})
	}
}

// The Kubernetes base's configuration passes config check with the variables its
// Deployment sets (alone, and in fleet mode with the fleet overlay's store URL).
func TestKubernetesConfigMapPassesConfigCheck(t *testing.T) {
	b := mustRead(t, "..", "..", "configs", "k8s", "base", "configmap.yaml")
	var cm struct {
		Data map[string]string `yaml:"data"`
	}
	if err := yaml.Unmarshal(b, &cm); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v2bridge.yaml")
	if err := os.WriteFile(path, []byte(cm.Data["v2bridge.yaml"]), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"V2BRIDGE_USER_KEY_TEAM_A=NRAK-X", "V2BRIDGE_REPORT_TOKEN=t", "V2BRIDGE_MEMORY_LIMIT=268435456"}
	for _, extra := range [][]string{nil, {"V2BRIDGE_STORE_URL=redis://v2bridge-valkey:6379/0", "V2BRIDGE_STORE_PASSWORD=p"}} {
		cfg, err := loadEffective(path, append(env, extra...), nil)
		if err == nil {
			err = cfg.unknownEnv(append(env, extra...))
		}
		if err != nil {
			t.Errorf("with %v: %v", extra, err)
		}
	}
}
