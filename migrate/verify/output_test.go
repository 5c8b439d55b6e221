package verify

import (
	"bytes"
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// Output for people, in a terminal or a file: progress into a file or pipe is plain
// lines (no carriage returns), the summary's columns have plain names, the REST base is
// printed as the API's URL (with /v2), and an exchange that could not be compared is
// counted as not compared, never as an error.
func TestOutputReadsWellInAFile(t *testing.T) {
	rest, tr := &writeSide{}, &writeSide{}
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	var progress bytes.Buffer
	rep, err := Run(context.Background(), Config{REST: Side{Base: rs.URL}, Translation: Side{Base: ts.URL},
		PerMinute: 1 << 20, Writes: true, Stamp: "t", Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(progress.String(), "\r") || !strings.HasSuffix(progress.String(), "\n") ||
		!strings.Contains(progress.String(), "verify: 1 of ") || !strings.Contains(progress.String(), "(100%)") {
		t.Errorf("progress into a file:\n%q", progress.String())
	}
	perTotal := map[string]int{} // lines per total of requests known then
	for _, l := range strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n") {
		_, rest, _ := strings.Cut(l, " of ")
		total, _, _ := strings.Cut(rest, " ")
		if perTotal[total]++; perTotal[total] > 11 {
			t.Errorf("more than 11 progress lines for a total of %s: want one per tenth at most\n%s", total, progress.String())
		}
	}
	rep.Routes[0].Errors = 1
	var sum bytes.Buffer
	if err := rep.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	out := sum.String()
	for _, want := range []string{"REST " + rs.URL + "/v2\n", "requests", "within tolerance", "missing in REST", "missing in translation",
		"not compared", "translation ms", "NerdGraph calls"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"~tol", "-rest", "-tr", " rt\n", "error(s)", "\r"} {
		if strings.Contains(out, not) {
			t.Errorf("summary has %q:\n%s", not, out)
		}
	}
}

// A difference the route's fidelity note names (in backquotes) is marked declared with
// that name and the note's clause as its reason, listed after the undeclared ones (a
// line per route, field and verdict, with its count) and counted apart; a note that
// names nothing of the field declares nothing.
func TestDeclaredDifferences(t *testing.T) {
	for _, tc := range []struct{ note, path, want string }{
		{"`settings.end_user_apdex_threshold` is 7", "$.applications[id=1].settings.end_user_apdex_threshold", "settings.end_user_apdex_threshold"},
		{"`end_user_summary` omitted, `links.server` null", "$.application_hosts[id=2].links.server", "links.server"},
		{"`end_user_summary` is null", "$.key_transactions[id=3].end_user_summary.apdex_score", "end_user_summary"},
		{"`port` null", "$.application_instances[id=4].links.server", ""},
		{"server ids", "$.application_instances[id=4].links.server", ""},
	} {
		if got := declaredBy(tc.note, tc.path); got != tc.want {
			t.Errorf("declaredBy(%q, %q) = %q, want %q", tc.note, tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct{ note, name, want string }{
		{"ids are surrogates; `links.server` null (no source; none); sorted", "links.server", "`links.server` null (no source; none)"},
		{"`port` null", "port", "`port` null"},
		{"as applications.list", "port", "`port`"},
	} {
		if got := clauseNaming(tc.note, tc.name); got != tc.want {
			t.Errorf("clauseNaming(%q, %q) = %q, want %q", tc.note, tc.name, got, tc.want)
		}
	}
	r := &runner{cfg: Config{Notes: map[string]string{"applications.list": "ids are surrogates; `links.server` null (no server id)"}}}
	x := Exchange{Route: "applications.list", Path: "/v2/applications.json", Counts: map[string]int{}}
	for _, f := range []Field{
		{Path: "$.applications[id=1].links.server", Verdict: Different},
		{Path: "$.applications[id=1].name", Verdict: Different},
		{Path: "$.applications[id=1].links.server", Verdict: WithinTol},
		{Path: "$.applications[id=2].links.server", Verdict: Different},
		{Path: "$.applications[id=3].links.server", Verdict: MissingGraph},
	} {
		x.add(f)
	}
	r.declare(&x)
	rep := &Report{Exchanges: []Exchange{x}, Routes: summarize([]Exchange{x})}
	var b bytes.Buffer
	if err := rep.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "4 field(s) differ or are missing on one side, 3 of them as the route's fidelity note declares:\n"+
		"  /v2/applications.json $.applications[id=1].name: different\n"+
		"  applications.list $.applications[id=*].links.server: different ×2 (declared: `links.server` null (no server id))\n") {
		t.Errorf("summary:\n%s", out)
	}
	// The route's line counts the declared ones apart: 1 different, 0 missing, 3 declared.
	if !regexp.MustCompile(`\napplications\.list +1 +0 +1 +1 +0 +0 +3 +0 +0 `).MatchString(out) {
		t.Errorf("route line does not count the declared differences apart:\n%s", out)
	}
	var h bytes.Buffer
	if err := rep.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), "<td>1</td><td>0</td><td>0</td><td>3</td>") {
		t.Errorf("HTML route row does not count the declared differences apart:\n%s", h.String())
	}
	if x.Fields[2].Declared != "" {
		t.Error("a field within tolerance was marked declared")
	}
}
