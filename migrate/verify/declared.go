package verify

import "strings"

// declare marks the fields of x that its route's fidelity note names.
func (r *runner) declare(x *Exchange) {
	note := r.cfg.Notes[x.Route]
	if note == "" {
		return
	}
	for i := range x.Fields {
		if f := &x.Fields[i]; f.Verdict != Equal && f.Verdict != WithinTol {
			f.Declared = declaredBy(note, f.Path)
			if f.Declared != "" {
				f.Reason = clauseNaming(note, f.Declared)
			}
		}
	}
}

// Declared says whether a route's fidelity note declares a difference at the JSON path
// p (list elements by index or by id alike): the note's clause naming it, or "".
// Compare mode labels its differences with it as verify does.
func Declared(note, p string) (reason string) {
	if name := declaredBy(note, p); name != "" {
		return clauseNaming(note, name)
	}
	return ""
}

// declaredBy returns the name in note that declares a difference at the JSON path p
// ("$.applications[id=1].settings.end_user_apdex_threshold"): the longest run of p's
// keys, indexes left out, that note names in backquotes, or "".
func declaredBy(note, p string) string {
	var keys []string
	for part := range strings.SplitSeq(strings.TrimPrefix(p, "$."), ".") {
		if i := strings.IndexByte(part, '['); i >= 0 {
			part = part[:i]
		}
		if part != "" {
			keys = append(keys, part)
		}
	}
	best := ""
	for i := range keys {
		for j := i + 1; j <= len(keys); j++ {
			name := strings.Join(keys[i:j], ".")
			if len(name) > len(best) && strings.Contains(note, "`"+name+"`") {
				best = name
			}
		}
	}
	return best
}

// clauseNaming is the clause of note that names `name`: notes are clauses joined by
// "; " (a parenthesis may hold its own), and the first top-level clause holding the
// name in backquotes is the reason a difference in it is declared.
func clauseNaming(note, name string) string {
	depth, start := 0, 0
	var clauses []string
	for i, r := range note {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == ';' && depth == 0:
			clauses = append(clauses, note[start:i])
			start = i + 1
		}
	}
	clauses = append(clauses, note[start:])
	for _, c := range clauses {
		if strings.Contains(c, "`"+name+"`") {
			return strings.TrimSpace(c)
		}
	}
	return "`" + name + "`"
}
