package translate

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// MetricScope is the entity a metric request reads: an APM application, optionally
// narrowed to one host or one agent instance.
type MetricScope struct {
	AppID      int64
	Host       string // host scope
	InstanceID int64  // instance scope
	// Mobile scopes to a mobile application (by entity guid; its timeslices carry no
	// appId).
	Mobile bool
}

// guid is the entity the scope reads.
func (s MetricScope) guid(accountID int64) string {
	if s.Mobile {
		return AppGUID(accountID, DomainMobile, s.AppID)
	}
	return AppGUID(accountID, DomainAPM, s.AppID)
}

// MetricDataRequest is a parsed GET .../metrics/data.
type MetricDataRequest struct {
	Names     []string
	Values    []string
	From, To  *time.Time
	Period    int // seconds; 0 = the default for the range
	Summarize bool
	Raw       bool
}

// Metric chunking: each NRQL facets at most this many names, and one document holds at
// most MaxMetricChunks of them (the MetricData operation's aliases).
const (
	MetricChunk     = 50
	MaxMetricChunks = 4
	MaxMetricNames  = MetricChunk * MaxMetricChunks
	// DefaultMetricRange is REST v2's default window.
	DefaultMetricRange = 30 * time.Minute
	// MetricDataTTL is how long identical metric queries are answered from cache: REST
	// advised polling at most once a minute and NerdGraph allows 120 identical NRQL
	// queries a minute.
	MetricDataTTL = 60 * time.Second
)

// metricWindow is a request's resolved time range.
type metricWindow struct {
	from, to     time.Time // as requested (envelope)
	since, until time.Time // aligned to the period (NRQL range, slice boundaries)
	period       time.Duration
}

// resolveWindow applies REST v2's time rules: default last 30 minutes, 60 s minimum,
// the period-by-range table, period only coarsening, slices aligned to period
// boundaries in UTC (https://docs.newrelic.com/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data/,
// https://docs.newrelic.com/docs/apm/apis/api-v2-examples/specifying-time-range-v2).
func resolveWindow(r MetricDataRequest, now time.Time) (metricWindow, error) {
	w := metricWindow{to: now.UTC().Truncate(time.Second)}
	if r.To != nil {
		w.to = r.To.UTC()
	}
	w.from = w.to.Add(-DefaultMetricRange)
	if r.From != nil {
		w.from = r.From.UTC()
	}
	if r.To == nil && r.From != nil && !w.from.Before(w.to) {
		w.to = w.from.Add(DefaultMetricRange)
	}
	span := w.to.Sub(w.from)
	if span < 0 {
		return w, v2.Unprocessable("The from time must be before the to time")
	}
	if span < time.Minute {
		return w, v2.Unprocessable("The time range must be at least 60 seconds")
	}
	w.period = defaultPeriod(span, now.Sub(w.from) > 8*24*time.Hour)
	if r.Period > 0 {
		if p := time.Duration(r.Period) * time.Second; p > w.period {
			w.period = p.Truncate(time.Minute)
			if w.period < time.Minute {
				w.period = time.Minute
			}
		}
	}
	from, to := w.from, w.to
	if r.From == nil && r.To == nil { // the default range: placed as REST placed it
		lag := ingestLag(r.Summarize)
		from, to = from.Add(-lag), to.Add(-lag)
	}
	w.since = alignDown(from, w.period)
	w.until = alignDown(to, w.period)
	if !w.until.After(w.since) {
		w.until = w.since.Add(w.period)
	}
	if n := w.until.Sub(w.since) / w.period; n > 366 {
		return w, v2.Unprocessable(fmt.Sprintf("The period gives %d time slices; at most 366 are allowed", n))
	}
	return w, nil
}

// ingestLag is how far before the default range (the last 30 minutes) REST placed its
// slices, leaving out the newest minutes, whose data may still be arriving: its
// recorded answers start their slices three minutes before the envelope's from minute,
// or two when summarized (docs-website src/content/docs/apis/rest-api-v2/basic-functions/
// extract-metric-timeslice-data.mdx: from 18:06:06, first slice 18:03; newrelic-client-go
// pkg/apm/applications_test.go @ 1fd3d6ec testMetricDataJson: from 23:25:45, first slice 23:22;
// docs-website .../application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx,
// summarized: from 23:41:15 to 00:11:15, one slice 23:39:00 to 00:08:59). The envelope's
// from and to stay as they were, as in those answers. Every recording is of the default
// range; a range the caller gives is served where it was asked.
func ingestLag(summarize bool) time.Duration {
	if summarize {
		return 2 * time.Minute
	}
	return 3 * time.Minute
}

