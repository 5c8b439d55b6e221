package spec_test

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/sim/timeslice"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// The statements' own tests: each goes through the gateway's HTTP routes in front of the
// simulator and asserts one statement of the specification (the row ids name them).

const (
	app     = "314221522" // a reporting PHP application of the demo account 1
	appName = "O'Reilly Books"
)

type answer struct {
	status int
	header http.Header
	body   []byte
}

func send(t *testing.T, h *harness.Env, method, path, body string, hdr ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, h.Gateway.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", harness.Key1)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, b}
}

func get(t *testing.T, h *harness.Env, path string, hdr ...string) answer {
	t.Helper()
	a := send(t, h, http.MethodGet, path, "", hdr...)
	if a.status != 200 {
		t.Fatalf("GET %s: %d %s", path, a.status, a.body)
	}
	return a
}

func decodeInto(t *testing.T, a answer, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("decode %.300s: %v", a.body, err)
	}
}

type metricData struct {
	MetricData struct {
		From     string
		To       string
		Found    []string `json:"metrics_found"`
		NotFound []string `json:"metrics_not_found"`
		Metrics  []metric
	} `json:"metric_data"`
}

type metric struct {
	Name       string
	Timeslices []struct {
		From   string
		To     string
		Values map[string]float64
	}
}

// Values are the values of the first slice.
func (m metric) Values() map[string]float64 { return m.Timeslices[0].Values }

func metrics(t *testing.T, h *harness.Env, q url.Values) metricData {
	t.Helper()
	var md metricData
	decodeInto(t, get(t, h, "/v2/applications/"+app+"/metrics/data.json?"+q.Encode()), &md)
	return md
}

// EP-MET-05: from and to omitted → the last 30 minutes, a series of per-minute slices.
func TestSpecMetricDataDefaultRange(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	md := metrics(t, h, url.Values{"names[]": {"HttpDispatcher"}})
	from, to := harness.Clock.Add(-30*time.Minute), harness.Clock
	if md.MetricData.From != from.Format("2006-01-02T15:04:05+00:00") || md.MetricData.To != to.Format("2006-01-02T15:04:05+00:00") {
		t.Fatalf("range %s – %s, want the last 30 minutes before %s", md.MetricData.From, md.MetricData.To, to)
	}
	if n := len(md.MetricData.Metrics[0].Timeslices); n != 30 {
		t.Fatalf("%d slices over the default range, want 30 per-minute slices", n)
	}
}

// EP-MET-04, RES-MET-03: an offset in from/to (written %2B06:00) is honoured, and every
// timestamp of the answer is UTC.
func TestSpecMetricDataOutputIsUTC(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	a := get(t, h, "/v2/applications/"+app+"/metrics/data.json?names[]=HttpDispatcher&from=2026-11-20T17:20:00%2B06:00&to=2026-11-20T17:25:00%2B06:00")
	var md metricData
	decodeInto(t, a, &md)
	d := md.MetricData
	if d.From != "2026-11-20T11:20:00+00:00" || d.To != "2026-11-20T11:25:00+00:00" {
		t.Fatalf("range %s – %s, want 11:20–11:25 UTC", d.From, d.To)
	}
	for _, s := range d.Metrics[0].Timeslices {
		if !strings.HasSuffix(s.From, "+00:00") || !strings.HasSuffix(s.To, "+00:00") {
			t.Fatalf("slice %s – %s is not UTC", s.From, s.To)
		}
	}
}

