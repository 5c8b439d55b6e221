package metricdata

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"sync"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// Row is one slice of a metric: its NRQL row, as decoded with the answer. A metric's
// slices are its rows in begin order.
type Row = ng.TimesliceRow

// rowRaw is a row's raw sums.
func rowRaw(v *Row) raw {
	return raw{count: v.C, total: v.S, exclusive: v.Ex, min: v.Mn, max: v.Mx, sumSquares: v.Sq,
		stddev: v.Sd, exclusiveRatio: v.Exr, exclusiveMean: v.Exm}
}

// rowTime is a row's beginTimeSeconds or endTimeSeconds as a time (whole seconds).
func rowTime(seconds float64) time.Time { return time.Unix(int64(seconds), 0).UTC() }

func anyData(sl []Row) bool {
	for i := range sl {
		if s := &sl[i]; s.C != 0 || s.S != 0 || s.Ex != 0 {
			return true
		}
	}
	return false
}

// Series is the rows of a request's chunks (each chunk's NRQL answer, decoded) by
// metric name, each name's rows sorted by begin; the rows are sorted in place, not
// copied (a series is a sub-slice of its chunk).
func Series(chunks [][]Row) map[string][]Row {
	// The rows were decoded with the answer (graphql.TimesliceRow, by value), in one
	// pass. Each name's run of rows is its series, sorted in place by begin (stably);
	// a null row (or a facet that is not a metric name) names no metric. NRQL's FACET
	// answers come grouped by facet, so a chunk is sorted by name too (stably, rows
	// without one first) only when a name's rows are not one run.
	runs := 0 // at least the names: the map's size
	for _, rows := range chunks {
		n, grouped := runsOf(rows)
		if !grouped {
			slices.SortStableFunc(rows, compareRows)
		}
		runs += n
	}
	out := make(map[string][]Row, runs)
	for _, rows := range chunks {
		for i := 0; i < len(rows); {
			name, ok, j := runAt(rows, i)
			if ok {
				run := rows[i:j:j]
				if prev, dup := out[string(name)]; dup { // one name in two chunks: not sent so, merged
					run = append(slices.Clip(prev), run...)
				}
				if !slices.IsSortedFunc(run, compareBegin) {
					slices.SortStableFunc(run, compareBegin)
				}
				out[string(name)] = run
			}
			i = j
		}
	}
	return out
}

// metricName is the text of the metric a facet names (ok): a JSON string's contents
// (graphql.StringText). Null, an absent facet or any other value names none.
func metricName(facet json.RawMessage) (name []byte, ok bool) { return ng.StringText(facet) }

// runAt is the run of rows from i with the same facet: its metric name (ok: the facet
// is one) and the index after its last row.
func runAt(rows []Row, i int) (name []byte, ok bool, end int) {
	name, ok = metricName(rows[i].Facet)
	end = i + 1
	for end < len(rows) && facetIs(&rows[end], rows[i].Facet, name, ok) {
		end++
	}
	return name, ok, end
}

// runsOf counts the runs of rows and reports whether they are grouped: every metric
// name's rows one run.
func runsOf(rows []Row) (runs int, grouped bool) {
	var buf [Chunk][]byte // a chunk's names: no allocation
	seen := buf[:0]
	grouped = true
	for i := 0; i < len(rows); runs++ {
		name, ok, j := runAt(rows, i)
		if ok && grouped {
			if slices.ContainsFunc(seen, func(n []byte) bool { return bytes.Equal(n, name) }) {
				grouped = false
			}
			seen = append(seen, name)
		}
		i = j
	}
	return runs, grouped
}

// compareRows orders rows by metric name, rows without one first (the order of
// runs; within a run, compareBegin orders the rows).
func compareRows(a, b Row) int {
	an, aok := metricName(a.Facet)
	bn, bok := metricName(b.Facet)
	switch {
	case aok != bok:
		if aok {
			return 1
		}
		return -1
	}
	return bytes.Compare(an, bn)
}

// compareBegin orders a metric's rows by begin (whole seconds, as rowTime reads it).
func compareBegin(a, b Row) int { return cmp.Compare(int64(a.Begin), int64(b.Begin)) }

// facetIs reports whether row names the metric name (ok), or none (!ok), like the
// row before it, whose facet was written as facet.
func facetIs(row *Row, facet json.RawMessage, name []byte, ok bool) bool {
	if bytes.Equal(row.Facet, facet) {
		return true
	}
	n, isName := metricName(row.Facet)
	return isName == ok && bytes.Equal(n, name)
}

