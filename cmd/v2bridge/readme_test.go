package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The operator's page (docs/operating.md) names only what exists: every configuration key (and
// key path) is a key of the configuration file, every V2BRIDGE_ and OTEL_ variable one
// that serve reads, every v2bridge_ metric one a real /metrics scrape has, and every
// other snake_case name a field of a real log line.
func TestReadmeOperatorSection(t *testing.T) {
	text := string(mustRead(t, "..", "..", "README.md"))
	section := string(mustRead(t, "..", "..", "docs", "operating.md"))
	// The Go version the README asks for is go.mod's.
	goMod := string(mustRead(t, "..", "..", "go.mod"))
	if m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(goMod); m == nil || !strings.Contains(text, "Go "+m[1]+" or newer") {
		t.Errorf("README does not ask for the go.mod Go version (%v)", m)
	}
	families, logs := scrapeAfterTraffic(t)
	logFields := map[string]bool{}
	for _, line := range strings.Split(logs, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			for k := range m {
				logFields[k] = true
			}
		}
	}
	// Fields that only some lines carry (a traced request, a failed enrichment, a 5xx).
	for _, f := range []string{"trace_id", "degraded", "error"} {
		if !strings.Contains(string(mustRead(t, "..", "..", "gateway", "middleware.go")), `"`+f+`"`) {
			t.Errorf("the access log never writes %s", f)
		}
		logFields[f] = true
	}
	keys := configPaths(reflect.TypeOf(fileConfig{}), "")
	for k := range keys { // keys of list items are named alone (user_key_env)
		if i := strings.LastIndex(k, "."); i > 0 && strings.HasPrefix(k, "keys.") {
			keys[k[i+1:]] = true
		}
	}
	vars := map[string]bool{}
	for _, line := range append(configEnv(), tracingEnv()...) {
		for _, v := range strings.Split(strings.Split(line, "\t")[0], ", ") {
			vars[v] = true
		}
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$`)
	checked := 0
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(section, -1) {
		tok := strings.TrimSpace(strings.SplitN(m[1], ":", 2)[0])
		switch {
		case strings.ContainsAny(tok, "<*"):
			continue // a pattern (V2BRIDGE_<KEY>, v2bridge_*), not a name
		case strings.HasPrefix(tok, "V2BRIDGE_") || strings.HasPrefix(tok, "OTEL_"):
			if !vars[tok] {
				t.Errorf("README names %s, which v2bridge does not read", tok)
			}
		case strings.HasPrefix(tok, "v2bridge_"):
			if families[tok] == nil {
				t.Errorf("README names metric %s, which /metrics lacks", tok)
			}
		case strings.HasPrefix(tok, "v2bridge.") || strings.HasPrefix(tok, "graphql."):
			continue // span attributes: TestDemoExportsTracesByOTLP checks them
		case snake.MatchString(tok) && strings.ContainsAny(tok, "_."):
			if !keys[tok] && !logFields[tok] {
				t.Errorf("README names %q: neither a configuration key nor a log field", tok)
			}
		default:
			continue
		}
		checked++
	}
	if checked < 15 {
		t.Fatalf("only %d names checked", checked)
	}
}

func mustRead(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(parts...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// configPaths lists every key path of the configuration file ("cache.entity_ttl").
func configPaths(typ reflect.Type, prefix string) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		key := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if key == "" || key == "-" {
			continue
		}
		path := prefix + key
		out[path] = true
		ft := f.Type
		if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(time.Time{}) {
			for k := range configPaths(ft, path+".") {
				out[k] = true
			}
		}
	}
	return out
}

// Every path of the endpoint table (docs/operating.md) answers on a running serve: the gateway's
// own on listen (the report with its Bearer token), /debug/pprof/ on pprof_listen only.
func TestReadmeEndpointsAnswer(t *testing.T) {
	text := string(mustRead(t, "..", "..", "docs", "operating.md"))
	start := strings.Index(text, "**Endpoints**")
	if start < 0 {
		t.Fatal("docs/operating.md has no endpoint table")
	}
	table := text[start:]
	table = table[:strings.Index(table, "\n\n**")]
	var paths []string
	for _, row := range regexp.MustCompile("(?m)^\\| (`/[^|]*) \\|").FindAllStringSubmatch(table, -1) {
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(row[1], -1) {
			paths = append(paths, m[1])
		}
	}
	if len(paths) < 5 {
		t.Fatalf("endpoint table lists %v", paths)
	}
	free := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	addr, pprofAddr := free(), free()
	t.Setenv("V2BRIDGE_TEST_REPORT_TOKEN", "s3cret")
	sim := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"actor":{"user":{"id":1}}}}`)
	}))
	defer sim.Close()
	cfgPath := filepath.Join(t.TempDir(), "v2bridge.yaml")
	cfg := "listen: " + addr + "\npprof_listen: " + pprofAddr + "\nupstream: " + sim.URL + "\nreport:\n  admin_token_env: V2BRIDGE_TEST_REPORT_TOKEN\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath}, strings.NewReader(""), io.Discard, io.Discard)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	get := func(url string) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer s3cret")
		var resp *http.Response
		var err error
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if resp, err = http.DefaultClient.Do(req); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, path := range paths {
		switch {
		case path == "/debug/pprof/":
			if st := get("http://" + pprofAddr + path); st != 200 {
				t.Errorf("%s on pprof_listen: %d", path, st)
			}
			if st := get("http://" + addr + path); st == 200 {
				t.Errorf("%s answers on listen too", path)
			}
		case path == ".json" || path == ".csv":
			if st := get("http://" + addr + "/v2bridge/report" + path); st != 200 {
				t.Errorf("/v2bridge/report%s: %d", path, st)
			}
		default:
			if st := get("http://" + addr + path); st != 200 {
				t.Errorf("%s: %d", path, st)
			}
		}
	}
}
