package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/v2bridge/v2bridge/sim"
)

// The store keys are checked by config check, each problem naming its key; a URL
// holding a password is refused (config check prints the configuration).
func TestStoreConfigCheck(t *testing.T) {
	env := map[string]string{"STORE_PW": "secret"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name string
		s    storeConfig
		want string // "" = valid
	}{
		{"unset", storeConfig{Timeout: time.Second}, ""},
		{"redis", storeConfig{URL: "redis://valkey:6379/0", Timeout: time.Second}, ""},
		{"rediss with env password", storeConfig{URL: "rediss://user@valkey:6380", PasswordEnv: "STORE_PW", Timeout: time.Second}, ""},
		{"password in the URL", storeConfig{URL: "redis://user:hunter2@valkey:6379", Timeout: time.Second}, "store.url: holds a password"},
		{"other scheme", storeConfig{URL: "http://valkey:6379", Timeout: time.Second}, "store.url:"},
		{"no host", storeConfig{URL: "redis://", Timeout: time.Second}, "store.url:"},
		{"missing env", storeConfig{URL: "redis://valkey:6379", PasswordEnv: "NOPE", Timeout: time.Second}, "store.password_env: environment variable NOPE"},
		{"no timeout", storeConfig{}, "store.timeout: must be positive"},
		{"shared cache", storeConfig{URL: "redis://valkey:6379", Timeout: time.Second, SharedCache: true,
			SharedCacheEntryBytes: 1 << 18, SharedCacheMaxBytes: 1 << 26}, ""},
		{"shared cache without url", storeConfig{Timeout: time.Second, SharedCache: true,
			SharedCacheEntryBytes: 1 << 18, SharedCacheMaxBytes: 1 << 26}, "store.shared_cache: needs store.url"},
		{"shared cache without bounds", storeConfig{URL: "redis://valkey:6379", Timeout: time.Second, SharedCache: true},
			"store.shared_cache_entry_bytes and store.shared_cache_max_bytes: must be positive"},
		{"shared cache entry over half the total", storeConfig{URL: "redis://valkey:6379", Timeout: time.Second, SharedCache: true,
			SharedCacheEntryBytes: 1 << 20, SharedCacheMaxBytes: 1 << 20}, "store.shared_cache_entry_bytes: 1048576 is more than half"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.check(getenv)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("the error repeats the password: %v", err)
			}
		})
	}
}

// Two `serve` processes (in-process) with store.url pointing at one Redis (miniredis,
// with a password from the environment) count the rate limit together: the second
// replica's X-RateLimit-Remaining continues from the first's, and /readyz?verbose
// names the store. The password never reaches the log.
func TestServeFleet(t *testing.T) {
	upstream := demoUpstream(t)
	m := miniredis.RunT(t)
	m.RequireAuth("store-pw-123")
	t.Setenv("V2BRIDGE_TEST_STORE_PASSWORD", "store-pw-123")

	var replicas []*served
	var bases []string
	for range 2 {
		r := startServe(t, "upstream: "+upstream.URL+sim.Path+"\nrate_limit_per_minute: 10\n"+
			"store:\n  url: redis://"+m.Addr()+"/0\n  password_env: V2BRIDGE_TEST_STORE_PASSWORD\n  key_prefix: \"fleet"+"-test:\"\n")
		replicas = append(replicas, r)
		bases = append(bases, r.base)
	}
	remaining := func(base string) string {
		req, _ := http.NewRequest("GET", base+"/v2/applications.json", nil)
		req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("X-RateLimit-Remaining")
	}
	if a, b := remaining(bases[0]), remaining(bases[1]); a != "9" || b != "8" {
		t.Fatalf("X-RateLimit-Remaining through A then B: %s, %s; want 9, 8 (one fleet-wide count)", a, b)
	}
	resp, err := http.Get(bases[1] + "/readyz?verbose")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "store: ok") {
		t.Fatalf("/readyz?verbose: %s", b)
	}
	if len(m.Keys()) == 0 || !strings.HasPrefix(m.Keys()[0], "fleet-test:") {
		t.Fatalf("store keys %v, want the key_prefix", m.Keys())
	}
	for _, r := range replicas {
		if err := r.stop(); err != nil {
			t.Fatalf("serve: %v", err)
		}
	}
	if strings.Contains(replicas[0].logs.String()+replicas[1].logs.String(), "store-pw-123") {
		t.Fatal("the store password reached the log")
	}
}
