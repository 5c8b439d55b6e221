package restv2

import (
	"math"
	"strconv"
)

// Documents used by the tests. They are written here, not taken from restv2,
// so that the renderers are tested against fixed encoder call sequences.

// docFunc is a Document made of a root and an EncodeV2 function.
type docFunc struct {
	root string
	enc  func(e Encoder)
}

func (d docFunc) Root() string       { return d.root }
func (d docFunc) EncodeV2(e Encoder) { d.enc(e) }

// testApp is an application as in tests/testdata/restv2/applications_list.json.
type testApp struct {
	id                               int64
	name, language, health           string
	reporting                        bool
	lastReported                     string
	responseTime, throughput, errors float64
	apdexTarget, apdexScore          float64
	endUser                          bool
	euResponse, euThroughput         float64
	euApdexTarget, euApdexScore      float64
	appApdexT, endUserApdexT         float64
	rum, serverSideConfig            bool
	instances, hosts                 []int64
	alertPolicy                      int64
}

func (a *testApp) EncodeV2(e Encoder) {
	e.BeginObject("application")
	e.Int("id", a.id)
	e.String("name", a.name)
	e.String("language", a.language)
	e.String("health_status", a.health)
	e.Bool("reporting", a.reporting)
	e.String("last_reported_at", a.lastReported)
	e.BeginObject("application_summary")
	e.Float("response_time", a.responseTime)
	e.Float("throughput", a.throughput)
	e.Float("error_rate", a.errors)
	e.Float("apdex_target", a.apdexTarget)
	e.Float("apdex_score", a.apdexScore)
	e.EndObject()
	if a.endUser {
		e.BeginObject("end_user_summary")
		e.Float("response_time", a.euResponse)
		e.Float("throughput", a.euThroughput)
		e.Float("apdex_target", a.euApdexTarget)
		e.Float("apdex_score", a.euApdexScore)
		e.EndObject()
	}
	e.BeginObject("settings")
	e.Float("app_apdex_threshold", a.appApdexT)
	e.Float("end_user_apdex_threshold", a.endUserApdexT)
	e.Bool("enable_real_user_monitoring", a.rum)
	e.Bool("use_server_side_config", a.serverSideConfig)
	e.EndObject()
	e.BeginObject("links")
	e.BeginArray("application_instances", "application_instance")
	for _, id := range a.instances {
		e.Int("application_instance", id)
	}
	e.EndArray()
	if a.alertPolicy != 0 {
		e.Int("alert_policy", a.alertPolicy)
	}
	e.BeginArray("servers", "server")
	e.EndArray()
	e.BeginArray("application_hosts", "application_host")
	for _, id := range a.hosts {
		e.Int("application_host", id)
	}
	e.EndArray()
	e.EndObject()
	e.EndObject()
}

// testAppList is GET /v2/applications; withLinks adds the top-level link templates.
type testAppList struct {
	apps      []testApp
	withLinks bool
}

func (*testAppList) Root() string { return "applications_response" }

func (l *testAppList) EncodeV2(e Encoder) {
	e.BeginArray("applications", "application")
	for i := range l.apps {
		l.apps[i].EncodeV2(e)
	}
	e.EndArray()
	if l.withLinks {
		e.BeginObject("links")
		e.String("application.servers", "/v2/servers?ids={server_ids}")
		e.String("application.application_hosts", "/v2/application/{application_id}/hosts?ids={host_ids}")
		e.EndObject()
	}
}

// exampleAppList reproduces tests/testdata/restv2/applications_list.json.
func exampleAppList() *testAppList {
	return &testAppList{apps: []testApp{{
		id: 1129082, name: "My Web Page", language: "java", health: "green", reporting: true,
		lastReported: "2014-07-29T23:45:07+00:00",
		responseTime: 304, throughput: 4570, errors: 0.0016, apdexTarget: 523, apdexScore: 0.97,
		endUser: true, euResponse: 3.73, euThroughput: 0.333, euApdexTarget: 0, euApdexScore: 1,
		appApdexT: 0.5, endUserApdexT: 7, rum: true, serverSideConfig: true,
		instances:   []int64{2928655, 3941052, 3940275, 3944066, 3943114, 3943147},
		alertPolicy: 41534,
		hosts:       []int64{2927654, 3940051, 3943274, 3943065, 3943513, 3943146},
	}}}
}

// benchAppList is an application-like list of n items with varied values.
func benchAppList(n int) *testAppList {
	l := &testAppList{withLinks: true, apps: make([]testApp, n)}
	for i := range l.apps {
		f := float64(i)
		l.apps[i] = testApp{
			id: 1000000 + int64(i), name: "Service " + strconv.Itoa(i) + " <prod> & \"friends\"",
			language: "java", health: "green", reporting: true,
			lastReported: "2024-03-01T12:00:00+00:00",
			responseTime: 100 + f/7, throughput: 1000 * f, errors: f / 1000, apdexTarget: 0.5, apdexScore: 0.97,
			endUser: i%2 == 0, euResponse: 3.73, euThroughput: 0.333, euApdexTarget: 7, euApdexScore: 1,
			appApdexT: 0.5, endUserApdexT: 7, rum: true,
			instances: []int64{int64(i) * 10, int64(i)*10 + 1, int64(i)*10 + 2},
			hosts:     []int64{int64(i) * 20, int64(i)*20 + 1},
		}
	}
	return l
}

