package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/tests/harness"
)

type keyTxJSON struct {
	ID              int64   `json:"id"`
	Name            string  `json:"name"`
	TransactionName string  `json:"transaction_name"`
	HealthStatus    string  `json:"health_status"`
	Reporting       bool    `json:"reporting"`
	LastReportedAt  *string `json:"last_reported_at"`
	Summary         *struct {
		ResponseTime float64 `json:"response_time"`
		Throughput   float64 `json:"throughput"`
		ErrorRate    float64 `json:"error_rate"`
		ApdexTarget  float64 `json:"apdex_target"`
		ApdexScore   float64 `json:"apdex_score"`
	} `json:"application_summary"`
	Links struct {
		Application int64 `json:"application"`
	} `json:"links"`
}

func TestKeyTransactions(t *testing.T) {
	e := newEnv(t)
	var list struct {
		KeyTransactions []keyTxJSON       `json:"key_transactions"`
		Links           map[string]string `json:"links"`
	}
	r := e.get(t, "/v2/key_transactions.json", key1)
	if err := json.Unmarshal(r.body, &list); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// the list's links block, as the show's (paultyng/go-newrelic's recorded list)
	if len(list.Links) != 1 || list.Links["key_transaction.application"] != "/v2/applications/{application_id}" {
		t.Errorf("list links %v", list.Links)
	}
	if n := len(list.KeyTransactions); n != 3 || list.KeyTransactions[0].ID != 3001 || list.KeyTransactions[2].ID != 3003 {
		t.Fatalf("list %+v", list.KeyTransactions)
	}
	golden(t, "key_transactions_list.json", r.body)
	if x := e.get(t, "/v2/key_transactions.xml", key1); x.status != 200 {
		t.Fatalf("xml %d", x.status)
	} else {
		golden(t, "key_transactions_list.xml", x.body)
	}
	// Warm: the configuration is cached, the figures cost one NRQL round trip.
	if r := e.get(t, "/v2/key_transactions.json", key1); r.header.Get("X-V2bridge-Upstream-Calls") != "1" {
		t.Errorf("warm list: %s upstream calls", r.header.Get("X-V2bridge-Upstream-Calls"))
	}

	for _, k := range list.KeyTransactions {
		t.Run(fmt.Sprint(k.ID), func(t *testing.T) {
			var show struct {
				KeyTransaction keyTxJSON         `json:"key_transaction"`
				Links          map[string]string `json:"links"`
			}
			r := e.get(t, fmt.Sprintf("/v2/key_transactions/%d.json", k.ID), key1)
			if err := json.Unmarshal(r.body, &show); err != nil || r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if r.header.Get("X-V2bridge-Upstream-Calls") != "1" {
				t.Errorf("warm show: %s upstream calls", r.header.Get("X-V2bridge-Upstream-Calls"))
			}
			got, _ := json.Marshal(show.KeyTransaction)
			want, _ := json.Marshal(k)
			if string(got) != string(want) {
				t.Errorf("show and list disagree:\nshow %s\nlist %s", got, want)
			}
			if show.Links["key_transaction.application"] != "/v2/applications/{application_id}" {
				t.Errorf("links %v", show.Links)
			}
			// The parent link names an application of the same account.
			app := decode(t, e.get(t, fmt.Sprintf("/v2/applications/%d.json", k.Links.Application), key1))
			if app.Application == nil || app.Application.ID != k.Links.Application {
				t.Fatalf("parent application %d not found", k.Links.Application)
			}
			if k.Summary == nil || k.LastReportedAt == nil || k.Summary.Throughput <= 0 || k.Summary.ApdexScore <= 0 || k.Summary.ApdexScore > 1 {
				t.Fatalf("summary %+v", k.Summary)
			}
			// The summary is the transaction's own timeslices over ten minutes ending
			// where the default metric data range ends (three minutes back): the metric
			// data route over that window agrees.
			name := "WebTransaction/" + k.TransactionName
			end := clock.Add(-3 * time.Minute)
			q := url.Values{"names[]": {name}, "values[]": {"call_count", "average_response_time"}, "summarize": {"true"},
				"from": {end.Add(-10 * time.Minute).Format("2006-01-02T15:04:05Z")}, "to": {end.Format("2006-01-02T15:04:05Z")}}
			var md metricDataBody
			r = e.get(t, fmt.Sprintf("/v2/applications/%d/metrics/data.json?%s", k.Links.Application, q.Encode()), key1)
			if err := json.Unmarshal(r.body, &md); err != nil || len(md.MetricData.Metrics) != 1 || len(md.MetricData.Metrics[0].Timeslices) != 1 {
				t.Fatalf("metric data %d %s", r.status, r.body)
			}
			v := md.MetricData.Metrics[0].Timeslices[0].Values
			// both as REST showed them: call_count exact, the rest to three significant digits
			if tp := harness.Figure(v["call_count"] / 10); math.Abs(tp-k.Summary.Throughput) > 1e-9*tp {
				t.Errorf("throughput %v, timeslices say %v", k.Summary.Throughput, tp)
			}
			if v["average_response_time"] != k.Summary.ResponseTime {
				t.Errorf("response_time %v, timeslices say %v", k.Summary.ResponseTime, v["average_response_time"])
			}
		})
	}
	show := e.get(t, "/v2/key_transactions/3002.xml", key1)
	golden(t, "key_transaction_show.xml", show.body)

	tests := []struct {
		name, path, key string
		hdr             []string
		status          int
		ids             []int64
	}{
		{"name filter is a case-insensitive substring", "/v2/key_transactions.json?filter%5Bname%5D=ORDER", key1, nil, 200, []int64{3001, 3003}},
		{"ids filter", "/v2/key_transactions.json?filter%5Bids%5D=3003,3002", key1, nil, 200, []int64{3002, 3003}},
		{"other account sees none", "/v2/key_transactions.json", key2, nil, 200, []int64{}},
		{"multi key with the account header", "/v2/key_transactions.json", keyMulti, []string{"X-Account-ID", "1000001"}, 200, []int64{3001, 3002, 3003}},
		{"other account's id", "/v2/key_transactions/3001.json", key2, nil, 404, nil},
		{"unknown id", "/v2/key_transactions/99.json", key1, nil, 404, nil},
		{"bad ids filter", "/v2/key_transactions.json?filter%5Bids%5D=abc", key1, nil, 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.get(t, tt.path, tt.key, tt.hdr...)
			if r.status != tt.status {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			if tt.status != 200 {
				var b struct {
					Error struct{ Title string } `json:"error"`
				}
				if json.Unmarshal(r.body, &b) != nil || b.Error.Title == "" {
					t.Fatalf("no v2 error body: %s", r.body)
				}
				return
			}
			var l struct {
				KeyTransactions []keyTxJSON `json:"key_transactions"`
			}
			if err := json.Unmarshal(r.body, &l); err != nil {
				t.Fatal(err)
			}
			ids := []int64{}
			for _, k := range l.KeyTransactions {
				ids = append(ids, k.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.ids) {
				t.Errorf("ids %v, want %v", ids, tt.ids)
			}
		})
	}
}
