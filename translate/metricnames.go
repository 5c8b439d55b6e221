package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// Metric names: REST listed every name ever reported, 1000 a page. NerdGraph has no
// catalogue, so the names are the distinct timeslice names of a window (default one
// day), cached per caller and scope (REST itself advised caching them).
const (
	MetricNamesPageSize      = 1000
	DefaultMetricNamesWindow = 24 * time.Hour
	metricNamesLimit         = MaxUniques
)

// MetricNamesRequest is a parsed GET .../metrics.
type MetricNamesRequest struct {
	Name string // substring filter, no regular expressions
	Page int
}

// MetricNames answers GET .../metrics.
func (t *Translator) MetricNames(ctx context.Context, c Caller, s MetricScope, r MetricNamesRequest) (*restv2.MetricNames, Paging, error) {
	if r.Page < 1 {
		r.Page = 1
	}
	read, err := t.metricNames(ctx, c, s)
	if err != nil {
		return nil, Paging{}, err
	}
	if read.capped {
		noteCap(ctx, CapMetricNames)
	}
	all := read.names
	var matched []string
	for _, n := range all {
		if r.Name == "" || containsString(n, r.Name) {
			matched = append(matched, n)
		}
	}
	page, paging := pageOf(matched, r.Page, MetricNamesPageSize)
	out := &restv2.MetricNames{Metrics: make([]restv2.MetricName, 0, len(page))}
	for _, n := range page {
		out.Metrics = append(out.Metrics, restv2.MetricName{Name: n, Values: metricdata.Defaults(n)})
	}
	return out, paging, nil
}

// metricNames is the scope's distinct names, from the cache (per caller and scope)
// or read once.
func (t *Translator) metricNames(ctx context.Context, c Caller, s MetricScope) (metricNameRead, error) {
	key := c.cacheKey("metric-names", s.guid(c.AccountID), s.Host, strconv.FormatInt(s.InstanceID, 10))
	if v, ok := t.st.Names.Get(key); ok {
		return v.(metricNameRead), nil
	}
	read, err := t.fetchMetricNames(ctx, c, s)
	if err != nil {
		return metricNameRead{}, err
	}
	t.st.Names.Set(key, read)
	return read, nil
}

// known tells whether name is one of the read names (sorted).
func (r metricNameRead) known(name string) bool {
	_, ok := slices.BinarySearch(r.names, name)
	return ok
}

// metricNameRead is the distinct names of a scope, and whether uniques() returned its
// limit (10000, the most it can: translate/caps.go) — then names beyond it may exist,
// and the answer is declared. No split of the read is sound: uniques() keeps the first
// names it meets, the window does not divide names, and a FACET would keep fewer.
type metricNameRead struct {
	names  []string
	capped bool
}

func (t *Translator) fetchMetricNames(ctx context.Context, c Caller, s MetricScope) (metricNameRead, error) {
	until := t.until()
	var n NRQL
	n.Raw("SELECT uniques(metricTimesliceName, ").Int(metricNamesLimit).Raw(") AS 'names' FROM Metric WHERE ")
	scopeNRQL(&n, s, c.AccountID)
	n.Raw(" AND newrelic.timeslice.value IS NOT NULL ").Range(until.Add(-t.namesWindow), until)
	q, err := n.Build()
	if err != nil {
		return metricNameRead{}, err
	}
	resp, err := ng.MetricNames(ctx, t.client, s.guid(c.AccountID), int(c.AccountID), q)
	if err != nil {
		return metricNameRead{}, fmt.Errorf("metric names: %w", err)
	}
	ent := resp.GetActor().GetEntity()
	if ent.GetAccountId() == nil || int64(*ent.GetAccountId()) != c.AccountID {
		return metricNameRead{}, s.NotFound()
	}
	var names []string
	capped := false
	if acct := resp.GetActor().GetAccount(); acct != nil && acct.Names != nil {
		for _, row := range acct.Names.Results {
			if row == nil {
				continue
			}
			var v struct {
				Names []string `json:"names"`
			}
			if err := json.Unmarshal(*row, &v); err != nil {
				return metricNameRead{}, fmt.Errorf("metric names row: %w", err)
			}
			capped = capped || len(v.Names) >= metricNamesLimit
			names = append(names, v.Names...)
		}
	}
	slices.Sort(names)
	return metricNameRead{names: slices.Compact(names), capped: capped}, nil
}

// containsString is REST's "simple character match": a case-sensitive substring.
func containsString(s, sub string) bool { return strings.Contains(s, sub) }
