package translate

import (
	"fmt"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// Property: whatever a metric name or host name holds, the metric data query built with
// it parses (with the simulator's NRQL parser), keeps its shape (FROM Metric, one
// WHERE, FACET, SINCE, UNTIL, TIMESERIES, LIMIT) and its WHERE clause exactly the
// account's application scope AND the host AND the name list, and carries both values
// back exactly — a value never ends its string literal early, adds a condition or adds
// a clause.
func FuzzNRQLQuote(f *testing.F) {
	for _, s := range []string{"HttpDispatcher", `x') OR appId IN (2`, `\`, `\'`, "日本", "'''", `\\'`, "a%_+", "Errors/all",
		`' OR true OR host = '`, `x' LIMIT 1 --`, "` FACET host", ""} {
		f.Add(s)
	}
	var p nrdb.Parser
	w := metricdata.Window{Since: time.Unix(1_700_000_000, 0), Until: time.Unix(1_700_001_800, 0), Period: time.Minute}
	const appID = 314221522
	f.Fuzz(func(t *testing.T, name string) {
		q, err := metricDataNRQL(MetricScope{AppID: appID, Host: name}, 1000001, []string{name, "Apdex"}, w, false)
		if err != nil {
			if _, qerr := QuoteNRQL(name); qerr == nil {
				t.Fatalf("query refused although %q quotes: %v", name, err)
			}
			return // control characters and invalid UTF-8 are refused
		}
		parsed, err := p.Parse(q)
		if err != nil {
			t.Fatalf("built query does not parse: %v\n%s", err, q)
		}
		if len(parsed.From) != 1 || parsed.From[0] != "Metric" {
			t.Fatalf("FROM changed: %q in %s", parsed.From, q)
		}
		var where *nrdb.Cond
		var shape []string
		for _, c := range parsed.Clauses {
			switch {
			case c.Where != nil:
				where = c.Where
				shape = append(shape, "WHERE")
			case c.Facet != nil:
				shape = append(shape, "FACET")
			case c.Since != nil:
				shape = append(shape, "SINCE")
			case c.Until != nil:
				shape = append(shape, "UNTIL")
			case c.Timeseries != nil:
				shape = append(shape, "TIMESERIES")
			case c.Limit != nil:
				shape = append(shape, "LIMIT")
			}
		}
		if got := fmt.Sprint(shape); got != "[WHERE FACET SINCE UNTIL TIMESERIES LIMIT]" {
			t.Fatalf("clauses %s in %s", got, q)
		}
		want := 4
		if name == "" {
			want = 3 // an empty host is no host scope
		}
		if len(where.Or) != 1 || len(where.Or[0].And) != want {
			t.Fatalf("WHERE is no longer app AND host AND scope IS NULL AND names: %s", q)
		}
		if u := where.Or[0].And[want-2].Compare; u == nil || u.IsNull == nil || u.IsNull.Not || fuzzAttr(u.Left) != "scope" {
			t.Fatalf("unscoped condition changed: %s", q)
		}
		and := where.Or[0].And
		for _, c := range and {
			if c.Not || c.Compare == nil {
				t.Fatalf("WHERE term negated or grouped: %s", q)
			}
		}
		app, names := and[0].Compare, and[want-1].Compare
		if fuzzAttr(app.Left) != "appId" || app.Op != "=" || fuzzNumber(app.Right) == nil || *fuzzNumber(app.Right) != appID {
			t.Fatalf("application scope changed: %s", q)
		}
		if host := and[1].Compare; want == 4 &&
			(fuzzAttr(host.Left) != "host" || host.Op != "=" || fuzzString(host.Right) == nil || *fuzzString(host.Right) != name) {
			t.Fatalf("host literal is not %q: %s", name, q)
		}
		if fuzzAttr(names.Left) != "metricTimesliceName" || names.NotIn || len(names.In) != 2 || names.In[0].String == nil || names.In[1].String == nil {
			t.Fatalf("name list changed: %s", q)
		}
		if got := *names.In[0].String; got != name || *names.In[1].String != "Apdex" {
			t.Fatalf("literal %q != name %q in %s", got, name, q)
		}
	})
}

// fuzzFactor is the single factor an expression is, or nil.
func fuzzFactor(e *nrdb.Expr) *nrdb.Factor {
	if e == nil || len(e.Right) > 0 || e.Left == nil || len(e.Left.Right) > 0 {
		return nil
	}
	return e.Left.Left
}

func fuzzAttr(e *nrdb.Expr) string {
	if f := fuzzFactor(e); f != nil && f.Attr != nil && f.Attr.Field == nil && !f.Neg {
		return f.Attr.Name()
	}
	return ""
}

func fuzzString(e *nrdb.Expr) *string {
	if f := fuzzFactor(e); f != nil && !f.Neg {
		return f.String
	}
	return nil
}

func fuzzNumber(e *nrdb.Expr) *float64 {
	if f := fuzzFactor(e); f != nil && !f.Neg {
		return f.Number
	}
	return nil
}