// EP-MET-06, RES-MET-04: summarize=true is one slice spanning the range; omitted, a
// per-minute series. The summarized slice of a given range ends at to, as REST's
// recordings of given ranges show (newrelic/docs-website src/content/docs/apis/
// rest-api-v2/application-examples-v2/application-error-rate-example-v2.mdx: "to":
// "2014-04-01T23:35:00+00:00", the range's to); of the default range, at its last
// minute + 59 s ("to": "2014-05-21T00:08:59+00:00", .../list-your-app-id-metric-timeslice-data-v2.mdx).
func TestSpecMetricDataSummarize(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	q := url.Values{"names[]": {"HttpDispatcher"}, "from": {"2026-11-20T11:00:00Z"}, "to": {"2026-11-20T11:20:00Z"}}
	series := metrics(t, h, q)
	if n := len(series.MetricData.Metrics[0].Timeslices); n != 20 {
		t.Fatalf("series: %d slices over 20 minutes, want 20", n)
	}
	q.Set("summarize", "true")
	sum := metrics(t, h, q)
	s := sum.MetricData.Metrics[0].Timeslices
	if len(s) != 1 || s[0].From != "2026-11-20T11:00:00+00:00" || s[0].To != "2026-11-20T11:20:00+00:00" {
		t.Fatalf("summarize: %+v, want one slice 11:00–11:20", s)
	}
	def := metrics(t, h, url.Values{"names[]": {"HttpDispatcher"}, "summarize": {"true"}}).MetricData.Metrics[0].Timeslices
	if len(def) != 1 || def[0].From != "2026-11-20T11:28:00+00:00" || def[0].To != "2026-11-20T11:57:59+00:00" {
		t.Fatalf("summarized default range: %+v, want one slice 11:28–11:57:59", def)
	}
	var calls float64
	for _, sl := range series.MetricData.Metrics[0].Timeslices {
		calls += sl.Values["call_count"]
	}
	if s[0].Values["call_count"] != calls {
		t.Fatalf("summarized call_count %v, the series sums to %v", s[0].Values["call_count"], calls)
	}
}

// EP-MET-02, EP-MET-03: several names[] in one request; values[] selects value names,
// omitted it returns every value the metric names listing gives for the metric (for a
// web transaction metric the vocabulary of REST's recorded answers in tests/testdata/restv2).
func TestSpecMetricDataNamesAndValues(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	q := url.Values{"names[]": {"HttpDispatcher", "Errors/all", "Nope/none"}, "summarize": {"true"}}
	all := metrics(t, h, q)
	if !slices.Equal(all.MetricData.Found, []string{"HttpDispatcher", "Errors/all"}) || !slices.Equal(all.MetricData.NotFound, []string{"Nope/none"}) {
		t.Fatalf("found %v not found %v", all.MetricData.Found, all.MetricData.NotFound)
	}
	var names struct {
		Metrics []struct {
			Name   string
			Values []string
		}
	}
	decodeInto(t, get(t, h, "/v2/applications/"+app+"/metrics.json?name=HttpDispatcher"), &names)
	if len(names.Metrics) == 0 || names.Metrics[0].Name != "HttpDispatcher" {
		t.Fatalf("names listing %+v", names.Metrics)
	}
	listed := names.Metrics[0].Values
	var got []string
	for k := range all.MetricData.Metrics[0].Values() {
		got = append(got, k)
	}
	slices.Sort(got)
	slices.Sort(listed)
	if !slices.Equal(got, listed) || !slices.Contains(got, "average_response_time") || !slices.Contains(got, "calls_per_minute") {
		t.Errorf("values[] omitted: %v, the listing says %v", got, listed)
	}
	q["values[]"] = []string{"call_count", "error_count"}
	some := metrics(t, h, q)
	for _, m := range some.MetricData.Metrics {
		for k := range m.Values() {
			if k != "call_count" && k != "error_count" {
				t.Errorf("%s: value %s not asked for", m.Name, k)
			}
		}
	}
}

type appList struct {
	Applications []struct {
		ID           int64
		Name         string
		HealthStatus string `json:"health_status"`
		Reporting    *bool
	}
}

func (l appList) ids() []int64 {
	var out []int64
	for _, a := range l.Applications {
		out = append(out, a.ID)
	}
	return out
}

