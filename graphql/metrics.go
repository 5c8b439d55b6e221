package graphql

import (
	"context"
	"encoding/json"

	gql "github.com/Khan/genqlient/graphql"
)

// EntityRef is an entity looked up only to know that it exists in an account
// (MetricData binds its `entity` to it): genqlient's generated interface type for
// `entity` decodes the whole actor twice, once into raw messages and again for the
// concrete type; this plain struct takes the same selection in one pass.
type EntityRef struct {
	Typename  *string `json:"__typename"`
	Guid      *string `json:"guid"`
	AccountId *int    `json:"accountId"`
}

// GetAccountId returns the entity's account id.
func (v *EntityRef) GetAccountId() *int { return v.AccountId }

// TimesliceRow is one row of the metric data NRQL (translate/metricdata/nrql.go: one FACET
// metricTimesliceName TIMESERIES bucket of New Relic's published timeslice functions),
// which MetricData binds its `results` to, so the rows decode in the response's one
// pass instead of a raw copy per row decoded again. Facet is the facet as written: the
// metric name as a JSON string (null, or any other value, names no metric); kept as
// text, it costs no allocation per row when presized (MetricDataResponse.presize). The field
// names are the NRQL aliases. The rows are also the metric's slices
// (translate/metricdata.Row): sorted in place and sub-sliced per name, never copied.
type TimesliceRow struct {
	Facet json.RawMessage `json:"facet"`
	Begin float64         `json:"beginTimeSeconds"`
	End   float64         `json:"endTimeSeconds"`
	C     float64         `json:"c"`
	S     float64         `json:"s"`
	Ex    float64         `json:"ex"`
	Mn    float64         `json:"mn"`
	Mx    float64         `json:"mx"`
	Sq    float64         `json:"sq"`
	Sd    float64         `json:"sd"`
	Exr   float64         `json:"exr"`
	Exm   float64         `json:"exm"`
}

// timesliceRowsKey carries WithTimesliceRows's counts on a context.
type timesliceRowsKey struct{}

// WithTimesliceRows tells the MetricData call made with ctx how many rows each of its
// chunks (q0, q1, …) is expected to answer. Their slices are then allocated once, at
// that capacity, before the answer is decoded into them (the decoder fills a slice's
// capacity in place), instead of growing by doubling while the rows arrive
// (BenchmarkGatewayMetricData10x180's B/op). A count of 0 leaves its chunk alone, as one
// the query skips with @include must be. A wrong count costs memory only: rows beyond it
// are decoded as they would be without it.
func WithTimesliceRows(ctx context.Context, rows ...int) context.Context {
	return context.WithValue(ctx, timesliceRowsKey{}, rows)
}

// TimesliceRows is what WithTimesliceRows put on ctx (nil: nothing).
func TimesliceRows(ctx context.Context) []int {
	rows, _ := ctx.Value(timesliceRowsKey{}).([]int)
	return rows
}

// minRowJSON is the fewest bytes a TimesliceRow takes in an answer: its twelve keys
// (NRQL answers each alias, null when it has no value), a one-byte value each, commas
// and braces are 112.
const minRowJSON = 100

// facetRoom is the bytes of a row's facet text presized in place: a metric name of up
// to 30 bytes and its quotes.
const facetRoom = 32

// presize gives the chunks of d that WithTimesliceRows counted on ctx their capacity
// (presizer). Together they never hold more rows than an answer of size bytes can
// (minRowJSON each), so a request for names without data allocates no more than the
// answer it read. Each field it sets is one the answer holds, as a value or as null,
// and null decodes to nil over it (TestPresizedMetricDataNulls), so d reads the same
// after decoding as without it.
func (d *MetricDataResponse) presize(ctx context.Context, _ *gql.Request, size int) bool {
	rows := TimesliceRows(ctx)
	if len(rows) == 0 || d.Actor != nil {
		return false
	}
	budget := size / minRowJSON
	acct := new(MetricDataActorAccount)
	for i, n := range rows {
		n = min(n, budget)
		if n <= 0 {
			continue
		}
		budget -= n
		r := make([]TimesliceRow, n)
		// Each row's facet is decoded into its own part of one buffer (the decoder
		// appends a json.RawMessage's text to what it holds): a longer name takes an
		// allocation of its own.
		room := make([]byte, n*facetRoom)
		for k := range r {
			r[k].Facet = room[k*facetRoom : k*facetRoom : (k+1)*facetRoom]
		}
		r = r[:0]
		switch i {
		case 0:
			acct.Q0 = &MetricDataActorAccountQ0NrdbResultContainer{Results: r}
		case 1:
			acct.Q1 = &MetricDataActorAccountQ1NrdbResultContainer{Results: r}
		case 2:
			acct.Q2 = &MetricDataActorAccountQ2NrdbResultContainer{Results: r}
		case 3:
			acct.Q3 = &MetricDataActorAccountQ3NrdbResultContainer{Results: r}
		}
	}
	d.Actor = &MetricDataActor{Account: acct}
	return true
}

func (d *MetricDataResponse) unpresize() { *d = MetricDataResponse{} }

// The responses that ready themselves for their answers (presize.go).
var (
	_ presizer = (*MetricDataResponse)(nil)
)
