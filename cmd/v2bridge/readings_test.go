package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// metric_raw, queue_time and summary_transactions each take one of two readings;
// anything else is refused by config check, naming the key; the defaults follow the
// published text.
func TestReadingsConfigCheck(t *testing.T) {
	for _, tc := range []struct {
		set  func(c *fileConfig, v string)
		good []string
		bad  string
		want string
	}{
		{func(c *fileConfig, v string) { c.MetricRaw = v }, []string{"values", "fields"}, "agent", `metric_raw: "agent" is not values or fields`},
		{func(c *fileConfig, v string) { c.QueueTime = v }, []string{"published", "per_view"}, "", `queue_time: "" is not published or per_view`},
		{func(c *fileConfig, v string) { c.SummaryTransactions = v }, []string{"web", "all"}, "other", `summary_transactions: "other" is not web or all`},
	} {
		for _, v := range tc.good {
			c := defaultConfig()
			tc.set(&c, v)
			if err := c.validate(func(string) string { return "" }); err != nil {
				t.Errorf("%q: %v", v, err)
			}
		}
		c := defaultConfig()
		tc.set(&c, tc.bad)
		if err := c.validate(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.bad, err, tc.want)
		}
	}
	c := defaultConfig()
	if ch, all := c.metricChoices(); ch != (metricdata.Choices{}) || all {
		t.Errorf("defaults %+v, %v; want the published readings", ch, all)
	}
	c.MetricRaw, c.QueueTime, c.SummaryTransactions = "fields", "per_view", "all"
	if ch, all := c.metricChoices(); !ch.RawFields || !ch.QueuePerView || !all {
		t.Errorf("chosen %+v, %v", ch, all)
	}
}

// `serve` follows the readings: application_summary over all transactions with
// summary_transactions: all (apmSummary.throughput), over web transactions by default;
// EndUser/RB average_queue_time per page view with queue_time: per_view, the migration
// table's mean over rows by default.
func TestServeReadings(t *testing.T) {
	upstream := demoUpstream(t)
	get := func(setting, path string, into any) {
		t.Helper()
		s := startServe(t, "upstream: "+upstream.URL+sim.Path+"\n"+setting)
		req, _ := http.NewRequest("GET", s.base+path, nil)
		req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(body, into); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	}
	throughput := func(setting string) float64 {
		var b struct {
			Application struct {
				Summary struct{ Throughput float64 } `json:"application_summary"`
			}
		}
		get(setting, "/v2/applications/314221522.json", &b)
		return b.Application.Summary.Throughput
	}
	web, all := throughput(""), throughput("summary_transactions: all\n")
	if web <= 0 || all <= web {
		t.Errorf("throughput web %v, all %v: want all transactions above web", web, all)
	}
	queue := func(setting string) float64 {
		var b struct {
			MetricData struct {
				Metrics []struct {
					Timeslices []struct{ Values map[string]float64 }
				}
			} `json:"metric_data"`
		}
		get(setting, "/v2/applications/314221522/metrics/data.json?names[]=EndUser/RB&values[]=average_queue_time&summarize=true", &b)
		if len(b.MetricData.Metrics) != 1 {
			t.Fatalf("%+v", b)
		}
		return b.MetricData.Metrics[0].Timeslices[0].Values["average_queue_time"]
	}
	if published, perView := queue(""), queue("queue_time: per_view\n"); published <= 0 || perView <= 0 || perView == published {
		t.Errorf("average_queue_time published %v, per view %v: want two readings", published, perView)
	}
}
