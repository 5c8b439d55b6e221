package gateway

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// noteLineMax is the longest one-line note the README's route table carries, in runes,
// before the ellipsis marker (it keeps README.md under 15 KB).
const noteLineMax = 80

// RouteTable renders Routes() as the README's markdown table: name, methods, path,
// fidelity and a one-line note. The one-line note is OneLineNote of the route's Note;
// docs/fidelity.md (FidelityMarkdown) carries the whole note.
func RouteTable() string {
	var b strings.Builder
	b.WriteString("| route | methods | path | fidelity | note |\n|---|---|---|---|---|\n")
	for _, r := range Routes() {
		path, methods := routeDisplay(r)
		b.WriteString("| `" + r.Name + "` | " + methods + " | " + path + " | " +
			string(r.Fidelity) + " | " + cell(OneLineNote(r.Note)) + " |\n")
	}
	return b.String()
}

// FidelityMarkdown renders docs/fidelity.md: every route of Routes() with its fidelity and
// whole note (the README's table has its methods and path), then the real REST v2 paths
// that are answered 501 (UnsupportedRESTPaths).
func FidelityMarkdown() string {
	var b strings.Builder
	b.WriteString("# Fidelity, route by route\n\n" +
		"<!-- Generated from gateway.Routes and gateway.UnsupportedRESTPaths: do not edit.\n" +
		"     go test ./gateway -run Fidelity -update rewrites this file. -->\n\n" +
		"Every answer carries its route's fidelity in `X-V2bridge-Fidelity`:\n\n" +
		"- `" + string(Exact) + "`: differs from REST v2 only in values NerdGraph reports differently over time;\n" +
		"- `" + string(Approximate) + "`: the fields the note names are derived, omitted or synthesised;\n" +
		"- `" + string(Unsupported) + "`: NerdGraph has no path; the route answers a v2 error naming the replacement.\n\n" +
		"The README's route table has each route's methods, path and its note cut to a line;\n" +
		"this page has the whole note.\n\n")
	b.WriteString("## Routes\n\n")
	for _, r := range Routes() {
		b.WriteString("### `" + r.Name + "`\n\n**" + string(r.Fidelity) + "**: " + r.Note + "\n\n")
	}
	b.WriteString("## REST v2 paths answered 501\n\n" +
		"Paths that match no route answer a v2-shaped 404, except real REST v2 paths under these\n" +
		"segments, which answer 501 naming the NerdGraph replacement (or pass through with\n" +
		"`unmatched_passthrough`):\n\n" +
		"| path | answer |\n|---|---|\n")
	for _, u := range UnsupportedRESTPaths() {
		b.WriteString("| `/v2/" + u[0] + "…` | " + cell(u[1]) + " |\n")
	}
	return b.String()
}

// OneLineNote is the README's note for a route: the note's first sentence (up to the
// first ". "), and when that is longer than noteLineMax (80) runes, its part before the
// last "; " in the second half of that bound (else the last space), outside parentheses
// and code spans where it can. A note cut either way ends with " …"; docs/fidelity.md
// has the rest.
func OneLineNote(note string) string {
	first := note
	if i := strings.Index(note, ". "); i >= 0 {
		first = note[:i+1]
	}
	if utf8.RuneCountInString(first) <= noteLineMax {
		if first == note {
			return note
		}
		return first + " …"
	}
	note = first
	// Candidate cuts by byte offset, best first: a clause break at the top level past half
	// the bound, a space at the top level, any space outside code.
	clause, space, anySpace := -1, -1, -1
	depth, code, n := 0, false, 0
	for i, r := range note {
		if n == noteLineMax {
			break
		}
		n++
		switch r {
		case '`':
			code = !code
		case '(':
			if !code {
				depth++
			}
		case ')':
			if !code && depth > 0 {
				depth--
			}
		case ' ':
			if code {
				continue
			}
			anySpace = i
			if depth == 0 {
				space = i
				if i > 0 && note[i-1] == ';' && n > noteLineMax/2 {
					clause = i - 1
				}
			}
		}
	}
	cut := len(note)
	for _, c := range []int{clause, space, anySpace} {
		if c > 0 {
			cut = c
			break
		}
	}
	return strings.TrimRight(note[:cut], ",; ") + " …"
}

// routeDisplay is a route's path and methods as the tables show them.
func routeDisplay(r Route) (path, methods string) {
	path, methods = "`/v2"+displayPath(r.Path)+".{json,xml}`", strings.Join(r.Methods, ", ")
	switch {
	case r.Prefix:
		path, methods = "`/v2"+r.Path+"*`", "any"
	case r.Legacy: // served at the root, XML only (also under /accounts/{id})
		path = "`" + displayPath(r.Path) + ".xml`"
	}
	return path, methods
}

// cell escapes the pipes of a table cell's text.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// displayPath drops mux's regular expressions: {id:[0-9]+} → {id}.
func displayPath(p string) string {
	return regexp.MustCompile(`:[^}]*}`).ReplaceAllString(p, "}")
}
