package migrate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// A gateway whose rest_upstream leads back to itself (its DNS sends the REST API's host
// to the gateway) answers the forwarded request 508 at the second hop, naming the
// cause, instead of calling itself without end; a request that came through other
// proxies (their own Via entries) is forwarded.
func TestPassthroughRefusesToForwardToItself(t *testing.T) {
	var hops atomic.Int64
	self := httptest.NewUnstartedServer(nil)
	base, _ := url.Parse("http://" + self.Listener.Addr().String() + "/v2")
	pass := NewPassthrough(base)
	self.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		pass.ServeHTTP(w, r)
	})
	self.Start()
	defer self.Close()
	resp, err := http.Get(self.URL + "/v2/applications.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusLoopDetected || !strings.Contains(string(body), "forward this request to itself") || hops.Load() != 2 {
		t.Fatalf("a loop: %d after %d hops: %s", resp.StatusCode, hops.Load(), body)
	}

	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !forwardedByGateway(r.Header) || !strings.Contains(strings.Join(r.Header.Values("Via"), ","), "corp-proxy") {
			t.Errorf("REST saw Via %q, want the proxy's and the gateway's", r.Header.Values("Via"))
		}
		_, _ = w.Write([]byte(`{"applications":[]}`))
	}))
	defer rest.Close()
	restBase, _ := url.Parse(rest.URL + "/v2")
	req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	req.Header.Set("Via", "1.1 corp-proxy")
	rec := httptest.NewRecorder()
	NewPassthrough(restBase).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("through another proxy: %d %s", rec.Code, rec.Body.String())
	}
}