func alignDown(t time.Time, p time.Duration) time.Time {
	return time.UnixMilli(t.UnixMilli() - t.UnixMilli()%p.Milliseconds()).UTC()
}

// defaultPeriod is REST v2's granularity for a range (the timeslice data page above
// resolveWindow): by range length,
// and "10 evenly spaced points" for short ranges whose start is older than 8 days.
func defaultPeriod(span time.Duration, old bool) time.Duration {
	const day = 24 * time.Hour
	if old && span <= 4*day {
		p := (span/10 + time.Minute - 1).Truncate(time.Minute)
		return max(p, time.Minute)
	}
	switch {
	case span <= 3*time.Hour:
		return time.Minute
	case span <= 6*time.Hour:
		return 2 * time.Minute
	case span <= 14*time.Hour:
		return 5 * time.Minute
	case span <= day:
		return 10 * time.Minute
	case span <= 4*day:
		return 30 * time.Minute
	case span <= 7*day:
		return time.Hour
	case span <= 21*day:
		return 3 * time.Hour
	case span <= 42*day:
		return 6 * time.Hour
	case span <= 63*day:
		return 12 * time.Hour
	}
	return 3 * day
}

// scopeNRQL appends the WHERE clause naming the scope. appId is compared as a number
// and realAgentId as a string, as New Relic's migration page writes them for metric
// data (appId = $APP_ID, realAgentId = '$AGENT_ID',
// https://docs.newrelic.com/docs/apis/rest-api-v2/migrate-to-nrql/); NRQL does not
// coerce types ("Data type "coercion" is not supported",
// https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/#aggregator-functions).
// The same page quotes appId in its metric-name example (appId = '$APP_ID'): the two
// cannot both match under no coercion; the data example, whose query sums the values,
// is followed. Mobile applications are scoped by entity.guid, the timeslice attribute
// "The GUID of the application" (documented for APM timeslices only:
// https://docs.newrelic.com/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql/#attributes).
func scopeNRQL(n *NRQL, s MetricScope, accountID int64) {
	if s.Mobile {
		n.Raw("entity.guid = ").Str(s.guid(accountID))
		return
	}
	n.Raw("appId = ").Int(s.AppID)
	if s.Host != "" {
		n.Raw(" AND host = ").Str(s.Host)
	}
	if s.InstanceID != 0 {
		n.Raw(" AND realAgentId = ").Str(strconv.FormatInt(s.InstanceID, 10))
	}
}

// UnscopedNRQL is the condition every timeslice sum carries: only a metric's unscoped
// rows. NRDB also holds copies of Datastore/*, External/* and custom segment metrics
// scoped to each transaction, with the same metricTimesliceName and a scope attribute
// naming the transaction; unscoped rows have none ("scope: (Optional) The timeslice name
// of the legacy metric that this metric is scoped to",
// https://docs.newrelic.com/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql/#attributes).
// IS NULL "determines if an attribute has a null value"
// (https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/#sel-where).
// REST v2's metric data were the unscoped metrics: summing the scoped copies too
// counts each call once more per transaction it ran in.
const UnscopedNRQL = "scope IS NULL"

// metricDataSelect is one chunk's SELECT: the raw sums of raw, by alias.
const metricDataSelect = "SELECT count(" + tsv + ") AS 'c', sum(" + tsv + ") AS 's', " +
	"sum(" + tsv + "['totalExclusive']) AS 'ex', min(" + tsv + ") AS 'mn', " +
	"max(" + tsv + ") AS 'mx', sum(" + tsv + "['sumOfSquares']) AS 'sq', " +
	"stddev(" + tsv + ") AS 'sd', average(" + tsv + "['totalExclusive'] / " + tsv + "['count']) AS 'exr', " +
	"average(" + tsv + "['totalExclusive']) AS 'exm' FROM Metric WHERE "

