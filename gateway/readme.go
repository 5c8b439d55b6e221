package gateway

import (
	"regexp"
	"strings"
)

// RouteTable renders Routes() as the README's markdown table of routes and fidelity.
func RouteTable() string {
	var b strings.Builder
	b.WriteString("| route | methods | path | fidelity | what differs |\n|---|---|---|---|---|\n")
	for _, r := range Routes() {
		path, methods := "`/v2"+displayPath(r.Path)+".{json,xml}`", strings.Join(r.Methods, ", ")
		switch {
		case r.Prefix:
			path, methods = "`/v2"+r.Path+"*`", "any"
		case r.Legacy: // served at the root, XML only (also under /accounts/{id})
			path = "`" + displayPath(r.Path) + ".xml`"
		}
		b.WriteString("| `" + r.Name + "` | " + methods + " | " + path + " | " +
			string(r.Fidelity) + " | " + r.Note + " |\n")
	}
	return b.String()
}

// displayPath drops mux's regular expressions: {id:[0-9]+} → {id}.
func displayPath(p string) string {
	return regexp.MustCompile(`:[^}]*}`).ReplaceAllString(p, "}")
}
