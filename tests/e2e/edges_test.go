package e2e

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
)

// rawRequest sends a request line and headers as written (no client-side cleaning of
// the path) and reads the answer.
func rawRequest(t *testing.T, gwURL, method, target string, hdr ...string) (*http.Response, string) {
	t.Helper()
	addr := strings.TrimPrefix(gwURL, "http://")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var b strings.Builder
	host := addr
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nConnection: close\r\n", method, target)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			host = hdr[i+1]
			continue
		}
		fmt.Fprintf(&b, "%s: %s\r\n", hdr[i], hdr[i+1])
	}
	fmt.Fprintf(&b, "Host: %s\r\n", host)
	b.WriteString("\r\n")
	if _, err := conn.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, "http://"+addr+"/", nil)
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		body.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp, body.String()
}

// Unclean paths get a v2 404 body, never net/http's redirect with an HTML body.
func TestEdgeUncleanPathsNoRedirect(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/v2/applications/../x.json", "//v2/applications.json", "/v2//applications.json", "/v2/./applications.json", "/v2/applications/%2e%2e/x.json"} {
		resp, body := rawRequest(t, e.gw.URL, "GET", p, "X-Api-Key", key1)
		if resp.StatusCode != 404 || resp.Header.Get("Location") != "" || !strings.HasPrefix(body, `{"error":{"title":`) {
			t.Errorf("%s: %d Location %q body %q", p, resp.StatusCode, resp.Header.Get("Location"), body)
		}
	}
}

// HEAD answers as GET, without a body.
func TestEdgeHEADAnswersAsGET(t *testing.T) {
	e := newEnv(t)
	get := e.get(t, "/v2/applications/314221522.json", key1)
	resp, body := rawRequest(t, e.gw.URL, "HEAD", "/v2/applications/314221522.json", "X-Api-Key", key1)
	if resp.StatusCode != get.status || body != "" || resp.Header.Get("Content-Type") != get.header.Get("Content-Type") {
		t.Fatalf("HEAD: %d %q (Content-Type %q); GET: %d %q", resp.StatusCode, body, resp.Header.Get("Content-Type"), get.status, get.header.Get("Content-Type"))
	}
}

// A 405 carries Allow with the methods the path takes.
func TestEdge405CarriesAllow(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, http.MethodPatch, "/v2/applications/314221522.json", key1, nil)
	if r.status != 405 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	allow := r.header.Get("Allow")
	for _, m := range []string{"GET", "HEAD", "PUT", "DELETE"} {
		if !strings.Contains(allow, m) {
			t.Errorf("Allow %q lacks %s", allow, m)
		}
	}
	if strings.Contains(allow, "PATCH") || strings.Contains(allow, "POST") {
		t.Errorf("Allow %q names a method the path does not take", allow)
	}
}

// Link URLs come from public_url, else the listen address; never from Host.
func TestEdgeLinkIgnoresHost(t *testing.T) {
	for _, public := range []string{"", "https://v2bridge.example.com"} {
		e := newEnvWith(t, gateway.Config{PublicURL: public})
		resp, _ := rawRequest(t, e.gw.URL, "GET", "/v2/applications.json", "X-Api-Key", key1, "Host", "evil.example", "X-Forwarded-Host", "evil.example")
		link := resp.Header.Get("Link")
		want := public
		if want == "" {
			want = e.gw.URL
		}
		if strings.Contains(link, "evil.example") || !strings.Contains(link, "<"+want+"/v2/applications.json?") {
			t.Errorf("public_url %q: Link %q", public, link)
		}
	}
}

// Real REST v2 paths the gateway does not translate answer 501 with a v2 body naming
// the replacement (not a 404 a Terraform-style client reads as "deleted").
func TestEdgeUnsupportedRESTPaths(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct{ method, path, names string }{
		{"PUT", "/v2/alerts_synthetics_conditions/5.json", "NerdGraph"},
		{"GET", "/v2/alerts_plugins_conditions.json?policy_id=1", "NerdGraph"},
		{"PUT", "/v2/alerts_external_service_conditions/5.json", "NerdGraph"},
		{"POST", "/v2/alerts_location_failure_conditions/policies/1.json", "NerdGraph"},
		{"GET", "/v2/dashboards.json", "dashboardCreate"},
		{"GET", "/accounts/1000001/v2/dashboards/3.json", "dashboardCreate"},
		{"GET", "/v2/usages/apm.json", "NrConsumption"},
		{"GET", "/v2/notification_channels.json", "NerdGraph"},
		{"GET", "/v2/definitions.json", "introspection"},
		{"POST", "/v2/alerts_channels.json", "aiNotifications"},
		{"PUT", "/v2/alerts_policy_channels.json", "aiWorkflows"},
		{"GET", "/accounts/1000001/v2/users.json", "userManagement"},
	} {
		r := e.do(t, tt.method, tt.path, key1, nil)
		if r.status != 501 || !strings.Contains(string(r.body), tt.names) || !strings.HasPrefix(string(r.body), `{"error":{"title":`) {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, r.status, r.body)
		}
	}
	if r := e.get(t, "/v2/no_such_thing.json", key1); r.status != 404 {
		t.Errorf("an unknown path: %d, want 404", r.status)
	}
}
