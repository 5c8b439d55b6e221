package e2e

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var clock = harness.Clock

type env struct {
	sim *sim.Server
	gw  *httptest.Server
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, gateway.Config{})
}

func newEnvWith(t *testing.T, cfg gateway.Config) *env {
	t.Helper()
	h := harness.Start(t, cfg)
	return &env{sim: h.Sim, gw: h.Gateway}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (e *env) get(t *testing.T, url, key string, hdr ...string) response {
	t.Helper()
	return e.do(t, http.MethodGet, url, key, nil, hdr...)
}

func (e *env) do(t *testing.T, method, url, key string, body io.Reader, hdr ...string) response {
	t.Helper()
	if url[0] == '/' {
		url = e.gw.URL + url
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

type appsBody struct {
	Applications []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"applications"`
	Application *struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"application"`
	Error *struct {
		Title string `json:"title"`
	} `json:"error"`
}

func decode(t *testing.T, r response) appsBody {
	t.Helper()
	var b appsBody
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return b
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tests/e2e -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the golden file; run with -update if intended\ngot:\n%.2000s", name, got)
	}
}