// Doc is a metric data answer kept as its series (the NRQL rows, by name) and
// the values resolved for each name, rendered slice by slice: the renderers
// (restv2/metricdata.go, through restv2.MetricDataSource) compute each
// slice's values into one reused buffer as they write it, so no v2 model of every
// value (32 bytes each) is built for a request.
// Model builds that model, once, with the same per-slice code (slice), for whatever
// needs the document as *restv2.MetricData (the generic encoders, the fleet's shared
// cache, translate.Translator.MetricData). A Doc is read only once made; safe for
// concurrent use.
type Doc struct {
	from, to        time.Time // as requested (echoed)
	since, until    time.Time // the slices' range (a summarized slice's)
	summaryTo       time.Time // a summarized slice's to as shown
	notFound, found []string
	series          []docSeries // one per found name, in request order
	summarize       bool
	raw             bool        // raw=true answered with the timeslice's own fields (Choices.RawFields)
	unformatted     bool        // raw=true: values as computed, not rounded as REST showed them
	pages           *pageCounts // error_percentage's counts (nil: not asked)

	restv2.RenderMemo
	once  sync.Once
	model *restv2.MetricData
}

// docSeries is one found name: its slices (sorted by begin) and the values resolved
// for it (none with raw).
type docSeries struct {
	name   string
	values []namedValue
	slices []Row
}

var _ restv2.Document = (*Doc)(nil)

// Known tells whether a metric name is known for the scope (the metric names route
// lists it) though it has no data in the range; nil knows none.
type Known func(name string) bool

// NeedsKnown reports whether NewDoc would ask known about any of names: whether one
// has no data in series (read as its stored name).
func NeedsKnown(names []string, series map[string][]Row) bool {
	for _, name := range names {
		if !anyData(series[StoredName(name)]) {
			return true
		}
	}
	return false
}

// NewDoc resolves a request's names against its series: found and not found, and
// each found name's values; a name without data in the range is not found.
func NewDoc(names []string, r Request, w Window, series map[string][]Row) *Doc {
	return NewKnownDocWith(names, r, w, series, nil, Choices{})
}

// NewKnownDoc is NewDoc with the names known for the scope (known): a known name
// without data in the range is found, with zero values in each slice — "Metric values
// that have existed in the past, but are no longer collected, will return a zero
// value" (docs-website src/content/docs/apis/rest-api-v2/basic-functions/
// extract-metric-timeslice-data.mdx). Only a name never known is not found.
func NewKnownDoc(names []string, r Request, w Window, series map[string][]Row, known Known) *Doc {
	return NewKnownDocWith(names, r, w, series, known, Choices{})
}

// NewKnownDocWith is NewKnownDoc with the operator's Choices.
func NewKnownDocWith(names []string, r Request, w Window, series map[string][]Row, known Known, ch Choices) *Doc {
	d := &Doc{from: w.From, to: w.To, since: w.Since, until: w.Until, summaryTo: w.SummaryTo, notFound: []string{}, found: []string{},
		summarize: r.Summarize, raw: r.Raw && ch.RawFields, unformatted: r.Raw, series: make([]docSeries, 0, len(names))}
	asked := r.Values
	if len(asked) > 0 && len(names) > 1 {
		asked = firstNameValues(StoredName(names[0]), asked)
	}
	if servesErrorPercentage(names, r, ch) {
		d.pages = &pageCounts{errors: series[PageErrorsMetric], views: series[PageViewsMetric]}
	}
	var zeros []Row // the window's slices without data, shared by every name that has none
	for _, name := range names {
		slices, ok := series[StoredName(name)]
		if !ok || !anyData(slices) {
			if known == nil || !known(StoredName(name)) {
				d.notFound = append(d.notFound, name)
				continue
			}
			if !ok {
				if zeros == nil {
					zeros = zeroRows(w, r.Summarize)
				}
				slices = zeros
			}
		}
		d.found = append(d.found, name)
		s := docSeries{name: name, slices: slices}
		switch {
		case d.raw:
		case len(r.Values) == 0:
			s.values = resolveValues(nil, StoredName(name), nil) // the name's own values
		default:
			s.values = resolveAsked(nil, StoredName(name), asked)
		}
		ch.apply(s.values)
		d.series = append(d.series, s)
	}
	return d
}

