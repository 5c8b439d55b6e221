package migrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The text form prints each GraphQL document as written, one line of it a line, with
// its variables indented: the same document the JSON form carries on one escaped line.
func TestExplanationTextPrintsDocumentsMultiLine(t *testing.T) {
	doc := "query AppList ($q: String!) {\n\tactor {\n\t\tentitySearch(query: $q) {\n\t\t\tcount\n\t\t}\n\t}\n}"
	x := &Explanation{Request: "GET /v2/applications.json", Route: "applications.list", Fidelity: "approximate", Mode: "translate",
		Account: &ExplainAccount{ID: 1000001, Source: "given"},
		Calls: []ExplainCall{{Step: 1, Operation: "AppList", Kind: "query", Document: doc,
			Variables: json.RawMessage(`{"q":"domain = 'APM'"}`), EntitySearch: []string{"domain = 'APM'"}, Condition: conditionFirst}},
		Answer: ExplainAnswer{Status: 200, Source: answerDryRun}}
	var b bytes.Buffer
	if err := x.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"NerdGraph call 1: query AppList (",
		"\n  query AppList ($q: String!) {\n    actor {\n      entitySearch(query: $q) {\n        count\n",
		"  variables:\n    {\n      \"q\": \"domain = 'APM'\"\n    }\n",
		"  entity search: domain = 'APM'\n",
		"answer: 200 (dry run",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `\n`) || strings.Contains(out, `\t`) {
		t.Errorf("text has escaped line breaks or tabs:\n%s", out)
	}
}
