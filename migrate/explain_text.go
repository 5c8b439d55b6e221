package migrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the explanation for people: the request, route and account, then
// each NerdGraph call with its GraphQL document as written (multi-line), its variables
// indented, and the NRQL and entity-search texts, then what was not made and the answer.
// JSON carries the same, for machines.
func (x *Explanation) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nroute %s (%s), mode %s\n", x.Request, x.Route, x.Fidelity, x.Mode)
	if x.Account != nil {
		fmt.Fprintf(&b, "account %d (%s)\n", x.Account.ID, x.Account.Source)
	}
	if x.Note != "" {
		fmt.Fprintf(&b, "fidelity: %s\n", x.Note)
	}
	if x.ModeNote != "" {
		fmt.Fprintf(&b, "mode: %s\n", x.ModeNote)
	}
	for _, c := range x.Calls {
		fmt.Fprintf(&b, "\nNerdGraph call %d: %s %s (%s)\n", c.Step, c.Kind, c.Operation, c.Condition)
		writeIndented(&b, "  ", c.Document)
		if len(c.Variables) > 0 {
			b.WriteString("  variables:\n")
			var v bytes.Buffer
			if json.Indent(&v, c.Variables, "", "  ") != nil {
				v.Reset()
				v.Write(c.Variables)
			}
			writeIndented(&b, "    ", v.String())
		}
		for _, q := range c.NRQL {
			fmt.Fprintf(&b, "  NRQL: %s\n", q)
		}
		for _, q := range c.EntitySearch {
			fmt.Fprintf(&b, "  entity search: %s\n", q)
		}
	}
	if len(x.NotMade) > 0 {
		b.WriteString("\nnot made in the dry run:\n")
		for _, n := range x.NotMade {
			fmt.Fprintf(&b, "  %s %s: %s\n", n.Kind, n.Operation, n.Condition)
		}
	}
	b.WriteString("\nanswer: ")
	if x.Answer.Status != 0 {
		fmt.Fprintf(&b, "%d ", x.Answer.Status)
	}
	if x.Answer.Title != "" {
		b.WriteString(x.Answer.Title + " ")
	}
	fmt.Fprintf(&b, "(%s)\n", x.Answer.Source)
	for _, n := range x.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeIndented writes text line by line behind prefix, tabs as two spaces.
func writeIndented(b *strings.Builder, prefix, text string) {
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(prefix + strings.ReplaceAll(line, "\t", "  ") + "\n")
	}
}