// EP-APP-01: filter[name] is a simple string match with spaces written as '+';
// filter[ids] takes comma-separated ids; filter[id] takes one id.
func TestSpecApplicationFilters(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	var byName appList
	decodeInto(t, get(t, h, "/v2/applications.json?filter[name]=O'Reilly+Books"), &byName)
	if len(byName.Applications) == 0 {
		t.Fatal("filter[name] with '+' for the space found nothing")
	}
	for _, a := range byName.Applications {
		if !strings.Contains(a.Name, appName) {
			t.Errorf("filter[name]=%s matched %q", appName, a.Name)
		}
	}
	var regex appList
	decodeInto(t, get(t, h, "/v2/applications.json?filter[name]=O.Reilly"), &regex)
	if len(regex.Applications) != 0 {
		t.Errorf("filter[name]=O.Reilly matched %d applications: a regular expression, not a string match", len(regex.Applications))
	}
	var ids appList
	decodeInto(t, get(t, h, "/v2/applications.json?filter[ids]=314221522,924224343"), &ids)
	if got := ids.ids(); !slices.Equal(sorted(got), []int64{314221522, 924224343}) {
		t.Errorf("filter[ids]=314221522,924224343: %v", got)
	}
	var one appList
	decodeInto(t, get(t, h, "/v2/applications.json?filter[id]=924224343"), &one)
	if got := one.ids(); !slices.Equal(got, []int64{924224343}) {
		t.Errorf("filter[id]=924224343: %d applications, want only 924224343", len(got))
	}
	if a := send(t, h, http.MethodGet, "/v2/applications.json?filter[id]=abc", ""); a.status != 400 {
		t.Errorf("filter[id]=abc: %d %.200s", a.status, a.body)
	}
}

func sorted(v []int64) []int64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v
}

// EP-MET-01: the metric names listing's name is a simple character match, not a
// regular expression.
func TestSpecMetricNamesNameIsNotARegex(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	count := func(name string) int {
		var b struct{ Metrics []struct{ Name string } }
		decodeInto(t, get(t, h, "/v2/applications/"+app+"/metrics.json?"+url.Values{"name": {name}}.Encode()), &b)
		for _, m := range b.Metrics {
			if !strings.Contains(m.Name, name) {
				t.Errorf("name=%s listed %s", name, m.Name)
			}
		}
		return len(b.Metrics)
	}
	if count("Apdex") == 0 {
		t.Fatal("name=Apdex lists nothing")
	}
	if n := count("Apde."); n != 0 {
		t.Errorf("name=Apde. listed %d names: read as a regular expression", n)
	}
}

// EP-KT-01: the key transactions' filter[name] is a simple string match, not a regular
// expression.
func TestSpecKeyTransactionFilterIsNotARegex(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	count := func(q string) int {
		var b struct {
			KeyTransactions []struct{ Name string } `json:"key_transactions"`
		}
		decodeInto(t, get(t, h, "/v2/key_transactions.json?"+url.Values{"filter[name]": {q}}.Encode()), &b)
		return len(b.KeyTransactions)
	}
	if count("order") == 0 {
		t.Fatal("filter[name]=order lists nothing")
	}
	if n := count("ord.r"); n != 0 {
		t.Errorf("filter[name]=ord.r listed %d: read as a regular expression", n)
	}
}

// RES-MET-06, RES-MET-07: the named metrics with their request values — CPU/User Time
// (a space written '+') with percent, Memory/Physical with used_mb_by_host (one host) and
// total_used_mb (whole application), HttpDispatcher and OtherTransaction/all with
// requests_per_minute.
func TestSpecNamedMetricsAndValues(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	var hosts struct {
		Hosts []struct{ ID json.Number } `json:"application_hosts"`
	}
	decodeInto(t, get(t, h, "/v2/applications/"+app+"/hosts.json"), &hosts)
	if len(hosts.Hosts) == 0 {
		t.Fatal("no hosts")
	}
	tests := []struct {
		name, path, value string
	}{
		{"CPU/User Time", "/v2/applications/" + app + "/metrics/data.json?names[]=CPU/User+Time&values[]=percent&summarize=true", "percent"},
		{"Memory/Physical", "/v2/applications/" + app + "/metrics/data.json?names[]=Memory/Physical&values[]=total_used_mb&summarize=true", "total_used_mb"},
		{"Memory/Physical", "/v2/applications/" + app + "/hosts/" + hosts.Hosts[0].ID.String() + "/metrics/data.json?names[]=Memory/Physical&values[]=used_mb_by_host&summarize=true", "used_mb_by_host"},
		{"HttpDispatcher", "/v2/applications/" + app + "/metrics/data.json?names[]=HttpDispatcher&values[]=requests_per_minute&summarize=true", "requests_per_minute"},
		{"OtherTransaction/all", "/v2/applications/" + app + "/metrics/data.json?names[]=OtherTransaction/all&values[]=requests_per_minute&summarize=true", "requests_per_minute"},
	}
	for _, tt := range tests {
		var md metricData
		decodeInto(t, get(t, h, tt.path), &md)
		if !slices.Equal(md.MetricData.Found, []string{tt.name}) || len(md.MetricData.Metrics) != 1 {
			t.Errorf("%s: found %v", tt.path, md.MetricData.Found)
			continue
		}
		v := md.MetricData.Metrics[0].Values()
		if _, ok := v[tt.value]; !ok || len(v) != 1 {
			t.Errorf("%s: values %v, want only %s", tt.path, v, tt.value)
		}
	}
}

