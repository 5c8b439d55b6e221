package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

func TestTracingOnFromEnvironment(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		on      bool
		wantErr string
	}{
		{"nothing set: off", nil, false, ""},
		{"endpoint: on", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://otlp.nr-data.net:4318"}, true, ""},
		{"traces endpoint: on", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true, ""},
		{"exporter otlp: on", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true, ""},
		{"exporter none wins", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, false, ""},
		{"sdk disabled wins", map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, false, ""},
		{"unknown exporter", map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, false, "OTEL_TRACES_EXPORTER"},
		{"grpc not built in", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, false, "http/protobuf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			on, err := tracingOn(func(k string) string { return tt.env[k] })
			if on != tt.on || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("on %v err %v; want on %v err %q", on, err, tt.on, tt.wantErr)
			}
		})
	}
}

// config check reports an OpenTelemetry setting serve would refuse, with the file's
// problems.
func TestConfigCheckReportsTracingSettings(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "zipkin")
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("log_level: loud\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"config", "check", path}, strings.NewReader(""), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "OTEL_TRACES_EXPORTER") || !strings.Contains(err.Error(), "log_level") {
		t.Fatalf("err = %v", err)
	}
}

// With OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS set, the demo sends its
// spans by OTLP/HTTP to {endpoint}/v1/traces with those headers (New Relic's endpoint
// takes the license key as api-key), flushed on shutdown.
func TestDemoExportsTracesByOTLP(t *testing.T) {
	var mu sync.Mutex
	var paths, keys []string
	var bodies bytes.Buffer
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		paths, keys = append(paths, r.URL.Path), append(keys, r.Header.Get("Api-Key"))
		bodies.Write(b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "api-key=test-license-key")
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "none")
	ctx, cancel := context.WithCancel(context.Background())
	var out, logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0"}, strings.NewReader(""), &out, &logs)
	}()
	base := waitForBanner(t, &out)
	req, _ := http.NewRequest(http.MethodGet, base+"/v2/applications/314221522.json", nil)
	req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("demo did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) == 0 || paths[0] != "/v1/traces" || keys[0] != "test-license-key" {
		t.Fatalf("collector got paths %v, api-key %v", paths, keys)
	}
	for _, s := range []string{"GET applications.show", "v2bridge.route", "v2bridge.fidelity", "v2bridge.caller",
		"v2bridge.nerdgraph.round_trips", "v2bridge.nerdgraph.attempts", "v2bridge.nerdgraph.retries", "graphql.operation.name"} {
		if !bytes.Contains(bodies.Bytes(), []byte(s)) {
			t.Errorf("exported spans lack %q", s)
		}
	}
	if bytes.Contains(bodies.Bytes(), []byte("NRAK-DEMO-ACCOUNT-1")) {
		t.Error("the key reached the exported spans")
	}
	if !strings.Contains(logs.String(), `"tracing": true`) {
		t.Errorf("startup line does not say tracing is on:\n%s", logs.String())
	}
}

// With log_format: json and the OTLP receiver down, every line serve writes to standard
// error is JSON: OpenTelemetry's export errors and its internal logger's complaints (an
// unparsable OTEL_ setting) arrive through the logger as warnings instead of as plain
// text from OpenTelemetry's defaults.
func TestOpenTelemetryErrorsAreLogLines(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close() // nothing listens there: every export is refused
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+closed)
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "2000")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "soon")
	upstream := demoUpstream(t)
	srv := startServe(t, "upstream: "+upstream.URL+sim.Path+"\nlog_format: json\n")
	var found bool
	for deadline := time.Now().Add(15 * time.Second); !found && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, srv.base+"/v2/applications.json", nil)
		req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		found = strings.Contains(srv.logs.String(), `"msg":"opentelemetry"`)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	logs := srv.logs.String()
	if !found || !strings.Contains(logs, closed) {
		t.Errorf("no export error was logged:\n%s", logs)
	}
	if !strings.Contains(logs, `"msg":"opentelemetry: parse duration"`) {
		t.Errorf("the unparsable OTEL_EXPORTER_OTLP_TRACES_TIMEOUT was not logged:\n%s", logs)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Errorf("not a JSON line: %q", line)
		}
	}
}
