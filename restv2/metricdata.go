package restv2

import (
	"math"
	"slices"
	"strconv"
	"sync"
	"time"
)

// The metric data body (GET .../metrics/data) is most of what a large metric answer
// costs: 10 names × 180 slices is about 14,000 values, each a member name and a number.
// JSON and XML render a MetricDataSource (metricdata.Doc, or *MetricData) here,
// writing the same bytes as the document's EncodeV2 through the generic encoders
// (TestMetricDataRenderMatches here and TestMetricDataRenderDirectMatchesGeneric in
// translate compare the two on varied documents) without a model of every value
// (MetricDoc computes a slice's values as they are written) and without the
// encoders' per-call work: each value
// name is quoted (JSON) or sanitised and indented (XML) once per answer instead of once
// per value, the body's size is reserved up front, and a number equal to one already
// written in the same slice (calls_per_minute and requests_per_minute are one formula,
// translate/metricdata/values.go) is copied instead of formatted again.
// BenchmarkRenderMetricData (this package) and BenchmarkGatewayMetricData10x180
// (tests/bench) measure it.

// MetricDataSource is a metric data answer the renderers write slice by slice
// (metricdata.Doc computes each slice's values as it is asked for them, so no
// model of every value is built); *MetricData is written through the same code.
// The bytes are those of the document's EncodeV2 through the generic encoders.
type MetricDataSource interface {
	Document
	// MetricDataHead returns from, to, metrics_not_found and metrics_found.
	MetricDataHead() (from, to time.Time, notFound, found []string)
	// MetricDataLen is the number of metrics.
	MetricDataLen() int
	// MetricDataSeries returns metric i's name and number of timeslices.
	MetricDataSeries(i int) (name string, slices int)
	// MetricDataSlice returns metric i's timeslice j: its range, and vals (a buffer
	// the renderer reuses) with the slice's values appended.
	MetricDataSlice(i, j int, vals []MetricValue) (from, to time.Time, out []MetricValue)
	// MetricDataValues is the most values a timeslice of metric i has (the output
	// is sized from it).
	MetricDataValues(i int) int
}

// modelSource is *MetricData as a MetricDataSource.
type modelSource MetricData

func (m *modelSource) Root() string       { return (*MetricData)(m).Root() }
func (m *modelSource) EncodeV2(e Encoder) { (*MetricData)(m).EncodeV2(e) }
func (m *modelSource) MetricDataHead() (from, to time.Time, notFound, found []string) {
	return m.From, m.To, m.NotFound, m.Found
}
func (m *modelSource) MetricDataLen() int { return len(m.Metrics) }
func (m *modelSource) MetricDataSeries(i int) (string, int) {
	return m.Metrics[i].Name, len(m.Metrics[i].Timeslices)
}
func (m *modelSource) MetricDataSlice(i, j int, vals []MetricValue) (from, to time.Time, out []MetricValue) {
	ts := &m.Metrics[i].Timeslices[j]
	return ts.From, ts.To, append(vals, ts.Values...)
}
func (m *modelSource) MetricDataValues(i int) int {
	n := 0
	for _, ts := range m.Metrics[i].Timeslices {
		n = max(n, len(ts.Values))
	}
	return n
}

// metricDataSource returns doc as a MetricDataSource when it is a metric data answer.
func metricDataSource(doc Document) (MetricDataSource, bool) {
	switch d := doc.(type) {
	case *MetricData:
		if d != nil {
			return (*modelSource)(d), true
		}
	case MetricDataSource:
		return d, true
	}
	return nil, false
}

// XML indentation of the metric data document: the depth of each element times two
// spaces (metric_data_response is at depth 0).
const (
	mdIndent1 = "\n  "
	mdIndent2 = "\n    "
	mdIndent3 = "\n      "
	mdIndent4 = "\n        "
	mdIndent5 = "\n          "
	mdIndent6 = "\n            "
	mdIndent7 = "              " // a value's element (after the previous line's '\n')
)

// mdKey is a value name's prepared bytes in mdWriter.keys: JSON `"name":`, XML
// `<name>`, `</name>` + "\n" and `<name/>` + "\n" (the XML forms after indentation).
type mdKey struct {
	name                    string
	json, open, close, null span
}

type span struct{ start, end int32 }

// mdWriter holds a render's prepared value names and the numbers of the slice being
// written. Writers are pooled: a render allocates nothing but its output.
type mdWriter struct {
	keys    []mdKey
	scratch []byte // the prepared bytes of keys
	nums    []mdNum
	vals    []MetricValue // the slice being written (MetricDataSlice's buffer)
}

// mdNum is a number already written in the current slice: its bits and where its
// digits are in the output.
type mdNum struct {
	bits       uint64
	start, end int
}

var mdWriters = sync.Pool{New: func() any { return new(mdWriter) }}