// PAG-02, LIM-06: a paged list carries Link with rel="next" and rel="last"; an answer
// that is not paged carries no Link header (metric data is never paged, even over a
// day).
func TestSpecLinkOnlyWhenPaged(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	paged := get(t, h, "/v2/applications.json")
	l := paged.header.Get("Link")
	if !strings.Contains(l, `rel="next"`) || !strings.Contains(l, `rel="last"`) {
		t.Fatalf("paged list Link %q", l)
	}
	for _, p := range []string{"/v2/applications.json?filter[ids]=" + app, "/v2/applications/" + app + "/hosts.json",
		"/v2/applications/" + app + "/metrics/data.json?names[]=HttpDispatcher&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z",
		"/v2/applications/" + app + ".json", "/v2/applications/" + app + "/deployments.json"} {
		if l, ok := get(t, h, p).header["Link"]; ok {
			t.Errorf("%s: Link %q on an answer that is not paged", p, l)
		}
	}
}

// AUTH-01: the user key is accepted in Api-Key or in X-Api-Key, with the same answer.
func TestSpecBothKeyHeaders(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	x := get(t, h, "/v2/applications/"+app+".json")
	a := get(t, h, "/v2/applications/"+app+".json", "X-Api-Key", "", "Api-Key", harness.Key1)
	if string(a.body) != string(x.body) {
		t.Fatalf("Api-Key answer differs from X-Api-Key's:\n%s\n%s", a.body, x.body)
	}
}

// SVC-03: a path ending in .json answers JSON, one ending in .xml answers XML.
func TestSpecFormatBySuffix(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	for _, p := range []string{"/v2/applications/" + app, "/v2/applications/" + app + "/hosts", "/v2/key_transactions",
		"/v2/applications/" + app + "/deployments", "/v2/alerts_policies", "/v2/applications/1"} {
		j := send(t, h, http.MethodGet, p+".json", "")
		x := send(t, h, http.MethodGet, p+".xml", "")
		if ct := j.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || !json.Valid(j.body) {
			t.Errorf("%s.json: %s %.100s", p, ct, j.body)
		}
		if ct := x.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") || !strings.HasPrefix(string(x.body), "<?xml") {
			t.Errorf("%s.xml: %s %.100s", p, ct, x.body)
		}
		if j.status != x.status {
			t.Errorf("%s: status %d (.json) vs %d (.xml)", p, j.status, x.status)
		}
	}
}

// RES-APP-04, ST-01, ST-02, ST-03: health_status is a string and the values green and
// gray appear; reporting is a boolean. The full value set is not shown: the gateway's
// is green, orange, red (alert severity), gray (not reporting) and unknown (no alert
// policy), as newrelic/docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/application-reporting-health-status-v2.mdx
// names them.
func TestSpecHealthStatusAndReporting(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	seen := map[string]bool{}
	for _, p := range []string{"/v2/applications.json", "/v2/applications.json?page=2"} {
		var l appList
		decodeInto(t, get(t, h, p), &l)
		for _, a := range l.Applications {
			seen[a.HealthStatus] = true
			if a.Reporting == nil {
				t.Fatalf("application %d has no boolean reporting", a.ID)
			}
		}
	}
	if !seen["green"] || !seen["gray"] {
		t.Errorf("health_status values %v: green and gray should both appear", seen)
	}
	for v := range seen {
		if !slices.Contains([]string{"green", "orange", "red", "gray", "unknown"}, v) {
			t.Errorf("health_status %q is outside the gateway's declared set", v)
		}
	}
}

