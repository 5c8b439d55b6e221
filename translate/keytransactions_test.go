package translate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// GET /v2/key_transactions and /v2/key_transactions/{id}. NerdGraph is ktFake: key
// transactions of account 1 by domain id (KeyTransactionSearch in pages of two,
// KeyTransactionDetails, KeyTransactionShow, graphql/operations/keytransactions.graphql)
// and the summary query's rows (NrqlQuery).

var ktClock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

type ktFake struct {
	*opFake
	ids   []string // domain ids of the account's key transactions, in search order
	other string   // a domain id of account 2 the search also returns
	rows  []map[string]any
}

func ktGUID(account int64, domainID string) string {
	return GUID{AccountID: account, Domain: DomainEXT, Type: TypeKeyTx, DomainID: domainID}.String()
}

func ktEntity(guid string) map[string]any {
	g, _ := ParseGUID(guid)
	e := map[string]any{"__typename": "KeyTransactionEntity", "guid": guid, "accountId": g.AccountID, "name": "Checkout " + g.DomainID,
		"reporting": g.DomainID != "102", "alertSeverity": "NOT_ALERTING", "apdexTarget": 0.5, "browserApdexTarget": 7,
		"metricName":  "WebTransaction/Controller/checkout",
		"application": map[string]any{"guid": AppGUID(1, DomainAPM, 7), "entity": map[string]any{"__typename": "ApmApplicationEntityOutline", "applicationId": 7}}}
	switch g.DomainID {
	case "103": // an OtherTransaction of application 8, named by the application's guid only
		e["metricName"] = "OtherTransaction/Job/sync"
		e["application"] = map[string]any{"guid": AppGUID(1, DomainAPM, 8), "entity": nil}
	}
	return e
}

func newKtFake(ids ...string) *ktFake {
	k := &ktFake{opFake: &opFake{}, ids: ids}
	k.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "KeyTransactionSearch":
			var es []any
			for _, id := range k.ids {
				es = append(es, map[string]any{"__typename": "KeyTransactionEntityOutline", "guid": ktGUID(1, id), "accountId": 1})
			}
			if k.other != "" {
				es = append(es, map[string]any{"__typename": "KeyTransactionEntityOutline", "guid": ktGUID(2, k.other), "accountId": 2})
			}
			p := 0
			if s, ok := vars["cursor"].(string); ok {
				p, _ = strconv.Atoi(s)
			}
			lo, hi := min(2*p, len(es)), min(2*p+2, len(es))
			var next any
			if hi < len(es) {
				next = strconv.Itoa(p + 1)
			}
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"results": map[string]any{"nextCursor": next, "entities": es[lo:hi]}}}}, nil
		case "KeyTransactionDetails":
			actor := map[string]any{}
			for g := 0; g < 4; g++ {
				es := []any{nil}
				for _, guid := range vars[fmt.Sprint("g", g)].([]any) {
					es = append(es, ktEntity(guid.(string)))
				}
				actor[fmt.Sprint("e", g)] = es
			}
			return map[string]any{"actor": actor}, nil
		case "KeyTransactionShow":
			g, _ := ParseGUID(vars["guid"].(string))
			for _, id := range k.ids {
				if id == g.DomainID {
					return map[string]any{"actor": map[string]any{"entity": ktEntity(vars["guid"].(string))}}, nil
				}
			}
			return nil, &ng.Error{Kind: ng.KindNotFound}
		case "NrqlQuery":
			return nrqlAnswer(k.rows), nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return k
}

// keyTxID: a domain id REST clients can hold (1..2^31-1) is the id; 0, 2^31 and a
// non-number get a surrogate.
func TestKeyTxID(t *testing.T) {
	for dom, want := range map[string]int64{"1": 1, strconv.Itoa(math.MaxInt32): math.MaxInt32,
		"0": SurrogateID("key-transaction", 1, "0"), strconv.Itoa(math.MaxInt32 + 1): SurrogateID("key-transaction", 1, strconv.Itoa(math.MaxInt32+1)),
		"-3": SurrogateID("key-transaction", 1, "-3"), "abc": SurrogateID("key-transaction", 1, "abc")} {
		if got := keyTxID(1, GUID{DomainID: dom}); got != want {
			t.Errorf("keyTxID(%q) = %d, want %d", dom, got, want)
		}
	}
}

