package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// KeyTransactionWindow is the window of a key transaction's application_summary: REST
// v2 reported a rolling ten-minute average.
const KeyTransactionWindow = 10 * time.Minute

// ktDetailsBatch is how many key transactions one KeyTransactionDetails request reads
// (four aliased entities fields of 25 guids).
const ktDetailsBatch = 4 * 25

// KeyTransactionListRequest is a parsed GET /v2/key_transactions.
type KeyTransactionListRequest struct {
	Name string  // filter[name]: case-insensitive substring ("simple string match")
	IDs  []int64 // filter[ids]
	Page int
}

// keyTx is the configuration of one key transaction: everything but the figures.
type keyTx struct {
	id          int64
	guid        string
	name        string
	metricName  string
	appID       int64
	apdexTarget float64
	reporting   bool
	severity    *ng.EntityAlertSeverity
}

// ktFields is the KeyTransactionFields fragment on KeyTransactionEntity.
type ktFields interface {
	GetGuid() *string
	GetAccountId() *int
	GetName() *string
	GetReporting() *bool
	GetAlertSeverity() *ng.EntityAlertSeverity
	GetApdexTarget() float64
	GetMetricName() string
	GetApplication() ng.KeyTransactionFieldsApplicationKeyTransactionApplication
}

// keyTxID is the REST id of a key transaction entity: its domainId when that is an
// integer REST clients can hold (≤ 2^31−1), else a stable surrogate.
func keyTxID(accountID int64, g GUID) int64 {
	if n, err := strconv.ParseInt(g.DomainID, 10, 64); err == nil && n > 0 && n <= math.MaxInt32 {
		return n
	}
	return SurrogateID("key-transaction", accountID, g.DomainID)
}

func buildKeyTx(c Caller, f ktFields) (keyTx, bool) {
	if f.GetAccountId() == nil || int64(*f.GetAccountId()) != c.AccountID {
		return keyTx{}, false
	}
	g, err := ParseGUID(deref(f.GetGuid()))
	if err != nil || g.Type != TypeKeyTx {
		return keyTx{}, false
	}
	k := keyTx{id: keyTxID(c.AccountID, g), guid: deref(f.GetGuid()), name: deref(f.GetName()), metricName: f.GetMetricName(),
		apdexTarget: f.GetApdexTarget(), reporting: deref(f.GetReporting()), severity: f.GetAlertSeverity()}
	app := f.GetApplication()
	if o, ok := deref(app.GetEntity()).(*ng.KeyTransactionFieldsApplicationKeyTransactionApplicationEntityApmApplicationEntityOutline); ok && o.ApplicationId != nil {
		k.appID = int64(*o.ApplicationId)
	} else if ag, err := ParseGUID(app.GetGuid()); err == nil {
		k.appID, _ = strconv.ParseInt(ag.DomainID, 10, 64)
	}
	return k, true
}

// keyTransactions is the caller's key-transaction configuration, sorted by id and
// cached for the list TTL: a search (a round trip per 200) and one details request per
// hundred transactions when cold, nothing when warm.
func (t *Translator) keyTransactions(ctx context.Context, c Caller) ([]keyTx, error) {
	key := c.cacheKey("key-transactions")
	if v, ok := t.st.Lists.Get(key); ok {
		return v.([]keyTx), nil
	}
	query, err := EntitySearch(c.AccountID, DomainEXT, TypeKeyTx).Build()
	if err != nil {
		return nil, err
	}
	var guids []string
	var cursor *string
	for {
		resp, err := ng.KeyTransactionSearch(ctx, t.client, query, cursor)
		if err != nil {
			return nil, fmt.Errorf("key transactions: %w", err)
		}
		res := resp.GetActor().GetEntitySearch().GetResults()
		if res == nil {
			break
		}
		for _, e := range res.Entities {
			o, ok := deref(e).(interface {
				GetGuid() *string
				GetAccountId() *int
			})
			if ok && o.GetGuid() != nil && o.GetAccountId() != nil && int64(*o.GetAccountId()) == c.AccountID {
				guids = append(guids, *o.GetGuid())
			}
		}
		if cursor = res.NextCursor; cursor == nil {
			break
		}
	}
	out := make([]keyTx, 0, len(guids))
	for lo := 0; lo < len(guids); lo += ktDetailsBatch {
		batch, err := t.keyTxDetails(ctx, c, guids[lo:min(lo+ktDetailsBatch, len(guids))])
		if err != nil {
			return nil, err
		}
		out = append(out, batch...)
	}
	slices.SortFunc(out, func(a, b keyTx) int { return int(a.id - b.id) })
	t.st.Lists.Set(key, out)
	return out, nil
}

