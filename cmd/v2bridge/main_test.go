package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

// The documented configuration file states exactly the defaults.
func TestDocumentedConfigIsDefault(t *testing.T) {
	cfg, err := loadConfig(filepath.Join("..", "..", "configs", "v2bridge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Keys = nil
	if len(cfg.Routes) == 0 {
		cfg.Routes = nil
	}
	if len(cfg.Compare.Ignore) == 0 {
		cfg.Compare.Ignore = nil
	}
	if len(cfg.Compare.Routes) == 0 {
		cfg.Compare.Routes = nil
	}
	if want := defaultConfig(); !reflect.DeepEqual(cfg, want) {
		t.Fatalf("configs/v2bridge.yaml = %+v\ndefaults = %+v", cfg, want)
	}
	if err := cfg.validate(func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
}

func TestConfigCheckErrorsNameTheKey(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, yaml string
		wantPaths  []string
	}{
		{"negative timeout", "request_timeout: -1s\n", []string{"request_timeout"}},
		{"unknown upstream", "upstream: mars\n", []string{"upstream"}},
		{"negative cache lifetimes", "cache:\n  entity_ttl: -1s\n  metric_data_ttl: -1m\n", []string{"cache.entity_ttl", "cache.metric_data_ttl"}},
		{"name index refreshed past its max staleness", "cache:\n  name_index_refresh: 2h\n  name_indexes: 0\n",
			[]string{"cache.name_index_refresh", "cache.name_index_max_stale", "cache.name_indexes"}},
		{"unknown route and mode", "routes:\n  nope.list: passthrough\n  applications.show: shadow\n", []string{"routes.nope.list", "routes.applications.show"}},
		{"unknown key", "listen: ':1'\nlisten_adress: x\n", []string{"listen_adress"}},
		{"missing env for a mapped key", "keys:\n  - sha256: " + strings.Repeat("ab", 32) + "\n    user_key_env: V2BRIDGE_TEST_UNSET_VARIABLE\n",
			[]string{"keys[0].user_key_env", "V2BRIDGE_TEST_UNSET_VARIABLE"}},
		{"unparsable listen", "listen: not-an-address\n", []string{"listen", "not-an-address"}},
		{"listen port out of range", "listen: ':70000'\npprof_listen: 'localhost'\n", []string{"listen", "70000", "pprof_listen"}},
		{"upstream timeout longer than the request", "request_timeout: 10s\nupstream_timeout: 30s\n", []string{"upstream_timeout", "request_timeout"}},
		{"answer memory below two large answers", "answer_memory: 1000\n", []string{"answer_memory", "524288"}},
		{"answer memory below -1", "answer_memory: -2\n", []string{"answer_memory"}},
		{"admission bounds", "max_unauthenticated_in_flight: 0\nbody_grace: 0s\ntrusted_proxies: [10.0.0.0/8, not-a-proxy]\n",
			[]string{"max_unauthenticated_in_flight", "body_grace", "trusted_proxies", "not-a-proxy"}},
		{"every problem listed", "listen: nope\nrequest_timeout: 5s\nupstream_timeout: 6s\nlog_level: loud\n", []string{"listen", "upstream_timeout", "log_level"}},
		{"bad hash and bad level", "log_level: loud\nkeys:\n  - sha256: nothex\n    user_key_file: /nonexistent\n",
			[]string{"log_level", "keys[0].sha256", "keys[0].user_key_file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"config", "check", path}, {"serve", "--config", path}} {
				var out, errOut bytes.Buffer
				err := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
				if err == nil {
					t.Fatalf("%v: no error", args)
				}
				for _, p := range tt.wantPaths {
					if !strings.Contains(err.Error(), p) {
						t.Errorf("%v: error %q does not name %s", args, err, p)
					}
				}
			}
		})
	}
}

// answer_memory and upstream_timeout reach the NerdGraph client's options: serve's
// client is built from upstreamOptions.
func TestUpstreamOptionsFromConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		yaml    string
		timeout time.Duration
		memory  int64
	}{
		{"", 30 * time.Second, 0},
		{"upstream_timeout: 20s\nanswer_memory: 8388608\n", 20 * time.Second, 8 << 20},
		{"answer_memory: -1\n", 30 * time.Second, -1},
		{"answer_memory: 524288\n", 30 * time.Second, 512 << 10},
	} {
		path := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(path, []byte(tt.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := loadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.validate(func(string) string { return "" }); err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		if o := cfg.upstreamOptions(); o.Timeout != tt.timeout || o.AnswerMemory != tt.memory ||
			o.SlotWait != ng.DefaultSlotWait || o.BackgroundSlots != ng.DefaultBackgroundSlots {
			t.Errorf("%q: timeout %v, answer memory %d; want %v, %d", tt.yaml, o.Timeout, o.AnswerMemory, tt.timeout, tt.memory)
		}
	}
}

func TestConfigCheckRedactsAndHashKey(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "user.key")
	if err := os.WriteFile(secret, []byte("NRAK-SECRETUSERKEY0000000000000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var hash bytes.Buffer
	legacy := strings.Repeat("Ab", 24) // a 48-character legacy REST key
	if err := run(context.Background(), []string{"hash-key"}, strings.NewReader(legacy+"\n"), &hash, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSpace(hash.String())
	if len(h) != 64 {
		t.Fatalf("hash-key printed %q", h)
	}
	path := filepath.Join(dir, "c.yaml")
	yaml := "keys:\n  - sha256: " + h + "\n    user_key_file: " + secret + "\n    account_id: 1000001\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"config", "check", path}, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "SECRETUSERKEY") || strings.Contains(out.String(), legacy) || !strings.Contains(out.String(), h) {
		t.Fatalf("config check output:\n%s", out.String())
	}
}

func TestEnvironmentOverridesFile(t *testing.T) {
	cfg := defaultConfig()
	env := map[string]string{"V2BRIDGE_LISTEN": "127.0.0.1:9", "V2BRIDGE_REQUEST_TIMEOUT": "5s",
		"V2BRIDGE_DEFAULT_ACCOUNT_ID": "1000002", "V2BRIDGE_REJECT_UNMAPPED_LEGACY_KEYS": "true"}
	if err := cfg.applyEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:9" || cfg.RequestTimeout.String() != "5s" || cfg.DefaultAccountID != 1000002 || !cfg.RejectUnmappedLegacyKeys {
		t.Fatalf("%+v", cfg)
	}
	bad := map[string]string{"V2BRIDGE_UPSTREAM_TIMEOUT": "soon"}
	err := cfg.applyEnv(func(k string) string { return bad[k] })
	if err == nil || !strings.Contains(err.Error(), "upstream_timeout") {
		t.Fatalf("err = %v", err)
	}
}

// Shutdown (SIGTERM cancels the context in main) lets an in-flight slow request
// finish and returns without error.
func TestGracefulShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond) // a slow upstream call
		_, _ = w.Write([]byte("done"))
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveUntil(ctx, ln, h, zap.NewNop()) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	<-started
	cancel()
	if body := <-got; body != "done" {
		t.Fatalf("in-flight request got %q", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("serveUntil = %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/again"); err == nil {
		t.Fatal("still accepting after shutdown")
	}
}

// `serve` with a config that maps a 48-character legacy REST key to a user key taken
// from the environment: the legacy key reads account 1's applications, and neither key
// ever reaches the log or /metrics.
func TestServeLegacyKeyNeverLogged(t *testing.T) {
	upstream := demoUpstream(t)

	const userKey = "NRAK-DEMO-ACCOUNT-1"
	legacy := strings.Repeat("kL", 24)
	t.Setenv("V2BRIDGE_TEST_USER_KEY", userKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "v2bridge.yaml")
	t.Setenv("V2BRIDGE_TEST_REPORT_TOKEN", "s3cret")
	cfg := "listen: " + addr + "\nupstream: " + upstream.URL + sim.Path + "\nlog_level: debug\nreject_unmapped_legacy_keys: true\n" +
		"report:\n  admin_token_env: V2BRIDGE_TEST_REPORT_TOKEN\n" +
		"keys:\n  - sha256: " + translate.HashKey(legacy) + "\n    user_key_env: V2BRIDGE_TEST_USER_KEY\n    account_id: 1000001\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath}, strings.NewReader(""), io.Discard, &logs)
	}()
	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	get := func(path, key string) (int, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if key != "" {
			req.Header.Set("X-Api-Key", key)
		}
		if strings.HasPrefix(path, "/v2bridge/") {
			req.Header.Set("Authorization", "Bearer s3cret")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status, body := get("/v2/applications.json?filter[ids]=314221522", legacy)
	if status != 200 || !strings.Contains(body, `"id":314221522`) {
		t.Fatalf("legacy key: %d %.300s", status, body)
	}
	if status, _ := get("/v2/applications.json", strings.Repeat("x", 48)); status != 401 {
		t.Fatalf("unmapped legacy key: %d", status)
	}
	_, metrics := get("/metrics", "")
	_, report := get("/v2bridge/report.json", "")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	// One caller identity everywhere: the first 8 hex characters of the key's SHA-256
	// in the access log, the metrics and the report; the startup line names the build.
	short := translate.HashKey(legacy)[:8]
	for where, want := range map[string]string{
		"access log": `"caller":"` + short + `"`,
		"/metrics":   `caller="` + short + `"`,
		"report":     `"caller":"` + short + `"`,
		"startup":    `"msg":"serving","version":"` + version + `","commit":"` + commit + `"`,
	} {
		text := map[string]string{"access log": logs.String(), "/metrics": metrics, "report": report, "startup": logs.String()}[where]
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %s:\n%.2000s", where, want, text)
		}
	}
	for _, secret := range []string{legacy, userKey} {
		if strings.Contains(logs.String(), secret) || strings.Contains(metrics, secret) {
			t.Errorf("key %q leaked into the log or /metrics", secret[:8])
		}
	}
	if !strings.Contains(logs.String(), `"account_source":"map"`) {
		t.Errorf("access log lacks account_source=map:\n%s", logs.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With tls_cert_file and tls_key_file the gateway serves HTTPS.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	cfgPath := filepath.Join(dir, "c.yaml")
	_ = os.WriteFile(cfgPath, []byte("listen: "+addr+"\ntls_cert_file: "+certPath+"\ntls_key_file: "+keyPath+"\n"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath}, strings.NewReader(""), io.Discard, io.Discard)
	}()
	pool := x509.NewCertPool()
	pool.AddCert(mustParse(t, der))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	var resp *http.Response
	for i := 0; i < 100; i++ {
		if resp, err = client.Get("https://" + addr + "/healthz"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil {
		t.Fatalf("HTTPS /healthz: %d", resp.StatusCode)
	}
	if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
		r.Body.Close()
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("plain HTTP on the TLS listener: %d", r.StatusCode)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func mustParse(t *testing.T, der []byte) *x509.Certificate {
	t.Helper()
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// demoUpstream serves the NerdGraph simulator over the demo data (as `v2bridge demo`
// builds it) until the test ends.
func demoUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	s, err := newSimulator()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}