// The list maps every figure: the ten-minute window; account, type and application from
// the outline or its guid; the cached search, its pages, other accounts skipped, sorted
// by id; the transaction name, the summary only while reporting (response time,
// throughput per minute, error rate, Apdex, last reported); the filters.
func TestListKeyTransactions(t *testing.T) {
	k := newKtFake("103", "101", "102")
	k.other = "104"
	last := ktClock.Add(-90*time.Second + 400*time.Millisecond)
	k.rows = []map[string]any{
		{"facet": []any{7, "WebTransaction/Controller/checkout"}, "c": 20.0, "s": 2.0, "ex": 0.0, "last": float64(last.UnixMilli())},
		{"facet": []any{7, "Errors/WebTransaction/Controller/checkout"}, "c": 5.0},
		{"facet": []any{7, "Apdex/Controller/checkout"}, "c": 6.0, "s": 2.0, "ex": 2.0},
		{"facet": []any{"x", "y"}, "c": 1.0}, {"facet": []any{7}, "c": 1.0}, nil,
	}
	tr := New(k, Options{Now: func() time.Time { return ktClock }})
	c := Caller{AccountID: 1}
	l, _, err := tr.ListKeyTransactions(context.Background(), c, KeyTransactionListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, x := range l.KeyTransactions {
		ids = append(ids, x.ID)
	}
	if fmt.Sprint(ids) != "[101 102 103]" {
		t.Fatalf("ids %v, want [101 102 103] (sorted, account 2's left out)", ids)
	}
	a := l.KeyTransactions[0]
	wantLast := last.Truncate(time.Second)
	wantSum := restv2.KeyTransactionSummary{ResponseTime: 100, Throughput: 2, ErrorRate: 25, ApdexTarget: 0.5, ApdexScore: 0.7}
	if a.Name != "Checkout 101" || a.TransactionName != "Controller/checkout" || a.ApplicationID != 7 || !a.Reporting ||
		a.Summary == nil || *a.Summary != wantSum || a.LastReportedAt == nil || !a.LastReportedAt.Equal(wantLast) {
		t.Errorf("101: %+v summary %+v", a, a.Summary)
	}
	if b := l.KeyTransactions[1]; b.Reporting || b.Summary != nil || b.LastReportedAt != nil {
		t.Errorf("102 (not reporting): %+v", b)
	}
	if o := l.KeyTransactions[2]; o.TransactionName != "Job/sync" || o.ApplicationID != 8 || o.Summary == nil ||
		*o.Summary != (restv2.KeyTransactionSummary{ApdexTarget: 0.5}) || o.LastReportedAt != nil {
		t.Errorf("103 (no figures): %+v %+v", o, o.Summary)
	}
	q := fmt.Sprint(k.calls[len(k.calls)-1].vars["query"])
	// ten minutes ending where the default metric data range ends (three minutes back),
	// the last report read up to the clock's minute
	if !strings.Contains(q, "WHERE timestamp >= "+strconv.FormatInt(ktClock.Add(-13*time.Minute).UnixMilli(), 10)+
		" AND timestamp < "+strconv.FormatInt(ktClock.Add(-3*time.Minute).UnixMilli(), 10)) ||
		!strings.Contains(q, " UNTIL "+strconv.FormatInt(ktClock.Truncate(time.Minute).UnixMilli(), 10)) ||
		!strings.Contains(q, "'Apdex/Controller/checkout'") || !strings.Contains(q, "appId IN (7, 8)") {
		t.Errorf("summary query %s", q)
	}
	if k.count("KeyTransactionSearch") != 2 || k.count("KeyTransactionDetails") != 1 {
		t.Errorf("%d search pages, %d details reads; want 2, 1", k.count("KeyTransactionSearch"), k.count("KeyTransactionDetails"))
	}
	for _, tt := range []struct {
		r    KeyTransactionListRequest
		want string
	}{{KeyTransactionListRequest{Name: "CHECKOUT 10"}, "[101 102 103]"}, {KeyTransactionListRequest{Name: "out 102"}, "[102]"},
		{KeyTransactionListRequest{IDs: []int64{103, 5}}, "[103]"}, {KeyTransactionListRequest{Name: "101", IDs: []int64{102}}, "[]"}} {
		l, _, err := tr.ListKeyTransactions(context.Background(), c, tt.r)
		ids := []int64{}
		for _, x := range l.KeyTransactions {
			ids = append(ids, x.ID)
		}
		if err != nil || fmt.Sprint(ids) != tt.want {
			t.Errorf("%+v: %v %v, want %s", tt.r, ids, err, tt.want)
		}
	}
	if k.count("KeyTransactionSearch") != 2 {
		t.Errorf("the cached configuration was read again")
	}
}

// 130 key transactions are read in details requests of 100, each in aliases of 25 (never
// a null list).
func TestKeyTxDetailsBatches(t *testing.T) {
	var ids []string
	for i := 1; i <= 130; i++ {
		ids = append(ids, strconv.Itoa(1000+i))
	}
	k := newKtFake(ids...)
	l, _, err := New(k, Options{Now: func() time.Time { return ktClock }}).ListKeyTransactions(context.Background(), Caller{AccountID: 1}, KeyTransactionListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.KeyTransactions) != 130 {
		t.Fatalf("%d key transactions", len(l.KeyTransactions))
	}
	var sizes []string
	for _, call := range k.calls {
		if call.op != "KeyTransactionDetails" {
			continue
		}
		var s []int
		for g := 0; g < 4; g++ {
			list, ok := call.vars[fmt.Sprint("g", g)].([]any)
			if !ok {
				t.Fatalf("g%d sent as %v", g, call.vars[fmt.Sprint("g", g)])
			}
			s = append(s, len(list))
		}
		sizes = append(sizes, fmt.Sprint(s))
	}
	if strings.Join(sizes, " ") != "[25 25 25 25] [25 5 0 0]" {
		t.Errorf("details requests %v", sizes)
	}
}

// ShowKeyTransaction: a cached list answers without the entity read; otherwise the
// entity of that domain id is read; an id the entity read does not resolve (a surrogate)
// is looked up in the full list; unknown is 404; a failed read is an error.
func TestShowKeyTransaction(t *testing.T) {
	c := Caller{AccountID: 1}
	k := newKtFake("101", "abc")
	tr := New(k, Options{Now: func() time.Time { return ktClock }})
	show, err := tr.ShowKeyTransaction(context.Background(), c, 101)
	if err != nil || show.KeyTransaction.ID != 101 || k.count("KeyTransactionShow") != 1 || k.count("KeyTransactionSearch") != 0 {
		t.Fatalf("cold show: %+v, %v, %+v", show, err, k.calls)
	}
	if k.calls[0].vars["guid"] != ktGUID(1, "101") {
		t.Errorf("read %v", k.calls[0].vars)
	}
	sur := SurrogateID("key-transaction", 1, "abc")
	show, err = tr.ShowKeyTransaction(context.Background(), c, sur)
	if err != nil || show.KeyTransaction.ID != sur || k.count("KeyTransactionSearch") != 1 {
		t.Fatalf("surrogate: %+v, %v", show, err)
	}
	n := k.count("KeyTransactionShow")
	if _, err := tr.ShowKeyTransaction(context.Background(), c, 101); err != nil || k.count("KeyTransactionShow") != n {
		t.Errorf("warm show read the entity: %v", err)
	}
	var ve *restv2.Error
	if _, err := tr.ShowKeyTransaction(context.Background(), c, 999); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("unknown: %v, want 404", err)
	}
	f := &opFake{}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, err := New(f, Options{}).ShowKeyTransaction(context.Background(), c, 101); err == nil || errors.As(err, &ve) {
		t.Errorf("failed read: %v", err)
	}
}