// SVC-07: summary data is not controlled by a time range in the request: from and to
// sent to an application show leave its application_summary unchanged.
func TestSpecSummaryIgnoresRequestRange(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	type summary struct {
		Application struct {
			Summary map[string]float64 `json:"application_summary"`
		}
	}
	var plain, ranged summary
	decodeInto(t, get(t, h, "/v2/applications/"+app+".json"), &plain)
	decodeInto(t, get(t, h, "/v2/applications/"+app+".json?from=2026-11-19T00:00:00Z&to=2026-11-19T06:00:00Z&summarize=true"), &ranged)
	if len(plain.Application.Summary) == 0 || !mapsEqual(plain.Application.Summary, ranged.Application.Summary) {
		t.Fatalf("summary %v with a range, %v without", ranged.Application.Summary, plain.Application.Summary)
	}
}

func mapsEqual(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// RES-MET-05: every value name the specification lists is served for a metric it
// belongs to (values[] asks for it, the answer carries it).
func TestSpecValueNamesSeen(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	tests := []struct {
		name   string
		values []string
	}{
		{"HttpDispatcher", []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time", "max_response_time",
			"average_exclusive_time", "average_value", "requests_per_minute", "standard_deviation", "average_call_time"}},
		{"Errors/all", []string{"error_count"}},
		{"EndUser", []string{"average_network_time", "average_fe_response_time", "total_app_time"}},
		// average_queue_time is asked of EndUser/RB, as the docs' browser page-load
		// example asks it; no published table lists it for WebFrontend/QueueTime.
		{"EndUser/RB", []string{"average_dom_content_load_time", "average_queue_time"}},
		{"CPU/User Time", []string{"percent"}},
		{"Memory/Physical", []string{"used_mb_by_host", "total_used_mb"}},
		{"Apdex", []string{"score", "s", "t", "f", "count", "value", "threshold", "threshold_min"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := metrics(t, h, url.Values{"names[]": {tt.name}, "values[]": tt.values, "summarize": {"true"}})
			if len(md.MetricData.Metrics) != 1 {
				t.Fatalf("found %v", md.MetricData.Found)
			}
			v := md.MetricData.Metrics[0].Values()
			for _, want := range tt.values {
				if _, ok := v[want]; !ok {
					t.Errorf("%s: %s missing from %v", tt.name, want, v)
				}
			}
		})
	}
}

// RES-MET-06: the metric names the specification lists are served when the
// application reports them (the demo application reports all but the agent-specific
// ActiveRecord/all, Database/allWeb, Memcache/allWeb and EndUserApdex spelling, which
// are answered as not found, never as an error).
func TestSpecMetricNamesSeen(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	names := []string{"Apdex", "EndUser/Apdex", "EndUserApdex", "HttpDispatcher", "OtherTransaction/all", "Errors/all",
		"WebTransactionTotalTime", "Database/allWeb", "Datastore/MySQL/allWeb", "ActiveRecord/all", "Memcache/allWeb",
		"External/allWeb", "WebFrontend/QueueTime", "EndUser", "EndUser/RB", "Memory/Physical", "CPU/User Time"}
	md := metrics(t, h, url.Values{"names[]": names, "summarize": {"true"}})
	got := append(slices.Clone(md.MetricData.Found), md.MetricData.NotFound...)
	if !slices.Equal(sortedStrings(got), sortedStrings(names)) {
		t.Fatalf("found %v + not found %v, asked %v", md.MetricData.Found, md.MetricData.NotFound, names)
	}
	for _, n := range []string{"Apdex", "EndUser/Apdex", "HttpDispatcher", "OtherTransaction/all", "Errors/all", "WebTransactionTotalTime",
		"Datastore/MySQL/allWeb", "External/allWeb", "WebFrontend/QueueTime", "EndUser", "EndUser/RB", "Memory/Physical", "CPU/User Time"} {
		if !slices.Contains(md.MetricData.Found, n) {
			t.Errorf("%s not found (found %v)", n, md.MetricData.Found)
		}
	}
}

