package e2e

import (
	"strings"
	"testing"
)

// Requests shaped the way New Relic's documentation and known clients send them
// (REFERENCE.md §1.2–1.4).
func TestDocumentedRequestShapes(t *testing.T) {
	e := newEnv(t)
	all := decode(t, e.get(t, "/v2/applications.json?filter%5Bname%5D=checkout", key1)).Applications
	if len(all) == 0 {
		t.Fatal("demo data has no checkout app")
	}
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		hdr    []string
	}{
		{name: "curl -X GET -d form body", method: "GET", path: "/v2/applications.json", body: "filter[name]=checkout",
			hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{name: "form body without content type", method: "GET", path: "/v2/applications.json", body: "filter%5Bname%5D=checkout"},
		{name: "raw brackets in query", method: "GET", path: "/v2/applications.json?filter[name]=checkout"},
		{name: "duplicated query keys", method: "GET", path: "/v2/applications.json?filter[name]=checkout&filter[name]=checkout"},
		{name: "JSON content type on a GET without body", method: "GET", path: "/v2/applications.json?filter[name]=checkout",
			hdr: []string{"Content-Type", "application/json"}},
		{name: "Ansible POST with form body", method: "POST", path: "/v2/applications.json", body: "filter[name]=checkout",
			hdr: []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{name: "Api-Key and X-Api-Key both", method: "GET", path: "/v2/applications.json?filter[name]=checkout",
			hdr: []string{"Api-Key", key1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(t, tt.method, tt.path, key1, strings.NewReader(tt.body), tt.hdr...)
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			got := decode(t, r).Applications
			if len(got) != len(all) {
				t.Fatalf("%d apps, want %d (the filter was not applied)", len(got), len(all))
			}
		})
	}
	// Comma and repeated filter[ids] select the same apps.
	a, b := itoa(all[0].ID), itoa(all[len(all)-1].ID)
	comma := decode(t, e.get(t, "/v2/applications.json?filter[ids]="+a+","+b, key1)).Applications
	repeated := decode(t, e.get(t, "/v2/applications.json?filter[ids]="+a+"&filter[ids]="+b, key1)).Applications
	if len(comma) != len(repeated) || len(comma) < 1 {
		t.Fatalf("comma %d vs repeated %d", len(comma), len(repeated))
	}
}
