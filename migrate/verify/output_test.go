package verify

import (
	"bytes"
	"context"
	"net/http/httptest"
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
	if lines := strings.Count(progress.String(), "\n"); lines > 11 {
		t.Errorf("%d progress lines, want one per tenth at most", lines)
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