// metricDataNRQL is one chunk's query: raw per name and slice, unscoped rows only.
func metricDataNRQL(s MetricScope, accountID int64, names []string, w metricWindow, summarize bool) (string, error) {
	var n NRQL
	n.Raw(metricDataSelect)
	scopeNRQL(&n, s, accountID)
	n.Raw(" AND " + UnscopedNRQL + " AND metricTimesliceName IN ").StrList(names)
	n.Raw(" FACET metricTimesliceName ").Range(w.since, w.until)
	if !summarize {
		n.Raw(" TIMESERIES ").Int(int64(w.period / time.Second)).Raw(" seconds")
	}
	n.Raw(" LIMIT MAX")
	return n.Build()
}

// sliceRaw is one slice of a metric: its NRQL row. A metric's slices are its rows in
// begin order, sub-slices of the decoded answer, which fetchMetricData sorts in place,
// so the rows are not copied. rowRaw and rowTime
// read one.
type sliceRaw = ng.TimesliceRow

// rowRaw is a row's raw sums.
func rowRaw(v *sliceRaw) raw {
	return raw{count: v.C, total: v.S, exclusive: v.Ex, min: v.Mn, max: v.Mx, sumSquares: v.Sq,
		stddev: v.Sd, exclusiveRatio: v.Exr, exclusiveMean: v.Exm}
}

// rowTime is a row's beginTimeSeconds or endTimeSeconds as a time (whole seconds).
func rowTime(seconds float64) time.Time { return time.Unix(int64(seconds), 0).UTC() }

// MetricData answers GET .../metrics/data as *v2.MetricData (MetricDocument's answer,
// its model built when it is a MetricDoc).
func (t *Translator) MetricData(ctx context.Context, c Caller, s MetricScope, r MetricDataRequest) (*v2.MetricData, error) {
	doc, err := t.MetricDocument(ctx, c, s, r)
	if err != nil {
		return nil, err
	}
	if d, ok := doc.(*MetricDoc); ok {
		return d.Model(), nil
	}
	return doc.(*v2.MetricData), nil
}

// MetricDocument answers GET .../metrics/data in one NerdGraph round trip (cached for
// MetricDataTTL per caller and query). The answer is a *MetricDoc, rendered straight
// from its series, or a *v2.MetricData where the fleet's shared cache holds the
// document (its codec stores the model; sharedCodecs).
func (t *Translator) MetricDocument(ctx context.Context, c Caller, s MetricScope, r MetricDataRequest) (v2.Document, error) {
	names := dedupe(r.Names)
	if len(names) == 0 {
		return nil, v2.Unprocessable("names[] is required: give at least one metric name")
	}
	if len(names) > MaxMetricNames {
		return nil, v2.Unprocessable(fmt.Sprintf("At most %d metric names per request", MaxMetricNames))
	}
	w, err := resolveWindow(r, t.now())
	if err != nil {
		return nil, err
	}
	// The document is looked up before any NRQL is written: a hit (the cached route's
	// whole work) costs one key.
	docKey := metricDocKey(c, s, names, r, w)
	if doc, ok := t.metrics.Get(docKey); ok {
		return doc.(v2.Document), nil
	}
	var queries []string
	for i := 0; i < len(names); i += MetricChunk {
		q, err := metricDataNRQL(s, c.AccountID, names[i:min(i+MetricChunk, len(names))], w, r.Summarize)
		if err != nil {
			return nil, v2.Unprocessable("Invalid metric name: " + err.Error())
		}
		queries = append(queries, q)
	}
	key := c.cacheKey("metric-data", s.guid(c.AccountID), strings.Join(queries, "\n"))
	series, ok := t.metrics.Get(key)
	if !ok {
		series, err = t.fetchMetricData(ctx, c, s, queries, chunkRows(len(names), w, r.Summarize))
		if err != nil {
			return nil, err
		}
		t.metrics.Set(key, series)
	}
	// The same document is shared until the data expires (read only). A MetricDoc
	// holds the cached series, not a copy, and the values resolved per name.
	doc := newMetricDoc(names, r, w, series.(map[string][]sliceRaw))
	if t.metrics == nil {
		return doc, nil
	}
	doc.Share()
	if t.metrics.Shared() {
		md := doc.Model()
		t.metrics.Set(docKey, md)
		return md, nil
	}
	t.metrics.Set(docKey, doc)
	return doc, nil
}

