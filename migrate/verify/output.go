package verify

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("verify report json: %w", err)
	}
	return nil
}

// WriteSummary writes the one-screen terminal summary: a line per route and the first
// differences.
func (r *Report) WriteSummary(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "v2bridge verify: %d requests on %d routes, sample %d, tolerance %.0f%%, REST %s\n",
		len(r.Exchanges), len(r.Routes), r.Sample, 100*r.Tolerance, r.REST)
	// Plain column names, aligned; an exchange a side does not serve (501) counts as not
	// compared, one where a side failed as failed, each listed below with why. A
	// difference the route's fidelity note declares counts as declared, not as different
	// or missing: those columns are the differences to read.
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "route\trequests\tequal\twithin tolerance\tdifferent\tmissing in REST\tmissing in translation\tdeclared\tnot compared\tfailed\tREST ms\ttranslation ms\tNerdGraph calls")
	for _, s := range r.Routes {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%d\n", s.Route, s.Requests, s.Counts[Equal], s.Counts[WithinTol],
			s.Undeclared(Different), s.Undeclared(MissingREST), s.Undeclared(MissingGraph), s.DeclaredCount(), s.NotCompared, s.Errors,
			s.RESTMillis, s.TranslationMillis, s.RoundTrips)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("verify summary: %w", err)
	}
	undeclared, declared, n := r.differenceLines()
	fmt.Fprintf(&b, "%d field(s) differ or are missing on one side", n)
	if d := n - len(undeclared); d > 0 {
		fmt.Fprintf(&b, ", %d of them as the route's fidelity note declares", d)
	}
	if n > 0 {
		b.WriteString(":")
	}
	b.WriteByte('\n')
	// The differences the routes' notes do not declare first, one a line: they are the
	// ones to read. Then every declared one, a line per route, field and verdict, with
	// the note's reason.
	for i, d := range undeclared {
		if i == 10 {
			fmt.Fprintf(&b, "  … and %d more (see the HTML or JSON report)\n", len(undeclared)-10)
			break
		}
		b.WriteString("  " + d + "\n")
	}
	for _, d := range declared {
		b.WriteString("  " + d + "\n")
	}
	for _, x := range r.Exchanges {
		if x.NotCompared != "" {
			fmt.Fprintf(&b, "  not compared: %s: %s\n", x.Path, x.NotCompared)
		}
	}
	for _, x := range r.Exchanges {
		if x.Error != "" {
			fmt.Fprintf(&b, "  failed: %s: %s\n", x.Path, x.Error)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Undeclared is how many of s's fields had verdict v without the route's fidelity
// note declaring it.
func (s RouteSummary) Undeclared(v string) int { return s.Counts[v] - s.Declared[v] }

// DeclaredCount is how many of s's differences the route's fidelity note declares.
func (s RouteSummary) DeclaredCount() int {
	n := 0
	for _, v := range s.Declared {
		n += v
	}
	return n
}

// idIndex is an object's place in a list path ("[id=314221522]").
var idIndex = regexp.MustCompile(`\[id=[^\]]*\]`)

// differenceLines are the report's differences for the summary: the undeclared ones,
// one a line ("path field: verdict"), sorted; the declared ones grouped by route,
// field (list ids as *) and verdict, with the count and the note's reason; and the
// number of fields that differ.
func (r *Report) differenceLines() (undeclared, declared []string, n int) {
	type group struct {
		n      int
		reason string
	}
	groups := map[string]*group{}
	for _, x := range r.Exchanges {
		for _, f := range x.Fields {
			if f.Verdict == WithinTol || f.Verdict == Equal {
				continue
			}
			n++
			if f.Declared == "" {
				undeclared = append(undeclared, x.Path+" "+f.Path+": "+f.Verdict)
				continue
			}
			key := x.Route + " " + idIndex.ReplaceAllString(f.Path, "[id=*]") + ": " + f.Verdict
			if groups[key] == nil {
				groups[key] = &group{reason: f.Reason}
			}
			groups[key].n++
		}
	}
	for key, g := range groups {
		declared = append(declared, fmt.Sprintf("%s ×%d (declared: %s)", key, g.n, g.reason))
	}
	sort.Strings(undeclared)
	sort.Strings(declared)
	return undeclared, declared, n
}

// WriteHTML writes the report as one self-contained HTML page (no JavaScript).
func (r *Report) WriteHTML(w io.Writer) error {
	type row struct {
		Exchange
		Shown []Field
	}
	rows := make([]row, 0, len(r.Exchanges))
	for _, x := range r.Exchanges {
		fs := append([]Field(nil), x.Fields...)
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Verdict == Different && fs[j].Verdict != Different })
		rows = append(rows, row{Exchange: x, Shown: fs})
	}
	if err := page.Execute(w, map[string]any{"R": r, "Rows": rows, "Diffs": len(r.Differences())}); err != nil {
		return fmt.Errorf("verify report html: %w", err)
	}
	return nil
}

