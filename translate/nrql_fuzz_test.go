package translate

import (
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/graphql/sim/nrdb"
)

// Property: whatever a metric name holds, the metric data query built with it parses
// (with the simulator's NRQL parser), keeps its WHERE clause to exactly the account's
// application scope AND the name list, and carries the name back exactly — the value
// never ends its string literal early or adds a condition.
func FuzzNRQLQuote(f *testing.F) {
	for _, s := range []string{"HttpDispatcher", `x') OR appId IN (2`, `\`, `\'`, "日本", "'''", `\\'`, "a%_+", "Errors/all"} {
		f.Add(s)
	}
	var p nrdb.Parser
	w := metricWindow{since: time.Unix(1_700_000_000, 0), until: time.Unix(1_700_001_800, 0), period: time.Minute}
	f.Fuzz(func(t *testing.T, name string) {
		q, err := metricDataNRQL(MetricScope{AppID: 314221522}, 1000001, []string{name, "Apdex"}, w, false)
		if err != nil {
			return // control characters and invalid UTF-8 are refused
		}
		parsed, err := p.Parse(q)
		if err != nil {
			t.Fatalf("built query does not parse: %v\n%s", err, q)
		}
		var where *nrdb.Cond
		for _, c := range parsed.Clauses {
			if c.Where != nil {
				if where != nil {
					t.Fatalf("two WHERE clauses: %s", q)
				}
				where = c.Where
			}
		}
		if where == nil || len(where.Or) != 1 || len(where.Or[0].And) != 2 {
			t.Fatalf("WHERE is no longer scope AND names: %s", q)
		}
		in := where.Or[0].And[1].Compare
		if in == nil || len(in.In) != 2 || in.In[0].String == nil || in.In[1].String == nil {
			t.Fatalf("name list changed: %s", q)
		}
		if got := *in.In[0].String; got != name || *in.In[1].String != "Apdex" {
			t.Fatalf("literal %q != name %q in %s", got, name, q)
		}
	})
}