// metricDocKey is the cache key of a metric data document: the caller (cacheKey), and
// everything the document is made of — the scope, the names in order, the resolved
// window (the NRQL's range and TIMESERIES period), summarize, the values asked for,
// raw, and the window as the caller wrote it (echoed in from and to). The NRQL of the
// series key is a function of the same scope, names and window. Strings are
// length-prefixed, so no two requests share a key.
func metricDocKey(c Caller, s MetricScope, names []string, r MetricDataRequest, w metricWindow) string {
	// Built on the stack and copied once into the key: this runs on every cached
	// answer, where each allocation also pays the collector's assist. The text is c.cacheKey("metric-doc", <body>)'s.
	var room [512]byte
	b := append(room[:0], c.KeyHash...)
	b = append(b, '|')
	b = strconv.AppendInt(b, c.AccountID, 10)
	b = append(b, "|metric-doc|"...)
	b = keyNum(b, s.AppID)
	b = keyFlag(b, s.Mobile)
	b = keyString(b, s.Host)
	b = keyNum(b, s.InstanceID)
	for _, t := range [...]time.Time{w.since, w.until, w.from, w.to} {
		b = keyNum(b, t.Unix())
		b = keyNum(b, int64(t.Nanosecond()))
	}
	b = keyNum(b, int64(w.period))
	b = keyFlag(b, r.Summarize)
	b = keyFlag(b, r.Raw)
	b = keyNum(b, int64(len(names)))
	for _, x := range names {
		b = keyString(b, x)
	}
	b = keyNum(b, int64(len(r.Values)))
	for _, x := range r.Values {
		b = keyString(b, x)
	}
	return string(b)
}

// keyString appends x length-prefixed ("3:abc"), keyNum i and a comma, keyFlag v and a
// comma: the parts of metricDocKey.
func keyString(b []byte, x string) []byte {
	b = strconv.AppendInt(b, int64(len(x)), 10)
	b = append(b, ':')
	return append(b, x...)
}

func keyNum(b []byte, i int64) []byte { return append(strconv.AppendInt(b, i, 10), ',') }

func keyFlag(b []byte, v bool) []byte { return append(strconv.AppendBool(b, v), ',') }

// chunkRows is how many rows each chunk of n names answers at most in window w: a row
// per name and slice (one slice when summarized; FACET answers only the names with
// data). fetchMetricData's slices are allocated at that size before the answer is
// decoded into them (graphql.WithTimesliceRows).
func chunkRows(n int, w metricWindow, summarize bool) []int {
	slices := 1
	if !summarize && w.period > 0 {
		slices = int(w.until.Sub(w.since) / w.period)
	}
	rows := make([]int, 0, MaxMetricChunks)
	for ; n > 0; n -= MetricChunk {
		rows = append(rows, min(n, MetricChunk)*slices)
	}
	return rows
}

func (t *Translator) fetchMetricData(ctx context.Context, c Caller, s MetricScope, queries []string, rows []int) (map[string][]sliceRaw, error) {
	q := make([]string, MaxMetricChunks)
	for i := range q {
		q[i] = queries[0] // skipped by @include; never run
		if i < len(queries) {
			q[i] = queries[i]
		}
	}
	resp, err := ng.MetricData(ng.WithTimesliceRows(ctx, rows...), t.client, s.guid(c.AccountID), int(c.AccountID),
		q[0], q[1], len(queries) > 1, q[2], len(queries) > 2, q[3], len(queries) > 3)
	if err != nil {
		return nil, fmt.Errorf("metric data: %w", err)
	}
	actor := resp.GetActor()
	if actor == nil || actor.Entity.AccountId == nil || int64(*actor.Entity.AccountId) != c.AccountID {
		return nil, ErrApplicationNotFound()
	}
	acct := resp.GetActor().GetAccount()
	if acct == nil {
		return nil, fmt.Errorf("metric data: no account in the answer")
	}
	var chunks [][]ng.TimesliceRow
	if acct.Q0 != nil {
		chunks = append(chunks, acct.Q0.Results)
	}
	if acct.Q1 != nil {
		chunks = append(chunks, acct.Q1.Results)
	}
	if acct.Q2 != nil {
		chunks = append(chunks, acct.Q2.Results)
	}
	if acct.Q3 != nil {
		chunks = append(chunks, acct.Q3.Results)
	}
	// The rows were decoded with the answer (graphql.TimesliceRow, by value), in one
	// pass. Each name's run of rows is its series, sorted in place by begin (stably);
	// a null row (or a facet that is not a metric name) names no metric. NRQL's FACET
	// answers come grouped by facet, so a chunk is sorted by name too (stably, rows
	// without one first) only when a name's rows are not one run.
	out := make(map[string][]sliceRaw, MetricChunk)
	for _, rows := range chunks {
		if !grouped(rows) {
			slices.SortStableFunc(rows, compareRows)
		}
		for i := 0; i < len(rows); {
			name, ok, j := runAt(rows, i)
			if ok {
				run := rows[i:j:j]
				if prev, dup := out[name]; dup { // one name in two chunks: not sent so, merged
					run = append(slices.Clip(prev), run...)
				}
				if !slices.IsSortedFunc(run, compareBegin) {
					slices.SortStableFunc(run, compareBegin)
				}
				out[name] = run
			}
			i = j
		}
	}
	return out, nil
}