func getMDWriter() *mdWriter {
	w := mdWriters.Get().(*mdWriter)
	w.keys, w.scratch, w.nums, w.vals = w.keys[:0], w.scratch[:0], w.nums[:0], w.vals[:0]
	return w
}

func putMDWriter(w *mdWriter) {
	clear(w.keys) // drop the names so the pool does not pin them
	clear(w.vals)
	if cap(w.scratch) > 64<<10 || cap(w.keys) > 1024 || cap(w.nums) > 1024 || cap(w.vals) > 1024 {
		return // an answer with an unusual vocabulary: not worth keeping
	}
	mdWriters.Put(w)
}

// key returns the position in w.keys of a value name's prepared bytes, preparing them
// on first use. hint is where the name is expected: a metric's values come in the same
// order in each of its slices and are prepared in that order, so the caller's hint (the
// position of the metric's first value name, plus the value's place in the slice) is
// usually right; else the scan is short (value names come from a few fixed tables,
// translate/metricdata/values.go).
func (w *mdWriter) key(hint int, name string) int {
	if hint >= 0 && hint < len(w.keys) && w.keys[hint].name == name {
		return hint
	}
	for i := range w.keys {
		if w.keys[i].name == name {
			return i
		}
	}
	k := mdKey{name: name}
	mark := func(start int) span { return span{int32(start), int32(len(w.scratch))} }
	s := len(w.scratch)
	w.scratch = appendJSONString(w.scratch, name)
	w.scratch = append(w.scratch, ':')
	k.json = mark(s)
	x := xmlName(name)
	s = len(w.scratch)
	w.scratch = append(w.scratch, mdIndent7...)
	w.scratch = append(w.scratch, '<')
	w.scratch = append(w.scratch, x...)
	w.scratch = append(w.scratch, '>')
	k.open = mark(s)
	s = len(w.scratch)
	w.scratch = append(w.scratch, '<', '/')
	w.scratch = append(w.scratch, x...)
	w.scratch = append(w.scratch, '>', '\n')
	k.close = mark(s)
	s = len(w.scratch)
	w.scratch = append(w.scratch, mdIndent7...)
	w.scratch = append(w.scratch, '<')
	w.scratch = append(w.scratch, x...)
	w.scratch = append(w.scratch, '/', '>', '\n')
	k.null = mark(s)
	w.keys = append(w.keys, k)
	return len(w.keys) - 1
}

// keyOf is the prepared bytes of the k-th value name of a slice whose metric's first
// value name is at *first in w.keys (-1: not yet known; set here).
func (w *mdWriter) keyOf(first *int, k int, name string) *mdKey {
	i := w.key(*first+k, name)
	if k == 0 {
		*first = i
	}
	return &w.keys[i]
}

func (w *mdWriter) bytes(s span) []byte { return w.scratch[s.start:s.end] }

// number appends v's digits (appendFloat, or appendXMLFloat when xml), copying them
// from an equal number written earlier in the slice.
func (w *mdWriter) number(b []byte, v float64, xml bool) []byte {
	if v == 0 {
		v = 0 // -0 → 0
	}
	bits := math.Float64bits(v)
	for _, n := range w.nums {
		if n.bits == bits {
			return append(b, b[n.start:n.end]...)
		}
	}
	start := len(b)
	if xml {
		b = appendXMLFloat(b, v)
	} else {
		b = appendFloat(b, v)
	}
	w.nums = append(w.nums, mdNum{bits: bits, start: start, end: len(b)})
	return b
}

// mdSize estimates a body's length from its numbers of slices and values, so that the
// output is allocated once instead of growing through some twenty copies. The
// constants are bytes per value and per slice: JSON 36 and 82 (the simulator's
// 10 names × 180 slices, mostly 13–17-digit values, is 627 KB for an estimate of
// about 680 KB), XML 64 and 192. An underestimate only costs one more growth; an
// overestimate is memory held while the body is written.
func mdSize(md MetricDataSource, perValue, perSlice int) int {
	n := 512
	_, _, notFound, found := md.MetricDataHead()
	for _, s := range found {
		n += len(s) + 32
	}
	for _, s := range notFound {
		n += len(s) + 48
	}
	for i := range md.MetricDataLen() {
		name, slices := md.MetricDataSeries(i)
		n += 2*len(name) + 96 + slices*(perSlice+perValue*md.MetricDataValues(i))
	}
	return n
}

