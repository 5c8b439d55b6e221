package translate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
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

// NotFound is REST's 404 for a scope's application that does not exist: the mobile
// show's title for a mobile application, the application's otherwise.
func (s MetricScope) NotFound() *restv2.Error {
	if s.Mobile {
		return restv2.NotFound(TitleMobileNotFound)
	}
	return ErrApplicationNotFound()
}

// TitleMobileNotFound is REST's 404 title for an unknown mobile application.
const TitleMobileNotFound = "No Mobile Application found with the given ID"

// MetricDataTTL is how long identical metric queries are answered from cache: REST
// advised polling at most once a minute and NerdGraph allows 120 identical NRQL
// queries a minute.
const MetricDataTTL = 60 * time.Second

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

// metricDataNRQL is one chunk's query (metricdata.NRQL): the scope and the names
// quoted here, by NRQL.
func metricDataNRQL(s MetricScope, accountID int64, names []string, w metricdata.Window, summarize bool) (string, error) {
	var scope, list NRQL
	scopeNRQL(&scope, s, accountID)
	where, err := scope.Build()
	if err != nil {
		return "", err
	}
	in, err := list.StrList(names).Build()
	if err != nil {
		return "", err
	}
	return metricdata.NRQL(where, in, w, summarize), nil
}

// MetricData answers GET .../metrics/data as *restv2.MetricData (MetricDocument's answer,
// its model built when it is a *metricdata.Doc).
func (t *Translator) MetricData(ctx context.Context, c Caller, s MetricScope, r metricdata.Request) (*restv2.MetricData, error) {
	doc, err := t.MetricDocument(ctx, c, s, r)
	if err != nil {
		return nil, err
	}
	if d, ok := doc.(*metricdata.Doc); ok {
		return d.Model(), nil
	}
	return doc.(*restv2.MetricData), nil
}

// MetricDocument answers GET .../metrics/data in one NerdGraph round trip (cached for
// MetricDataTTL per caller and query). The answer is a *metricdata.Doc, rendered straight
// from its series, or a *restv2.MetricData where the fleet's shared cache holds the
// document (its codec stores the model; sharedCodecs).
func (t *Translator) MetricDocument(ctx context.Context, c Caller, s MetricScope, r metricdata.Request) (restv2.Document, error) {
	names := dedupe(r.Names)
	if len(names) == 0 {
		return nil, restv2.Unprocessable("names[] is required: give at least one metric name")
	}
	if len(names) > metricdata.MaxNames {
		return nil, restv2.Unprocessable(fmt.Sprintf("At most %d metric names per request", metricdata.MaxNames))
	}
	now := t.now()
	w, err := metricdata.ResolveWindow(r, now)
	if err != nil {
		return nil, err
	}
	// The document is looked up before any NRQL is written: a hit (the cached route's
	// whole work) costs one key.
	docKey := metricDocKey(c, t.docReading, s, names, r, w)
	if doc, ok := vouchedGet(ctx, t.st.Metrics, docKey, metricdata.WindowUntil(r, w, now)); ok {
		return doc.(restv2.Document), nil
	}
	// The names read: each asked name as NRDB stores it, and the metrics a served
	// error_percentage divides (metricdata.QueryNames).
	read := metricdata.QueryNames(names, r, t.choices)
	if len(read) > metricdata.MaxNames {
		return nil, restv2.Unprocessable(fmt.Sprintf("At most %d metric names per request, with the %s and %s that error_percentage reads",
			metricdata.MaxNames, metricdata.PageErrorsMetric, metricdata.PageViewsMetric))
	}
	series, err := t.metricSeries(ctx, c, s, read, r, w)
	if err != nil {
		return nil, err
	}
	// A name without data in the range is found, with zero values, when the scope's
	// metric names list it (metricdata.NewKnownDoc): the names route's answer, cached
	// per caller and scope, read only when a name has no data.
	var known metricdata.Known
	if metricdata.NeedsKnown(names, series) {
		read, err := t.metricNames(ctx, c, s)
		if err != nil {
			return nil, err
		}
		known = read.known
	}
	// The same document is shared until the data expires (read only). A metricdata.Doc
	// holds the cached series, not a copy, and the values resolved per name.
	doc := metricdata.NewKnownDocWith(names, r, w, series, known, t.choices)
	if t.st.Metrics == nil {
		return doc, nil
	}
	doc.Share()
	if t.st.Metrics.Shared() {
		md := doc.Model()
		t.st.Metrics.Set(docKey, md)
		return md, nil
	}
	t.st.Metrics.Set(docKey, doc)
	return doc, nil
}