// runAt is the run of rows from i with the same facet: its metric name (ok: the facet
// is one) and the index after its last row.
func runAt(rows []sliceRaw, i int) (name string, ok bool, end int) {
	name, ok = rows[i].Facet.(string)
	end = i + 1
	for end < len(rows) && facetIs(&rows[end], name, ok) {
		end++
	}
	return name, ok, end
}

// grouped reports whether every metric name's rows are one run.
func grouped(rows []sliceRaw) bool {
	var buf [MetricChunk]string // a chunk's names: no allocation
	seen := buf[:0]
	for i := 0; i < len(rows); {
		name, ok, j := runAt(rows, i)
		if ok {
			if slices.Contains(seen, name) {
				return false
			}
			seen = append(seen, name)
		}
		i = j
	}
	return true
}

// compareRows orders rows by metric name, rows without one first (the order of
// runs; within a run, compareBegin orders the rows).
func compareRows(a, b sliceRaw) int {
	an, aok := a.Facet.(string)
	bn, bok := b.Facet.(string)
	switch {
	case aok != bok:
		if aok {
			return 1
		}
		return -1
	}
	return strings.Compare(an, bn)
}

// compareBegin orders a metric's rows by begin (whole seconds, as rowTime reads it).
func compareBegin(a, b sliceRaw) int { return cmp.Compare(int64(a.Begin), int64(b.Begin)) }

// facetIs reports whether row names the metric name (ok), or none (!ok) like the
// row before it.
func facetIs(row *sliceRaw, name string, ok bool) bool {
	n, isName := row.Facet.(string)
	return isName == ok && n == name
}

// buildMetricData is the model of a request's document (MetricDoc.Model).
func buildMetricData(names []string, r MetricDataRequest, w metricWindow, series map[string][]sliceRaw) *v2.MetricData {
	return newMetricDoc(names, r, w, series).Model()
}

func anyData(sl []sliceRaw) bool {
	for i := range sl {
		if s := &sl[i]; s.C != 0 || s.S != 0 || s.Ex != 0 {
			return true
		}
	}
	return false
}

func dedupe(ss []string) []string {
	if distinctNonEmpty(ss) {
		return ss // what the gateway passes (v2.Params.Strings): no copy on a cached answer
	}
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// distinctNonEmpty is whether ss holds no empty and no repeated string.
func distinctNonEmpty(ss []string) bool {
	for i, s := range ss {
		if s == "" || slices.Contains(ss[:i], s) {
			return false
		}
	}
	return true
}

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
func (t *Translator) MetricNames(ctx context.Context, c Caller, s MetricScope, r MetricNamesRequest) (*v2.MetricNames, Paging, error) {
	if r.Page < 1 {
		r.Page = 1
	}
	key := c.cacheKey("metric-names", s.guid(c.AccountID), s.Host, strconv.FormatInt(s.InstanceID, 10))
	var read metricNameRead
	if v, ok := t.names.Get(key); ok {
		read = v.(metricNameRead)
	} else {
		var err error
		if read, err = t.fetchMetricNames(ctx, c, s); err != nil {
			return nil, Paging{}, err
		}
		t.names.Set(key, read)
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
	out := &v2.MetricNames{Metrics: make([]v2.MetricName, 0, len(page))}
	for _, n := range page {
		out.Metrics = append(out.Metrics, v2.MetricName{Name: n, Values: classify(n).defaults})
	}
	return out, paging, nil
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
	if ent == nil || *ent == nil || (*ent).GetAccountId() == nil || int64(*(*ent).GetAccountId()) != c.AccountID {
		return metricNameRead{}, ErrApplicationNotFound()
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