func (t *Translator) keyTxDetails(ctx context.Context, c Caller, guids []string) ([]keyTx, error) {
	g := [4][]*string{{}, {}, {}, {}} // empty lists, never null: the variables are [EntityGuid]!
	for i := range guids {
		g[i/25] = append(g[i/25], &guids[i])
	}
	resp, err := ng.KeyTransactionDetails(ctx, t.client, g[0], g[1], g[2], g[3])
	if err != nil {
		return nil, fmt.Errorf("key transaction details: %w", err)
	}
	a := resp.GetActor()
	var out []keyTx
	add := func(e any) {
		if f, ok := e.(ktFields); ok {
			if k, ok := buildKeyTx(c, f); ok {
				out = append(out, k)
			}
		}
	}
	for _, e := range a.E0 {
		add(deref(e))
	}
	for _, e := range a.E1 {
		add(deref(e))
	}
	for _, e := range a.E2 {
		add(deref(e))
	}
	for _, e := range a.E3 {
		add(deref(e))
	}
	return out, nil
}

// keyTxStatsNRQL is the one query behind every summary of a page: the transaction's
// calls and time, its errors and its Apdex counts over the ten minutes that end where
// REST's metric data slices end (metricdata.IngestLag before until), per application and metric
// name, each a filter() on timestamp as hostStatsNRQL's; and the transaction's last
// timeslice up to until, its last_reported_at, as the applications' inventory reads
// theirs (a transaction reports as often as its application: REST's key transaction
// answer shows the time of its last report, tests/testdata/restv2/key_transactions_list.json).
func keyTxStatsNRQL(ks []keyTx, until time.Time) (string, error) {
	var apps []int64
	var names []string
	for _, k := range ks {
		if !slices.Contains(apps, k.appID) {
			apps = append(apps, k.appID)
		}
		for _, n := range keyTxMetricNames(k.metricName) {
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	end := until.Add(-metricdata.IngestLag(false))
	since := end.Add(-KeyTransactionWindow)
	var n NRQL
	n.Raw("SELECT ")
	for _, agg := range [][2]string{{"count(newrelic.timeslice.value)", "c"}, {"sum(newrelic.timeslice.value)", "s"},
		{"sum(newrelic.timeslice.value['totalExclusive'])", "ex"}} {
		n.Raw("filter(" + agg[0] + ", WHERE timestamp >= ").Int(since.UnixMilli()).Raw(" AND timestamp < ").Int(end.UnixMilli()).
			Raw(") AS ").Str(agg[1]).Raw(", ")
	}
	n.Raw("max(timestamp) AS 'last' FROM Metric WHERE appId IN ").
		IntList(apps).Raw(" AND "+metricdata.Unscoped+" AND metricTimesliceName IN ").StrList(names).
		Raw(" FACET appId, metricTimesliceName ").Range(since, until).Raw(" LIMIT MAX")
	return n.Build()
}

// keyTxMetricNames are the timeslice names of a transaction: its own metric, its error
// metric and, for web transactions, its Apdex metric ("" when it has none).
func keyTxMetricNames(metric string) [3]string {
	names := [3]string{metric, "Errors/" + metric, ""}
	if rest, ok := strings.CutPrefix(metric, "WebTransaction/"); ok {
		names[2] = "Apdex/" + rest
	}
	return names
}

type ktStatRow struct {
	Facet []any   `json:"facet"`
	C     float64 `json:"c"`
	S     float64 `json:"s"`
	Ex    float64 `json:"ex"`
	Last  float64 `json:"last"`
}

type ktStatKey struct {
	app  int64
	name string
}

// keyTxStats runs the summary query (one round trip) for a page of key transactions.
// The query facets by application and metric over every application and name of the
// page, so applications sharing metric names multiply the facets: a result with NRQL's
// 5000 (LIMIT MAX, translate/caps.go) is read again for each half of the page's
// applications, recursively (a round trip each), until every part is under the limit.
func (t *Translator) keyTxStats(ctx context.Context, c Caller, ks []keyTx) (map[ktStatKey]ktStatRow, error) {
	out := map[ktStatKey]ktStatRow{}
	if err := t.keyTxStatsInto(ctx, c, ks, t.until(), out); err != nil {
		return nil, err
	}
	return out, nil
}

func (t *Translator) keyTxStatsInto(ctx context.Context, c Caller, ks []keyTx, until time.Time, out map[ktStatKey]ktStatRow) error {
	if len(ks) == 0 {
		return nil
	}
	q, err := keyTxStatsNRQL(ks, until)
	if err != nil {
		return fmt.Errorf("key transaction summary: %w", err)
	}
	resp, err := ng.NrqlQuery(ctx, t.client, int(c.AccountID), q)
	if err != nil {
		return fmt.Errorf("key transaction summary: %w", err)
	}
	acct := resp.GetActor().GetAccount()
	if acct == nil || acct.Nrql == nil {
		return nil
	}
	if len(acct.Nrql.Results) >= MaxFacets {
		var apps []int64
		for _, k := range ks {
			if !slices.Contains(apps, k.appID) {
				apps = append(apps, k.appID)
			}
		}
		if len(apps) > 1 {
			first := apps[:len(apps)/2]
			var a, b []keyTx
			for _, k := range ks {
				if slices.Contains(first, k.appID) {
					a = append(a, k)
				} else {
					b = append(b, k)
				}
			}
			if err := t.keyTxStatsInto(ctx, c, a, until, out); err != nil {
				return err
			}
			return t.keyTxStatsInto(ctx, c, b, until, out)
		}
		// One application with 5000 (metric) facets: a page of more than 1666 of its
		// transactions, which REST's pages never hold; declared all the same.
		noteCap(ctx, CapKeyTxStats)
	}
	for _, r := range acct.Nrql.Results {
		if r == nil {
			continue
		}
		var row ktStatRow
		if err := json.Unmarshal(*r, &row); err != nil {
			return fmt.Errorf("key transaction summary row: %w", err)
		}
		if len(row.Facet) != 2 {
			continue
		}
		app, ok := facetInt(row.Facet[0]) // a number of any size, or a string
		if !ok {
			continue
		}
		out[ktStatKey{app, fmt.Sprint(row.Facet[1])}] = row
	}
	return nil
}

func (k keyTx) v2(stats map[ktStatKey]ktStatRow) restv2.KeyTransaction {
	out := restv2.KeyTransaction{ID: k.id, Name: k.name, TransactionName: k.metricName, Reporting: k.reporting,
		HealthStatus: healthStatus(k.reporting, k.severity), ApplicationID: k.appID}
	for _, p := range []string{"WebTransaction/", "OtherTransaction/"} {
		if rest, ok := strings.CutPrefix(k.metricName, p); ok {
			out.TransactionName = rest
		}
	}
	if !k.reporting {
		return out
	}
	names := keyTxMetricNames(k.metricName)
	calls, errs, apdex := stats[ktStatKey{k.appID, names[0]}], stats[ktStatKey{k.appID, names[1]}], stats[ktStatKey{k.appID, names[2]}]
	sum := &restv2.KeyTransactionSummary{ApdexTarget: k.apdexTarget}
	if calls.C > 0 {
		sum.ResponseTime = figure(calls.S / calls.C * 1000)
		sum.Throughput = figure(calls.C / KeyTransactionWindow.Minutes())
		sum.ErrorRate = figure(100 * errs.C / calls.C)
	}
	if calls.Last > 0 {
		last := time.UnixMilli(int64(calls.Last)).UTC().Truncate(time.Second)
		out.LastReportedAt = &last
	}
	// Apdex timeslices hold satisfied in count, tolerating in total, frustrated in
	// totalExclusive.
	if n := apdex.C + apdex.S + apdex.Ex; n > 0 {
		sum.ApdexScore = apdexFigure((apdex.C + apdex.S/2) / n)
	}
	out.Summary = sum
	return out
}

// ListKeyTransactions answers GET /v2/key_transactions: the configuration from the
// cache (or a search and a details request) and the page's figures in one NRQL round
// trip.
func (t *Translator) ListKeyTransactions(ctx context.Context, c Caller, r KeyTransactionListRequest) (*restv2.KeyTransactionList, Paging, error) {
	r.Page = max(r.Page, 1)
	all, err := t.keyTransactions(ctx, c)
	if err != nil {
		return nil, Paging{}, err
	}
	name := strings.ToLower(r.Name)
	var match []keyTx
	for _, k := range all {
		if name != "" && !strings.Contains(strings.ToLower(k.name), name) {
			continue
		}
		if len(r.IDs) > 0 && !slices.Contains(r.IDs, k.id) {
			continue
		}
		match = append(match, k)
	}
	page, paging := pageOf(match, r.Page, PageSize)
	stats, err := t.keyTxStats(ctx, c, page)
	if err != nil {
		return nil, Paging{}, err
	}
	out := &restv2.KeyTransactionList{KeyTransactions: make([]restv2.KeyTransaction, 0, len(page))}
	for _, k := range page {
		out.KeyTransactions = append(out.KeyTransactions, k.v2(stats))
	}
	return out, paging, nil
}

// ErrKeyTransactionNotFound is REST's 404 for an unknown key transaction id.
func ErrKeyTransactionNotFound() error {
	return restv2.NotFound("No Key Transaction found with the given ID")
}

// ShowKeyTransaction answers GET /v2/key_transactions/{id}: one round trip when the
// caller's key transactions are cached, else the entity and then its figures.
func (t *Translator) ShowKeyTransaction(ctx context.Context, c Caller, id int64) (*restv2.KeyTransactionShow, error) {
	k, err := t.findKeyTx(ctx, c, id)
	if err != nil {
		return nil, err
	}
	stats, err := t.keyTxStats(ctx, c, []keyTx{k})
	if err != nil {
		return nil, err
	}
	return &restv2.KeyTransactionShow{KeyTransaction: k.v2(stats)}, nil
}

// findKeyTx resolves a REST id: from the cached list, else by the entity whose
// domainId it is, else (a surrogate id) from the full list.
func (t *Translator) findKeyTx(ctx context.Context, c Caller, id int64) (keyTx, error) {
	find := func(all []keyTx) (keyTx, bool) {
		for _, x := range all {
			if x.id == id {
				return x, true
			}
		}
		return keyTx{}, false
	}
	if v, ok := t.st.Lists.Get(c.cacheKey("key-transactions")); ok {
		if k, ok := find(v.([]keyTx)); ok {
			return k, nil
		}
	}
	guid := GUID{AccountID: c.AccountID, Domain: DomainEXT, Type: TypeKeyTx, DomainID: strconv.FormatInt(id, 10)}.String()
	resp, err := ng.KeyTransactionShow(ctx, t.client, guid)
	switch {
	case err != nil && !isNotFound(err):
		return keyTx{}, fmt.Errorf("key transaction %d: %w", id, err)
	case err == nil:
		if f, ok := deref(resp.GetActor().GetEntity()).(ktFields); ok {
			if k, ok := buildKeyTx(c, f); ok && k.id == id {
				return k, nil
			}
		}
	}
	all, err := t.keyTransactions(ctx, c)
	if err != nil {
		return keyTx{}, err
	}
	if k, ok := find(all); ok {
		return k, nil
	}
	return keyTx{}, ErrKeyTransactionNotFound()
}
