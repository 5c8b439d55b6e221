package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

// normLegacyKey is a legacy key mapped in the normalisation tests' keys: section.
var normLegacyKey = strings.Repeat("nL", 24)

// A value written another way than the gateway compares it is either refused by
// config check or used as check accepted it: each case loads a file as check and serve
// do (loadEffective) and hands the effective value to what serve hands it to.
func TestConfigValuesWrittenAnotherWayAreUsedAsChecked(t *testing.T) {
	hash := translate.HashKey(normLegacyKey)
	// Two bodies that differ in a key REST compare ignores by default and in
	// health_status.
	a := []byte(`{"application":{"id":1,"health_status":"green","last_reported_at":"2026-11-20T12:00:00+00:00"}}`)
	b := []byte(`{"application":{"id":1,"health_status":"gray","last_reported_at":"2026-11-20T12:01:00+00:00"}}`)
	diff := func(t *testing.T, o migrate.CompareOptions) string {
		t.Helper()
		paths, err := migrate.DiffJSON(a, b, o)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(paths, " ")
	}
	mappedKey := func(t *testing.T, c fileConfig) {
		t.Helper()
		m, err := c.keyMap(func(string) string { return "NRAK-DEMO-ACCOUNT-1" })
		if err != nil {
			t.Fatal(err)
		}
		if mk, ok := m[hash]; !ok || mk.UserKey != "NRAK-DEMO-ACCOUNT-1" {
			t.Fatalf("the presented key's hash %s finds no mapping in %v", hash, m)
		}
	}
	trusts := func(addr string) func(*testing.T, fileConfig) {
		return func(t *testing.T, c fileConfig) {
			t.Helper()
			ps, err := trustedProxies(c.TrustedProxies)
			if err != nil {
				t.Fatal(err)
			}
			// The gateway compares a client's address unmapped (gateway/request.go trusted).
			a := netip.MustParseAddr(addr).Unmap()
			for _, p := range ps {
				if p.Contains(a) {
					return
				}
			}
			t.Fatalf("trusted_proxies %v hold no prefix containing %s", ps, addr)
		}
	}
	tests := []struct {
		name string
		yaml string
		use  func(*testing.T, fileConfig)
	}{
		{"keys[].sha256 in upper case", "keys:\n  - sha256: " + strings.ToUpper(hash) + "\n    user_key_env: NORM_USER_KEY\n", mappedKey},
		{"keys[].sha256 in mixed case between blanks", "keys:\n  - sha256: \"  " + strings.ToUpper(hash[:32]) + hash[32:] + " \"\n    user_key_env: NORM_USER_KEY\n", mappedKey},
		{"compare.ignore empty: the defaults", "compare:\n  ignore: []\n", func(t *testing.T, c fileConfig) {
			if got := diff(t, migrate.CompareOptions{Ignore: c.Compare.Ignore}); got != "$.application.health_status" {
				t.Fatalf("differences %q, want only $.application.health_status (last_reported_at ignored by default)", got)
			}
		}},
		{"compare.ignore in another case between blanks", "compare:\n  ignore: [\" Health_Status \", LAST_REPORTED_AT]\n", func(t *testing.T, c fileConfig) {
			if got := diff(t, migrate.CompareOptions{Ignore: c.Compare.Ignore}); got != "" {
				t.Fatalf("differences %q, want none (both keys ignored)", got)
			}
		}},
		{"compare.routes ignore empty: the route inherits compare.ignore", "compare:\n  ignore: [health_status, last_reported_at]\n  routes:\n    applications.show: {ignore: []}\n",
			func(t *testing.T, c fileConfig) {
				if got := diff(t, perRouteCompare(c.Compare)["applications.show"]); got != "" {
					t.Fatalf("differences %q, want none (compare.ignore inherited)", got)
				}
			}},
		{"compare.routes ignore in another case", "compare:\n  routes:\n    applications.show: {ignore: [Health_Status, Last_Reported_At]}\n",
			func(t *testing.T, c fileConfig) {
				if got := diff(t, perRouteCompare(c.Compare)["applications.show"]); got != "" {
					t.Fatalf("differences %q, want none", got)
				}
			}},
		{"trusted_proxies as an IPv4-mapped address", "trusted_proxies: [\"::ffff:10.0.0.7\"]\n", trusts("10.0.0.7")},
		{"trusted_proxies as an IPv4-mapped prefix", "trusted_proxies: [\"::ffff:10.0.0.0/104\"]\n", trusts("10.9.8.7")},
		{"trusted_proxies between blanks", "trusted_proxies: [\" 10.0.0.0/8 \"]\n", trusts("10.9.8.7")},
		{"rest_upstream with a trailing slash", "rest_upstream: https://rest.example.com/v2/\n", func(t *testing.T, c fileConfig) {
			if got, _ := c.restUpstream(); got != "https://rest.example.com/v2" {
				t.Fatalf("rest_upstream resolves to %q, want it without the slash", got)
			}
		}},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.Repeat("c", i+1)+".yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := loadEffective(path, []string{"NORM_USER_KEY=NRAK-DEMO-ACCOUNT-1"}, nil)
			if err != nil {
				t.Fatalf("config check refuses it: %v", err)
			}
			tt.use(t, c)
		})
	}
}

