package restv2

import (
	"sync"
	"time"
)

// MetricName is one entry of GET .../metrics: a name and the value names it offers.
type MetricName struct {
	Name   string
	Values []string
}

// MetricNames is the body of GET .../metrics.
type MetricNames struct {
	Metrics []MetricName
}

// Root is the XML root element.
func (*MetricNames) Root() string { return "metrics_response" }

// EncodeV2 writes {"metrics":[{"name":...,"values":[...]}]}.
func (m *MetricNames) EncodeV2(e Encoder) {
	e.BeginArray("metrics", "metric")
	for _, n := range m.Metrics {
		e.BeginObject("metric")
		e.String("name", n.Name)
		e.BeginArray("values", "value")
		for _, v := range n.Values {
			e.String("value", v)
		}
		e.EndArray()
		e.EndObject()
	}
	e.EndArray()
}

// MetricValue is one named value of a timeslice.
type MetricValue struct {
	Name  string
	Value float64
	// Int renders the value as an integer (counts).
	Int bool
}

// Timeslice is one slice of a metric.
type Timeslice struct {
	From, To time.Time
	Values   []MetricValue
}

// MetricSeries is one metric of a metric data answer.
type MetricSeries struct {
	Name       string
	Timeslices []Timeslice
}

// MetricData is the body of GET .../metrics/data. A document answered from the metric
// cache is shared by the requests it serves (read only), and RenderMemo keeps its
// rendered bytes per format so a cache hit costs no rendering either.
type MetricData struct {
	From, To  time.Time
	NotFound  []string
	Found     []string
	Metrics   []MetricSeries
	Summarize bool
	RenderMemo
}

// RenderMemo holds the rendered bytes per format of a document served to several
// requests (one from a cache). The zero value remembers nothing until Share; it is safe
// for concurrent use and must not be copied after first use.
type RenderMemo struct {
	m      sync.Map
	shared bool
}

// Share marks the document as one that several requests will be answered with, so its
// renderings are worth keeping. Call it before publishing the document (a cache Set).
func (r *RenderMemo) Share() { r.shared = true }

// Shared reports whether Share was called.
func (r *RenderMemo) Shared() bool { return r.shared }

// rendering is a remembered rendering: the bytes and the validator (ETag) the
// renderer computed for them.
type rendering struct {
	body []byte
	tag  string
}

// Rendered returns the bytes and tag remembered for format.
func (r *RenderMemo) Rendered(format string) (body []byte, tag string, ok bool) {
	if !r.shared {
		return nil, "", false
	}
	v, ok := r.m.Load(format)
	if !ok {
		return nil, "", false
	}
	rd := v.(*rendering)
	return rd.body, rd.tag, true
}

// Remember keeps b (which the caller must not change afterwards) and its tag (the
// ETag the renderer computed from b, so that a cache hit need not hash b again) for
// format.
func (r *RenderMemo) Remember(format string, b []byte, tag string) {
	if r.shared {
		r.m.Store(format, &rendering{body: b, tag: tag})
	}
}

// Root is the XML root element.
func (*MetricData) Root() string { return "metric_data_response" }

// EncodeV2 writes {"metric_data":{...}} in REST v2's key order.
func (m *MetricData) EncodeV2(e Encoder) {
	e.BeginObject("metric_data")
	e.Time("from", m.From)
	e.Time("to", m.To)
	e.BeginArray("metrics_not_found", "metrics_not_found")
	for _, n := range m.NotFound {
		e.String("metrics_not_found", n)
	}
	e.EndArray()
	e.BeginArray("metrics_found", "metrics_found")
	for _, n := range m.Found {
		e.String("metrics_found", n)
	}
	e.EndArray()
	e.BeginArray("metrics", "metric")
	for _, s := range m.Metrics {
		e.BeginObject("metric")
		e.String("name", s.Name)
		e.BeginArray("timeslices", "timeslice")
		for _, ts := range s.Timeslices {
			e.BeginObject("timeslice")
			e.Time("from", ts.From)
			e.Time("to", ts.To)
			e.BeginObject("values")
			for _, v := range ts.Values {
				if v.Int {
					e.Int(v.Name, int64(v.Value))
				} else {
					e.Float(v.Name, v.Value)
				}
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