var page = template.Must(template.New("verify").Funcs(template.FuncMap{
	"js": func(v any) string {
		if v == nil {
			return "—"
		}
		b, _ := json.Marshal(v)
		return string(b)
	},
	"pct": func(f float64) float64 { return 100 * f },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>v2bridge verify</title>
<style>body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:0 0 1.5em}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}code{font-size:.9em}
.different,.missing_in_rest,.missing_in_translation{background:#fde2e1}.within_tolerance{background:#fff6d5}</style></head>
<body>
<h1>REST API v2 and its translation, side by side</h1>
<p>REST: {{.R.REST}}. Started {{.R.Started.Format "2006-01-02 15:04:05 MST"}}, finished {{.R.Finished.Format "15:04:05"}}.
Sample {{.R.Sample}} objects per kind; numbers within {{printf "%.0f" (pct .R.Tolerance)}}% count as within tolerance.
<strong>{{.Diffs}} field(s) differ or are missing on one side.</strong></p>
<h2>Routes</h2>
<table><tr><th>route</th><th>requests</th><th>equal</th><th>within tolerance</th><th>different</th><th>missing in REST</th><th>missing in translation</th><th>declared</th><th>not compared</th><th>failed</th><th>REST ms</th><th>translation ms</th><th>NerdGraph round trips</th></tr>
{{range .R.Routes}}<tr><td>{{.Route}}</td><td>{{.Requests}}</td><td>{{index .Counts "equal"}}</td><td>{{index .Counts "within_tolerance"}}</td><td>{{.Undeclared "different"}}</td><td>{{.Undeclared "missing_in_rest"}}</td><td>{{.Undeclared "missing_in_translation"}}</td><td>{{.DeclaredCount}}</td><td>{{.NotCompared}}</td><td>{{.Errors}}</td><td>{{printf "%.1f" .RESTMillis}}</td><td>{{printf "%.1f" .TranslationMillis}}</td><td>{{.RoundTrips}}</td></tr>
{{end}}</table>
<h2>Requests</h2>
{{range .Rows}}<h3><code>GET {{.Path}}</code> ({{.Route}})</h3>
<p>REST {{.RESTStatus}} in {{printf "%.1f" .RESTMillis}} ms; translation {{.TranslationStatus}} in {{printf "%.1f" .TranslationMillis}} ms, {{.RoundTrips}} NerdGraph round trip(s).{{if .NotCompared}} <strong>Not compared: {{.NotCompared}}</strong>{{end}}{{if .Error}} <strong>Failed: {{.Error}}</strong>{{end}}</p>
{{if .Shown}}<table><tr><th>field</th><th>verdict</th><th>REST</th><th>translation</th></tr>
{{range .Shown}}<tr class="{{.Verdict}}"><td><code>{{.Path}}</code></td><td>{{.Verdict}}{{if .Declared}} (declared by the note: {{.Reason}}){{end}}</td><td><code>{{js .REST}}</code></td><td><code>{{js .Translation}}</code></td></tr>
{{end}}</table>{{else}}{{if not (or .Error .NotCompared)}}<p>Every field equal.</p>{{end}}{{end}}
{{end}}
</body></html>
`))
