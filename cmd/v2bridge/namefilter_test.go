package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

// name_filter is read or like; anything else is refused by config check, naming the key.
func TestNameFilterConfigCheck(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"read", ""}, {"like", ""}, {"fuzzy", `name_filter: "fuzzy" is not read or like`}, {"", `name_filter: "" is not read or like`},
	} {
		c := defaultConfig()
		c.NameFilter = tc.value
		err := c.validate(func(string) string { return "" })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("name_filter %q: %v, want %q", tc.value, err, tc.want)
		}
	}
	if defaultConfig().NameFilter != "read" {
		t.Error("name_filter does not default to read")
	}
}

// `serve` with name_filter: like declares every filter[name] answer in
// X-V2bridge-Degraded; with the default (read) nothing is declared.
func TestServeNameFilter(t *testing.T) {
	upstream := demoUpstream(t)
	for _, tc := range []struct {
		setting string
		want    string
	}{
		{"", ""},
		{"name_filter: read\n", ""},
		{"name_filter: like\n", "filter[name]: entity search name LIKE"},
	} {
		s := startServe(t, "upstream: "+upstream.URL+sim.Path+"\n"+tc.setting)
		req, _ := http.NewRequest("GET", s.base+"/v2/applications.json?filter[name]=a", nil)
		req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-V2bridge-Degraded"); resp.StatusCode != http.StatusOK || got != tc.want {
			t.Errorf("%q: %d, X-V2bridge-Degraded %q; want 200 and %q", tc.setting, resp.StatusCode, got, tc.want)
		}
		if err := s.stop(); err != nil {
			t.Fatalf("serve: %v", err)
		}
	}
}