// metricDataJSON appends md as its EncodeV2 renders through JSON.
func metricDataJSON(b []byte, md MetricDataSource) []byte {
	w := getMDWriter()
	defer putMDWriter(w)
	b = slices.Grow(b, mdSize(md, 36, 82))
	from, to, notFound, found := md.MetricDataHead()
	b = append(b, `{"metric_data":{"from":"`...)
	b = appendTime(b, from)
	b = append(b, `","to":"`...)
	b = appendTime(b, to)
	b = append(b, `","metrics_not_found":[`...)
	for i, n := range notFound {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, n)
	}
	b = append(b, `],"metrics_found":[`...)
	for i, n := range found {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, n)
	}
	b = append(b, `],"metrics":[`...)
	for i := range md.MetricDataLen() {
		name, slices := md.MetricDataSeries(i)
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendJSONString(b, name)
		b = append(b, `,"timeslices":[`...)
		first := -1
		for j := range slices {
			var from, to time.Time
			from, to, w.vals = md.MetricDataSlice(i, j, w.vals[:0])
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"from":"`...)
			b = appendTime(b, from)
			b = append(b, `","to":"`...)
			b = appendTime(b, to)
			b = append(b, `","values":{`...)
			w.nums = w.nums[:0]
			for k := range w.vals {
				v := &w.vals[k]
				if k > 0 {
					b = append(b, ',')
				}
				b = append(b, w.bytes(w.keyOf(&first, k, v.Name).json)...)
				switch {
				case v.Int:
					b = strconv.AppendInt(b, int64(v.Value), 10)
				case math.IsNaN(v.Value) || math.IsInf(v.Value, 0):
					b = append(b, "null"...)
				default:
					b = w.number(b, v.Value, false)
				}
			}
			b = append(b, "}}"...)
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}}"...)
}

// metricDataXML appends md as its EncodeV2 renders through XML.
func metricDataXML(b []byte, md MetricDataSource) []byte {
	w := getMDWriter()
	defer putMDWriter(w)
	b = slices.Grow(b, mdSize(md, 64, 192))
	from, to, notFound, found := md.MetricDataHead()
	b = append(b, xmlDeclaration+"<metric_data_response>"+mdIndent1+"<metric_data>"+mdIndent2+"<from>"...)
	b = appendTime(b, from)
	b = append(b, "</from>"+mdIndent2+"<to>"...)
	b = appendTime(b, to)
	b = append(b, "</to>"...)
	b = mdXMLList(b, "metrics_not_found", notFound)
	b = mdXMLList(b, "metrics_found", found)
	n := md.MetricDataLen()
	if n == 0 {
		b = append(b, mdIndent2+"<metrics/>"...)
	} else {
		b = append(b, mdIndent2+"<metrics>"...)
	}
	for i := range n {
		name, slices := md.MetricDataSeries(i)
		b = append(b, mdIndent3+"<metric>"+mdIndent4+"<name>"...)
		b = appendXMLText(b, name)
		if slices == 0 {
			b = append(b, "</name>"+mdIndent4+"<timeslices/>"+mdIndent3+"</metric>"...)
			continue
		}
		b = append(b, "</name>"+mdIndent4+"<timeslices>"...)
		first := -1
		for j := range slices {
			var from, to time.Time
			from, to, w.vals = md.MetricDataSlice(i, j, w.vals[:0])
			b = append(b, mdIndent5+"<timeslice>"+mdIndent6+"<from>"...)
			b = appendTime(b, from)
			b = append(b, "</from>"+mdIndent6+"<to>"...)
			b = appendTime(b, to)
			if len(w.vals) == 0 {
				b = append(b, "</to>"+mdIndent6+"<values/>"+mdIndent5+"</timeslice>"...)
				continue
			}
			b = append(b, "</to>"+mdIndent6+"<values>\n"...)
			w.nums = w.nums[:0]
			for k := range w.vals {
				v := &w.vals[k]
				key := w.keyOf(&first, k, v.Name)
				if !v.Int && (math.IsNaN(v.Value) || math.IsInf(v.Value, 0)) {
					b = append(b, w.bytes(key.null)...)
					continue
				}
				b = append(b, w.bytes(key.open)...)
				if v.Int {
					b = strconv.AppendInt(b, int64(v.Value), 10)
				} else {
					b = w.number(b, v.Value, true)
				}
				b = append(b, w.bytes(key.close)...)
			}
			b = append(b, "            </values>"+mdIndent5+"</timeslice>"...)
		}
		b = append(b, mdIndent4+"</timeslices>"+mdIndent3+"</metric>"...)
	}
	if n > 0 {
		b = append(b, mdIndent2+"</metrics>"...)
	}
	return append(b, mdIndent1+"</metric_data>\n</metric_data_response>\n"...)
}

// mdXMLList appends a list of metric names (metrics_found, metrics_not_found), whose
// items are elements of the list's own name.
func mdXMLList(b []byte, name string, items []string) []byte {
	b = append(b, mdIndent2...)
	b = append(b, '<')
	b = append(b, name...)
	if len(items) == 0 {
		return append(b, '/', '>')
	}
	b = append(b, '>')
	for _, it := range items {
		b = append(b, mdIndent3...)
		b = append(b, '<')
		b = append(b, name...)
		b = append(b, '>')
		b = appendXMLText(b, it)
		b = append(b, '<', '/')
		b = append(b, name...)
		b = append(b, '>')
	}
	b = append(b, mdIndent2...)
	b = append(b, '<', '/')
	b = append(b, name...)
	return append(b, '>')
}