// No key transaction, or exactly one full batch of them, takes no details request beyond
// the batches (none for none, one for 100).
func TestKeyTxDetailsNoEmptyBatch(t *testing.T) {
	for _, n := range []int{0, ktDetailsBatch} {
		var ids []string
		for i := 1; i <= n; i++ {
			ids = append(ids, strconv.Itoa(1000+i))
		}
		k := newKtFake(ids...)
		l, _, err := New(k, Options{Now: func() time.Time { return ktClock }}).ListKeyTransactions(context.Background(), Caller{AccountID: 1}, KeyTransactionListRequest{})
		if err != nil || len(l.KeyTransactions) != n {
			t.Fatalf("%d key transactions: listed %d, %v", n, len(l.KeyTransactions), err)
		}
		if got := k.count("KeyTransactionDetails"); got != n/ktDetailsBatch {
			t.Errorf("%d key transactions: %d details requests, want %d", n, got, n/ktDetailsBatch)
		}
	}
}

// An application entity whose applicationId is null leaves the id to the application's
// guid.
func TestKeyTxApplicationIDNull(t *testing.T) {
	k := newKtFake("101")
	orig := k.answer
	k.answer = func(op string, vars map[string]any) (any, error) {
		data, err := orig(op, vars)
		if op == "KeyTransactionDetails" && err == nil {
			for _, e := range data.(map[string]any)["actor"].(map[string]any)["e0"].([]any) {
				if m, ok := e.(map[string]any); ok {
					m["application"] = map[string]any{"guid": AppGUID(1, DomainAPM, 9),
						"entity": map[string]any{"__typename": "ApmApplicationEntityOutline", "applicationId": nil}}
				}
			}
		}
		return data, err
	}
	l, _, err := New(k, Options{Now: func() time.Time { return ktClock }}).ListKeyTransactions(context.Background(), Caller{AccountID: 1}, KeyTransactionListRequest{})
	if err != nil || len(l.KeyTransactions) != 1 || l.KeyTransactions[0].ApplicationID != 9 {
		t.Fatalf("list %+v, %v; want one key transaction of application 9", l, err)
	}
}

// A key transaction's summary reads the KeyTransactionWindow (10 minutes) that ends the
// ingest lag (3 minutes) before until; its last report is read up to until.
func TestKeyTxStatsWindow(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	q, err := keyTxStatsNRQL([]keyTx{{id: 1, appID: 7, metricName: "WebTransaction/Controller/x"}}, until)
	if err != nil {
		t.Fatal(err)
	}
	ms := func(d time.Duration) string { return strconv.FormatInt(until.Add(-d).UnixMilli(), 10) }
	for _, want := range []string{
		"filter(count(newrelic.timeslice.value), WHERE timestamp >= " + ms(13*time.Minute) + " AND timestamp < " + ms(3*time.Minute) + ") AS 'c'",
		"max(timestamp) AS 'last'",
		"SINCE " + ms(13*time.Minute) + " UNTIL " + ms(0),
		"appId IN (7)",
	} {
		if !strings.Contains(q, want) {
			t.Errorf("query %s lacks %s", q, want)
		}
	}
}