func sortedStrings(v []string) []string {
	v = slices.Clone(v)
	slices.Sort(v)
	return v
}

// EP-APP-09: the metric names listing of one instance.
func TestSpecInstanceMetricNames(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	var inst struct {
		Instances []struct{ ID json.Number } `json:"application_instances"`
	}
	decodeInto(t, get(t, h, "/v2/applications/"+app+"/instances.json"), &inst)
	if len(inst.Instances) == 0 {
		t.Fatal("no instances")
	}
	var names struct {
		Metrics []struct {
			Name   string
			Values []string
		}
	}
	decodeInto(t, get(t, h, "/v2/applications/"+app+"/instances/"+inst.Instances[0].ID.String()+"/metrics.json?name=HttpDispatcher"), &names)
	if len(names.Metrics) == 0 || names.Metrics[0].Name != "HttpDispatcher" || len(names.Metrics[0].Values) == 0 {
		t.Fatalf("instance metric names %+v", names.Metrics)
	}
}

// EP-BRW-02: the browser applications list takes filter[ids] as several
// comma-separated values, and filter[name].
func TestSpecBrowserFilters(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	type list struct {
		Apps []struct {
			ID   int64
			Name string
		} `json:"browser_applications"`
	}
	var all list
	decodeInto(t, get(t, h, "/v2/browser_applications.json"), &all)
	if len(all.Apps) < 2 {
		t.Fatalf("%d browser applications", len(all.Apps))
	}
	a, b := all.Apps[0], all.Apps[1]
	var two list
	decodeInto(t, get(t, h, "/v2/browser_applications.json?filter[ids]="+itoa(a.ID)+","+itoa(b.ID)), &two)
	if len(two.Apps) != 2 {
		t.Errorf("filter[ids]=%d,%d: %+v", a.ID, b.ID, two.Apps)
	}
	var named list
	decodeInto(t, get(t, h, "/v2/browser_applications.json?"+url.Values{"filter[name]": {a.Name}}.Encode()), &named)
	if len(named.Apps) == 0 || !slices.ContainsFunc(named.Apps, func(x struct {
		ID   int64
		Name string
	}) bool {
		return x.ID == a.ID
	}) {
		t.Errorf("filter[name]=%s: %+v", a.Name, named.Apps)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// RES-MET-08: units. average_network_time, average_fe_response_time,
// average_dom_content_load_time and average_queue_time are milliseconds, total_app_time
// seconds, and the application response time milliseconds; the expected values are the
// simulator's raw timeslices (stored in seconds, as NRDB stores them) over the same
// range.
func TestSpecMetricUnits(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	from, to := harness.Clock.Add(-35*time.Minute), harness.Clock.Add(-5*time.Minute) // every minute ingested
	// One name a request: REST served values[] asked of several names only as far as the
	// first name has them (translate/metricdata firstNameValues).
	got := map[string]map[string]float64{}
	for name, values := range map[string][]string{
		"EndUser":        {"average_network_time", "average_fe_response_time", "total_app_time"},
		"EndUser/RB":     {"average_dom_content_load_time", "average_queue_time"},
		"HttpDispatcher": {"average_response_time"},
	} {
		md := metrics(t, h, url.Values{"names[]": {name}, "values[]": values,
			"from": {from.Format(time.RFC3339)}, "to": {to.Format(time.RFC3339)}, "summarize": {"true"}})
		for _, m := range md.MetricData.Metrics {
			got[m.Name] = m.Values()
		}
	}
	eu, _ := rawSums(t, "EndUser", from, to)
	rb, rbRows := rawSums(t, "EndUser/RB", from, to)
	web, _ := rawSums(t, "HttpDispatcher", from, to)
	tests := []struct {
		what      string
		got, want float64
	}{
		{"EndUser average_network_time (ms)", got["EndUser"]["average_network_time"], (eu.Total - eu.TotalExclusive - eu.SumOfSquares) / eu.Count * 1000},
		{"EndUser average_fe_response_time (ms)", got["EndUser"]["average_fe_response_time"], eu.TotalExclusive / eu.Count * 1000},
		{"EndUser total_app_time (s)", got["EndUser"]["total_app_time"], eu.SumOfSquares},
		{"EndUser/RB average_dom_content_load_time (ms)", got["EndUser/RB"]["average_dom_content_load_time"], rb.Total / rb.Count * 1000},
		// New Relic's published average_queue_time is average(tsv['totalExclusive']) * 1000:
		// a mean over the timeslice rows (one per instance and minute), not per call
		// (docs-website src/content/docs/apis/rest-api-v2/migrate-to-nrql.mdx).
		{"EndUser/RB average_queue_time (ms)", got["EndUser/RB"]["average_queue_time"], rb.TotalExclusive / float64(rbRows) * 1000},
		{"HttpDispatcher average_response_time (ms)", got["HttpDispatcher"]["average_response_time"], web.Total / web.Count * 1000},
	}
	for _, tt := range tests {
		// shown as REST showed them: three significant digits (translate/figures.go)
		if want := harness.Figure(tt.want); math.Abs(tt.got-want) > 1e-6*math.Max(1, math.Abs(want)) || tt.want == 0 {
			t.Errorf("%s = %v, want %v (%v)", tt.what, tt.got, want, tt.want)
		}
	}
}

// rawSums sums the simulator's raw timeslices of the demo application app for name
// over [from, to), all instances, and counts the rows summed.
func rawSums(t *testing.T, name string, from, to time.Time) (nrdb.Timeslice, int) {
	t.Helper()
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	gen := timeslice.Generator{Seed: sim.DemoSeed}
	var sum nrdb.Timeslice
	rows := 0
	for _, acct := range data.Accounts {
		for _, a := range acct.APMApplications {
			if strconv.Itoa(a.ID) != app {
				continue
			}
			for _, in := range a.Instances {
				for m := from; m.Before(to); m = m.Add(time.Minute) {
					ts := gen.Timeslice(int64(a.ID), in.ID, name, m, a.ApdexTarget)
					sum.Count += ts.Count
					sum.Total += ts.Total
					sum.TotalExclusive += ts.TotalExclusive
					sum.SumOfSquares += ts.SumOfSquares
					rows++
				}
			}
		}
	}
	return sum, rows
}

// EP-OPEN-08: the condition lists of external services and synthetic monitoring have
// no path in the specification; both are real REST v2 paths (newrelic/docs-website
// src/content/docs/alerts/scale-automate/rest-api/rest-api-calls-alerts.mdx) in
// alerts namespaces New Relic keeps. Translated (the demo's retained_alerts), the
// synthetics list is served and external-service conditions answer REST's error body
// in either format: 501, naming the NerdGraph replacement.
func TestSpecUnservedConditionLists(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	p := "/v2/alerts_external_service_conditions"
	j := send(t, h, http.MethodGet, p+".json?policy_id=1001", "")
	var b struct {
		Error *struct{ Title string } `json:"error"`
	}
	if err := json.Unmarshal(j.body, &b); err != nil || j.status != 501 || b.Error == nil || !strings.Contains(b.Error.Title, "NerdGraph") {
		t.Errorf("%s.json: %d %.200s", p, j.status, j.body)
	}
	if x := send(t, h, http.MethodGet, p+".xml?policy_id=1001", ""); x.status != 501 || !strings.Contains(string(x.body), "<title>") {
		t.Errorf("%s.xml: %d %.200s", p, x.status, x.body)
	}
	s := get(t, h, "/v2/alerts_synthetics_conditions.json?policy_id=1001")
	var list struct {
		Conditions *[]json.RawMessage `json:"synthetics_conditions"`
	}
	if err := json.Unmarshal(s.body, &list); err != nil || list.Conditions == nil {
		t.Errorf("synthetics conditions: %.200s", s.body)
	}
}