// testValue is one named value of a metric timeslice.
type testValue struct {
	name string
	v    float64
}

type testSlice struct {
	from, to string
	values   []testValue
}

type testMetric struct {
	name   string
	slices []testSlice
}

// testMetricData is GET /v2/applications/{id}/metrics/data; found/notFound are
// omitted when nil, as in the 2014 captured XML.
type testMetricData struct {
	from, to        string
	notFound, found []string
	metrics         []testMetric
}

func (*testMetricData) Root() string { return "metric_data_response" }

func (d *testMetricData) EncodeV2(e Encoder) {
	e.BeginObject("metric_data")
	e.String("from", d.from)
	e.String("to", d.to)
	for _, a := range []struct {
		name, item string
		names      []string
	}{{"metrics_not_found", "metric_not_found", d.notFound}, {"metrics_found", "metric_found", d.found}} {
		if a.names == nil {
			continue
		}
		e.BeginArray(a.name, a.item)
		for _, n := range a.names {
			e.String("", n)
		}
		e.EndArray()
	}
	e.BeginArray("metrics", "metric")
	for _, m := range d.metrics {
		e.BeginObject("metric")
		e.String("name", m.name)
		e.BeginArray("timeslices", "timeslice")
		for _, s := range m.slices {
			e.BeginObject("timeslice")
			e.String("from", s.from)
			e.String("to", s.to)
			e.BeginObject("values")
			for _, v := range s.values {
				e.Float(v.name, v.v)
			}
			e.EndObject()
			e.EndObject()
		}
		e.EndArray()
		e.EndObject()
	}
	e.EndArray()
	e.EndObject()
}

// exampleMetricDataXML reproduces tests/testdata/restv2/metric_data_response.xml.
func exampleMetricDataXML() *testMetricData {
	slice := func(from, to string, score float64) testSlice {
		return testSlice{from: from, to: to, values: []testValue{{"score", score}, {"threshold", 0.5}}}
	}
	const t1, t2, t3 = "2014-10-29T03:58:00+00:00", "2014-10-29T03:59:00+00:00", "2014-10-29T04:00:00+00:00"
	return &testMetricData{from: t2, to: t3, metrics: []testMetric{
		{name: "Apdex", slices: []testSlice{slice(t1, t2, 0.85), slice(t2, t3, 0.86)}},
		{name: "Browser/Apdex", slices: []testSlice{slice(t1, t2, 1), slice(t2, t3, 0.9)}},
	}}
}

// exampleMetricDataJSON reproduces tests/testdata/restv2/metric_data.json.
func exampleMetricDataJSON() *testMetricData {
	values := func(pct, avg, cpm, maxv, total, util float64) []testValue {
		return []testValue{{"as_percentage", pct}, {"average_time", avg}, {"calls_per_minute", cpm},
			{"max_value", maxv}, {"total_call_time_per_minute", total}, {"utilization", util}}
	}
	return &testMetricData{
		from: "2020-01-27T23:25:45+00:00", to: "2020-01-27T23:55:45+00:00",
		notFound: []string{}, found: []string{"GC/System/Pauses"},
		metrics: []testMetric{{name: "GC/System/Pauses", slices: []testSlice{
			{from: "2020-01-27T23:22:00+00:00", to: "2020-01-27T23:23:00+00:00",
				values: values(0.0298, 0.298, 65.9, 0.0006, 0.0196, 0.0327)},
			{from: "2020-01-27T23:23:00+00:00", to: "2020-01-27T23:24:00+00:00",
				values: values(0.0294, 0.294, 67, 0.0005, 0.0197, 0.0328)},
		}}},
	}
}

// kitchenSink exercises every encoder call and the edge cases of both formats.
func kitchenSink() docFunc {
	return docFunc{root: "kitchen_sink_response", enc: func(e Encoder) {
		e.BeginObject("scalars")
		e.Int("int", -42)
		e.Int("max_int", math.MaxInt64)
		e.Float("whole", 304)
		e.Float("fraction", 0.0016)
		e.Float("negative", -2.5)
		e.Float("negative_zero", math.Copysign(0, -1))
		e.Float("tiny", 1e-7)
		e.Float("huge", 1e21)
		e.Float("nan", math.NaN())
		e.Float("inf", math.Inf(1))
		e.Bool("yes", true)
		e.Bool("no", false)
		e.Null("nothing")
		e.String("empty", "")
		e.String("markup", `<script src="x">a && b</script>`)
		e.String("lines", "tab\there\nnew line\r\nCRLF")
		e.String("unicode", "café 日本 🚀")
		e.EndObject()
		e.BeginObject("empty_object")
		e.EndObject()
		e.BeginArray("empty_array", "item")
		e.EndArray()
		e.BeginArray("strings", "metric_found")
		e.String("", "HttpDispatcher")
		e.String("", "Datastore/all")
		e.EndArray()
		e.BeginArray("mixed", "entry")
		e.Int("", 1)
		e.Null("")
		e.BeginObject("")
		e.String("k", "v")
		e.EndObject()
		e.BeginArray("", "cell")
		e.Float("", 1)
		e.Float("", 0.5)
		e.EndArray()
		e.EndArray()
		e.BeginObject("links")
		e.String("application.servers", "/v2/servers?ids={server_ids}")
		e.EndObject()
		e.BeginObject("values")
		e.Float("calls per minute", 12)
		e.Float("95th_percentile", 0.25)
		e.EndObject()
	}}
}