// zeroRows are the slices of window w without data: one summarized.
func zeroRows(w Window, summarize bool) []Row {
	n := w.Slices()
	if summarize {
		n = min(n, 1)
	}
	rows := make([]Row, n)
	for i := range rows {
		begin := w.Since.Add(time.Duration(i) * w.Period)
		end := begin.Add(w.Period)
		if summarize {
			end = w.Until
		}
		rows[i].Begin, rows[i].End = float64(begin.Unix()), float64(end.Unix())
	}
	return rows
}

// width is the number of values a slice of series s can have.
func (d *Doc) width(s *docSeries) int {
	if d.raw {
		return len(rawValues)
	}
	return len(s.values)
}

// slice appends slice j of series s's values to dst and returns the slice's range:
// the raw values with raw=true, then each resolved value that is a finite number
// (REST left out what it could not compute).
func (d *Doc) slice(s *docSeries, j int, dst []restv2.MetricValue) (from, to time.Time, out []restv2.MetricValue) {
	row := &s.slices[j]
	sums := rowRaw(row)
	if d.pages != nil {
		d.pages.at(&sums, row.Begin, d.summarize)
	}
	from, to = rowTime(row.Begin), rowTime(row.End)
	seconds := to.Sub(from).Seconds()
	if d.summarize {
		from, to = d.since, d.summaryTo
		seconds = d.until.Sub(d.since).Seconds()
	}
	if d.raw {
		for _, v := range rawValues {
			x, _ := rawValue(v, sums)
			dst = append(dst, restv2.MetricValue{Name: v, Value: x, Int: v == "count"})
		}
	}
	for i := range s.values {
		v := &s.values[i]
		if x, ok := v.compute(sums, seconds); ok {
			if !d.unformatted {
				x = v.shown(x)
			}
			dst = append(dst, restv2.MetricValue{Name: v.name, Value: x, Int: v.isInt && x == math.Trunc(x)})
		}
	}
	return from, to, dst
}

// Model is the document as *restv2.MetricData, built on first use.
func (d *Doc) Model() *restv2.MetricData {
	d.once.Do(func() { d.model = d.buildModel() })
	return d.model
}

func (d *Doc) buildModel() *restv2.MetricData {
	md := &restv2.MetricData{From: d.from, To: d.to, NotFound: d.notFound, Found: d.found,
		Metrics: make([]restv2.MetricSeries, 0, len(d.series)), Summarize: d.summarize}
	if d.Shared() {
		md.Share() // served from the cache like the document
	}
	for i := range d.series {
		s := &d.series[i]
		// One backing array for every slice's values and one for the slices: two
		// allocations a name, however many slices.
		ms := restv2.MetricSeries{Name: s.name, Timeslices: make([]restv2.Timeslice, 0, len(s.slices))}
		backing := make([]restv2.MetricValue, 0, len(s.slices)*d.width(s))
		for j := range s.slices {
			start := len(backing)
			var from, to time.Time
			from, to, backing = d.slice(s, j, backing)
			ms.Timeslices = append(ms.Timeslices, restv2.Timeslice{From: from, To: to, Values: backing[start:len(backing):len(backing)]})
		}
		md.Metrics = append(md.Metrics, ms)
	}
	return md
}

// Root is the XML root element.
func (*Doc) Root() string { return "metric_data_response" }

// EncodeV2 encodes the model (the generic encoders' path; the renderers of
// restv2 write a Doc without it).
func (d *Doc) EncodeV2(e restv2.Encoder) { d.Model().EncodeV2(e) }

// MetricDataHead returns the envelope: the window as requested and the names not
// found and found (restv2.MetricDataSource).
func (d *Doc) MetricDataHead() (from, to time.Time, notFound, found []string) {
	return d.from, d.to, d.notFound, d.found
}

// MetricDataLen is the number of metrics (found names).
func (d *Doc) MetricDataLen() int { return len(d.series) }

// MetricDataSeries returns metric i's name and number of slices.
func (d *Doc) MetricDataSeries(i int) (name string, slices int) {
	return d.series[i].name, len(d.series[i].slices)
}

// MetricDataSlice appends metric i's slice j's values to vals and returns the slice's
// range and the values.
func (d *Doc) MetricDataSlice(i, j int, vals []restv2.MetricValue) (from, to time.Time, out []restv2.MetricValue) {
	return d.slice(&d.series[i], j, vals)
}

// MetricDataValues is the number of values of metric i's slices at most (an output
// size estimate).
func (d *Doc) MetricDataValues(i int) int { return d.width(&d.series[i]) }
