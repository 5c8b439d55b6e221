package verify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// TestNameProbes: one filter[name] value per way a server-side name match can differ
// from REST's substring match — inside a word, the other case, across a separator.
func TestNameProbes(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"checkout-service", []string{"heckou", "CHECKOUT-SERVICE", "ut-se"}},
		{"API", []string{"api"}},
		{"a", []string{"A"}},
		{"web_app.v2", []string{"WEB_APP.V2", "eb_ap"}},
		{"Ünïcode app", []string{"nïcod", "ÜNÏCODE APP", "de ap"}},
		{"Store (EU) 2", []string{"tor", "STORE (EU) 2", "re (EU"}},
		{"alpha-bravo", []string{"lph", "ALPHA-BRAVO", "ha-br"}},        // of runs as long, the first
		{"ab-cdef-ghijkl", []string{"hijk", "AB-CDEF-GHIJKL", "ab-cd"}}, // the longest run, wherever it is
		{"abcd", []string{"bc", "ABCD"}},                                // a run of four has an inside
		{"-abc", []string{"-ABC"}},                                      // a run of three has none
		{"", nil},
		{"  ", nil},
	} {
		if got := nameProbes(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("nameProbes(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestNameProbesReportDrops: a translation whose filter[name] leaves out an application
// REST lists for a fragment inside a word is reported missing_in_translation on that
// probe, and the probes are sent, escaped, to both sides.
func TestNameProbesReportDrops(t *testing.T) {
	app := `{"id":1,"name":"checkout-service"}`
	list := `{"applications":[` + app + `]}`
	probe := func(v string) string { return "/v2/applications.json?filter[name]=" + url.QueryEscape(v) }
	rest := &fakeSide{answers: map[string]string{"/v2/applications.json": list}, status: map[string]int{}}
	tr := &fakeSide{answers: map[string]string{"/v2/applications.json": list}, status: map[string]int{}}
	for _, p := range []string{"heckou", "CHECKOUT-SERVICE", "ut-se"} {
		rest.answers[probe(p)] = list
		tr.answers[probe(p)] = list
	}
	tr.answers[probe("heckou")] = `{"applications":[]}` // a token match finds no word "heckou"
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	rep, err := Run(context.Background(), Config{REST: Side{Base: rs.URL}, Translation: Side{Base: ts.URL}, Sample: 1, PerMinute: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Exchange{}
	for _, x := range rep.Exchanges {
		byPath[x.Path] = x
	}
	for _, p := range []string{"heckou", "CHECKOUT-SERVICE", "ut-se"} {
		x, ok := byPath[probe(p)]
		if !ok || x.Route != "applications.list" || x.RESTStatus != http.StatusOK || x.TranslationStatus != http.StatusOK {
			t.Fatalf("probe %q not exchanged as applications.list: %+v (paths %q)", p, x, rest.calls)
		}
		dropped := len(x.Fields) > 0 && x.Fields[0].Verdict == MissingGraph && strings.HasPrefix(x.Fields[0].Path, "$.applications")
		if dropped != (p == "heckou") {
			t.Errorf("probe %q: fields %+v", p, x.Fields)
		}
	}
	if d := rep.Differences(); len(d) != 1 || !strings.Contains(d[0], "filter[name]=heckou") || !strings.Contains(d[0], MissingGraph) {
		t.Errorf("differences %q", d)
	}
}