// A compare.routes entry that names no route (a route name in another case, say) is
// refused by config check: its settings would never apply.
func TestConfigCheckRefusesCompareRoutesNamingNoRoute(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2bridge.yaml")
	if err := os.WriteFile(path, []byte("compare:\n  routes:\n    Applications.Show: {tolerance: 0.2}\n    applications.list: {tolerance: 0.2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := loadEffective(path, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "compare.routes.Applications.Show: no route of that name") ||
		strings.Contains(err.Error(), "compare.routes.applications.list") {
		t.Fatalf("config check: %v, want Applications.Show refused and applications.list accepted", err)
	}
}

// The running gateway uses what config check accepted: a key hash in upper case
// between blanks maps the legacy key, a public_url with a trailing slash gives Link
// headers without a double slash, a trusted proxy written as an IPv4-mapped address
// is trusted for the IPv4 peer it names, an admin token read with blanks around it
// opens the report, and a prometheus_url with a trailing slash is asked at its API path.
func TestServeUsesValuesWrittenAnotherWay(t *testing.T) {
	upstream := demoUpstream(t)
	promPaths := make(chan string, 8)
	prom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case promPaths <- r.URL.Path:
		default:
		}
		_, _ = io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
	}))
	t.Cleanup(prom.Close)
	t.Setenv("V2BRIDGE_TEST_NORM_USER_KEY", "NRAK-DEMO-ACCOUNT-1")
	t.Setenv("V2BRIDGE_TEST_NORM_TOKEN", "  n0rm-token \n")
	cfg := "upstream: " + upstream.URL + sim.Path + "\npublic_url: \"http://gw.example.com/\"\n" +
		"trusted_proxies: [\"::ffff:127.0.0.1\"]\nreport:\n  admin_token_env: V2BRIDGE_TEST_NORM_TOKEN\n  prometheus_url: " + prom.URL + "/\n" +
		"keys:\n  - sha256: \" " + strings.ToUpper(translate.HashKey(normLegacyKey)) + " \"\n" +
		"    user_key_env: V2BRIDGE_TEST_NORM_USER_KEY\n    account_id: 1000001\n"
	path := filepath.Join(t.TempDir(), "check.yaml")
	if err := os.WriteFile(path, []byte("listen: 127.0.0.1:0\n"+cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"config", "check", path}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
		t.Fatalf("config check: %v", err)
	}
	sv := startServe(t, cfg)
	do := func(path string, hdr ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, sv.base+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	r := do("/v2/applications.json", "X-Api-Key", normLegacyKey, "X-Forwarded-For", "192.0.2.9")
	if r.StatusCode != 200 {
		t.Fatalf("legacy key mapped by an upper-case hash: %d", r.StatusCode)
	}
	if link := r.Header.Get("Link"); !strings.Contains(link, "<http://gw.example.com/v2/applications.json?page=2>") {
		t.Errorf("Link %q, want it on http://gw.example.com/v2/ (no double slash)", link)
	}
	if r := do("/v2bridge/report.json", "Authorization", "Bearer n0rm-token"); r.StatusCode != 200 {
		t.Errorf("report with the trimmed token: %d", r.StatusCode)
	}
	select {
	case p := <-promPaths:
		if p != "/api/v1/query" {
			t.Errorf("the report asked Prometheus at %q, want /api/v1/query (prometheus_url's trailing slash dropped)", p)
		}
	default:
		t.Error("the report did not ask Prometheus")
	}
	if err := sv.stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sv.logs.String(), `"forwarded_for":"192.0.2.9"`) {
		t.Errorf("the access log does not attribute the request behind the trusted ::ffff:127.0.0.1 to 192.0.2.9:\n%.2000s", sv.logs.String())
	}
}
