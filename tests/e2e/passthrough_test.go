package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

// restExamples are the REST v2 example bodies fakeREST answers with, by the path it is
// asked for (under /v2/), each a file of tests/testdata/restv2.
var restExamples = map[string]string{
	"applications.json":    "applications_list.json",
	"alerts_policies.json": "alerts_policies_list.json",
}

// restExample is the REST v2 example body of a restExamples file.
func restExample(file string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "testdata", "restv2", file))
}

// fakeREST answers like the REST v2 API from recorded example files.
type fakeREST struct {
	srv    *httptest.Server
	mu     sync.Mutex
	seen   []*http.Request
	body   [][]byte
	bodies map[string][]byte // path → answer, before the recorded files
}

func newFakeREST(t *testing.T) *fakeREST {
	f := &fakeREST{bodies: map[string][]byte{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.seen = append(f.seen, r)
		f.body = append(f.body, b)
		f.mu.Unlock()
		name := strings.TrimPrefix(r.URL.Path, "/v2/")
		f.mu.Lock()
		data, ok := f.bodies[r.URL.Path]
		f.mu.Unlock()
		var err error
		if file, known := restExamples[name]; !ok && known {
			data, err = restExample(file)
		} else if !ok {
			err = os.ErrNotExist
		}
		if err != nil {
			w.WriteHeader(404)
			t.Logf("fake REST: no file for %s (%v)", r.URL.Path, err)
			_, _ = w.Write([]byte(`{"error":{"title":"not recorded"}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Link", "<"+f.srv.URL+"/v2/"+name+"?page=2>; rel=\"next\", <"+f.srv.URL+"/v2/"+name+"?page=3>; rel=\"last\"")
		w.Header().Set("Connection", "keep-alive, X-Hop")
		w.Header().Set("X-Hop", "must not pass")
		status := 200
		if r.Method == http.MethodPost {
			status = 201
		}
		w.WriteHeader(status)
		_, _ = w.Write(data)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestPassthrough(t *testing.T) {
	rest := newFakeREST(t)
	e := newEnvWith(t, gateway.Config{
		RESTUpstream:         rest.srv.URL + "/v2",
		Modes:                map[string]gateway.Mode{"applications.list": gateway.ModePassthrough},
		UnmatchedPassthrough: true,
	})
	before := e.sim.Requests()
	r := e.get(t, "/accounts/1000001/v2/applications.json?filter%5Bname%5D=web", key1)
	want, _ := restExample("applications_list.json")
	if r.status != 200 || !bytes.Equal(r.body, want) {
		t.Fatalf("pass-through body differs: %d %s", r.status, r.body)
	}
	if got := r.header.Get("Link"); !strings.Contains(got, "<"+e.gw.URL+"/accounts/1000001/v2/applications.json?page=2>; rel=\"next\"") ||
		strings.Contains(got, rest.srv.URL) {
		t.Fatalf("Link not rewritten: %s", got)
	}
	if r.header.Get("Sunset") != "Sat, 31 Jul 2027 23:59:59 GMT" || r.header.Get("Deprecation") == "" {
		t.Fatalf("Sunset/Deprecation missing: %v", r.header)
	}
	if r.header.Get("X-Hop") != "" {
		t.Fatal("hop-by-hop header passed through")
	}
	if e.sim.Requests() != before {
		t.Fatal("a pass-through route called NerdGraph")
	}
	in := rest.seen[0]
	if in.URL.Path != "/v2/applications.json" || in.URL.RawQuery != "filter%5Bname%5D=web" || in.Header.Get("X-Api-Key") != key1 {
		t.Fatalf("forwarded %s %s?%s key %q", in.Method, in.URL.Path, in.URL.RawQuery, in.Header.Get("X-Api-Key"))
	}

	// A translated route stays translated; an unmatched /v2 path (an alerts namespace
	// New Relic keeps) passes through, and a POST reaches the REST API exactly once.
	if r := e.get(t, "/v2/applications/314221522.json", key1); r.status != 200 || r.header.Get("Sunset") != "" {
		t.Fatalf("translated route: %d %v", r.status, r.header)
	}
	rest.bodies["/v2/alerts_external_service_conditions/policies/1.json"] = []byte(`{"external_service_condition":{"id":1}}`)
	r = e.do(t, http.MethodPost, "/v2/alerts_external_service_conditions/policies/1.json", key1, strings.NewReader(`{"policy":{"name":"p"}}`), "Content-Type", "application/json")
	if r.status != 201 {
		t.Fatalf("unmatched POST: %d %s", r.status, r.body)
	}
	posts := 0
	for i, req := range rest.seen {
		if req.Method == http.MethodPost {
			posts++
			if string(rest.body[i]) != `{"policy":{"name":"p"}}` {
				t.Fatalf("body changed: %s", rest.body[i])
			}
		}
	}
	if posts != 1 {
		t.Fatalf("POST reached the REST API %d times", posts)
	}
}

func TestPassthroughUpstreamDown(t *testing.T) {
	e := newEnvWith(t, gateway.Config{RESTUpstream: "http://127.0.0.1:1/v2", Modes: map[string]gateway.Mode{"applications.list": gateway.ModePassthrough}})
	r := e.get(t, "/v2/applications.json", key1)
	if b := decode(t, r); r.status != 502 || b.Error == nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
}