// metricSeries is the rows of the names a request reads (metricdata.QueryNames) in
// window w by name, cached per caller
// and query; a window without slices (nothing ingested in the range) has none and
// asks nothing (the names read that follows checks the entity).
func (t *Translator) metricSeries(ctx context.Context, c Caller, s MetricScope, names []string, r metricdata.Request, w metricdata.Window) (map[string][]metricdata.Row, error) {
	var queries []string
	for i := 0; i < len(names); i += metricdata.Chunk {
		q, err := metricDataNRQL(s, c.AccountID, names[i:min(i+metricdata.Chunk, len(names))], w, r.Summarize)
		if err != nil {
			return nil, restv2.Unprocessable("Invalid metric name: " + err.Error())
		}
		queries = append(queries, q)
	}
	if w.Empty() {
		return map[string][]metricdata.Row{}, nil
	}
	rows := metricdata.ChunkRows(len(names), w, r.Summarize)
	guid := s.guid(c.AccountID)
	key := c.cacheKey("metric-data", guid, strings.Join(queries, "\n"))
	if series, ok := t.st.Metrics.Get(key); ok {
		return series.(map[string][]metricdata.Row), nil
	}
	solo := func() (map[string][]metricdata.Row, error) { return t.fetchMetricData(ctx, c, s, queries, rows) }
	var series map[string][]metricdata.Row
	var err error
	if t.st.Metrics != nil && sweepable(s, queries) {
		series, err = t.sweepSeries(ctx, c, s, names, w, r.Summarize, solo) // sweep.go
	} else {
		series, err = solo()
	}
	if err != nil {
		return nil, err
	}
	t.st.Metrics.Set(key, series)
	return series, nil
}

// metricDocKey is the cache key of a metric data document: the caller (cacheKey), the
// translator's reading (docReading), and everything the document is made of — the
// scope, the names in order, the resolved window (the NRQL's range and TIMESERIES
// period), summarize, the values asked for, raw, and the window as the caller wrote it
// (echoed in from and to). The NRQL of the series key is a function of the same scope,
// names and window. Strings are length-prefixed, so no two requests share a key.
func metricDocKey(c Caller, reading string, s MetricScope, names []string, r metricdata.Request, w metricdata.Window) string {
	// Built on the stack and copied once into the key: this runs on every cached
	// answer, where each allocation also pays the collector's assist. The text is c.cacheKey("metric-doc", <body>)'s.
	var room [512]byte
	b := append(room[:0], c.KeyHash...)
	b = append(b, '|')
	b = strconv.AppendInt(b, c.AccountID, 10)
	b = append(b, "|metric-doc|"...)
	b = keyString(b, reading)
	b = keyNum(b, s.AppID)
	b = keyFlag(b, s.Mobile)
	b = keyString(b, s.Host)
	b = keyNum(b, s.InstanceID)
	for _, t := range [...]time.Time{w.Since, w.Until, w.From, w.To} {
		b = keyNum(b, t.Unix())
		b = keyNum(b, int64(t.Nanosecond()))
	}
	b = keyNum(b, int64(w.Period))
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

// fetchMetricData runs a request's chunk queries in one MetricData operation on the
// scope's entity (guid) and returns their rows by metric name (metricdata.Series).
func (t *Translator) fetchMetricData(ctx context.Context, c Caller, s MetricScope, queries []string, rows []int) (map[string][]metricdata.Row, error) {
	guid := s.guid(c.AccountID)
	q := make([]string, metricdata.MaxChunks)
	for i := range q {
		q[i] = queries[0] // skipped by @include; never run
		if i < len(queries) {
			q[i] = queries[i]
		}
	}
	resp, err := ng.MetricData(ng.WithTimesliceRows(ctx, rows...), t.client, guid, int(c.AccountID),
		q[0], q[1], len(queries) > 1, q[2], len(queries) > 2, q[3], len(queries) > 3)
	if err != nil {
		return nil, fmt.Errorf("metric data: %w", err)
	}
	actor := resp.GetActor()
	if actor == nil || actor.Entity.AccountId == nil || int64(*actor.Entity.AccountId) != c.AccountID {
		return nil, s.NotFound()
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
	return metricdata.Series(chunks), nil
}

func dedupe(ss []string) []string {
	if distinctNonEmpty(ss) {
		return ss // what the gateway passes (restv2.Params.Strings): no copy on a cached answer
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
