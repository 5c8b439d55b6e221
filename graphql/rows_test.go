package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// timesliceAnswer is a MetricData answer whose q0 and q1 hold n0 and n1 rows.
func timesliceAnswer(n0, n1 int) string {
	rows := func(n int) string {
		r := make([]string, n)
		for i := range r {
			r[i] = fmt.Sprintf(`{"facet":"HttpDispatcher","beginTimeSeconds":%d,"endTimeSeconds":%d,"c":1,"s":2,"ex":3,"mn":4,"mx":5,"sq":6,"sd":7,"exr":8,"exm":9}`, 60*i, 60*i+60)
		}
		return "[" + strings.Join(r, ",") + "]"
	}
	return `{"data":{"actor":{"entity":{"guid":"g","accountId":1},"account":{"q0":{"results":` + rows(n0) + `},"q1":{"results":` + rows(n1) + `}}}}}`
}

// decodeOver has the client decode body as the answer to a request made with ctx into
// data, and returns the client's error.
func decodeOver(t *testing.T, ctx context.Context, body string, data any) error {
	t.Helper()
	return decodeWith(t, ctx, nil, body, data)
}

// decodeWith is decodeOver for a request with variables.
func decodeWith(t *testing.T, ctx context.Context, vars any, body string, data any) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	return NewClient(srv.URL, Options{MaxAttempts: 1}).MakeRequest(ctx,
		&gql.Request{OpName: "Q", Query: "query Q { x }", Variables: vars}, &gql.Response{Data: data})
}

// metricDataOver decodes body as the MetricData answer of a request made with ctx.
func metricDataOver(t *testing.T, ctx context.Context, body string) *MetricDataResponse {
	t.Helper()
	var data MetricDataResponse
	if err := decodeOver(t, ctx, body, &data); err != nil && !strings.Contains(body, `"errors"`) {
		t.Fatal(err)
	}
	return &data
}

// TestPresizedMetricDataSkippedChunks: a count of 0 leaves its chunk alone, as the
// chunks a query skips with @include are not in the answer at all.
func TestPresizedMetricDataSkippedChunks(t *testing.T) {
	body := `{"data":{"actor":{"entity":{"guid":"g","accountId":1},"account":{"q0":{"results":[]}}}}}` + strings.Repeat(" ", 10_000)
	plain := metricDataOver(t, context.Background(), body)
	sized := metricDataOver(t, WithTimesliceRows(context.Background(), 50, 0, 0, 0), body)
	if !reflect.DeepEqual(plain, sized) {
		t.Fatalf("with counts of 0 %+v, without %+v", sized.Actor.Account, plain.Actor.Account)
	}
}

// TestPresizedMetricData: with WithTimesliceRows the chunks' rows are decoded into
// slices of exactly the counted capacity (one allocation, no growth), the rows are the
// same as without it, and counts beyond the answer's size are cut to what it can hold.
func TestPresizedMetricData(t *testing.T) {
	body := timesliceAnswer(90, 30)
	plain := metricDataOver(t, context.Background(), body)
	sized := metricDataOver(t, WithTimesliceRows(context.Background(), 90, 30), body)
	if !reflect.DeepEqual(plain, sized) {
		t.Fatal("presized answer decodes differently")
	}
	if c0, c1 := cap(sized.Actor.Account.Q0.Results), cap(sized.Actor.Account.Q1.Results); c0 != 90 || c1 != 30 {
		t.Fatalf("capacities %d, %d; want 90, 30", c0, c1)
	}
	if c := cap(plain.Actor.Account.Q0.Results); c == 90 {
		t.Fatalf("without the hint the capacity is %d too: the test shows nothing", c)
	}
	// Counts far beyond the answer: the slices hold at most len(body)/minRowJSON rows in
	// all (the first chunk takes them), the rest grow as without the hint.
	huge := metricDataOver(t, WithTimesliceRows(context.Background(), 1_000_000, 1_000_000), body)
	if !reflect.DeepEqual(plain, huge) {
		t.Fatal("over-counted answer decodes differently")
	}
	budget := len(body) / minRowJSON
	if c0 := cap(huge.Actor.Account.Q0.Results); c0 != budget {
		t.Fatalf("first chunk's capacity %d; want the answer's budget %d", c0, budget)
	}
	if c1 := cap(huge.Actor.Account.Q1.Results); c1 >= budget {
		t.Fatalf("second chunk's capacity %d: the budget was spent twice", c1)
	}
}

// TestPresizedMetricDataNulls: whatever the answer holds as null or empty (no actor,
// no account, a chunk or its results null, no rows) reads the same with the hint as
// without it: the presized fields are replaced, not kept.
func TestPresizedMetricDataNulls(t *testing.T) {
	for _, body := range []string{
		`{"data":{"actor":null}}`,
		`{"data":null,"errors":[{"message":"boom","path":["actor","account"]}]}`,
		`{"errors":[{"message":"no"}]}`,
		`{"data":{"actor":{"entity":{"guid":"g","accountId":1},"account":null}}}`,
		`{"data":{"actor":{"entity":{"guid":"g","accountId":1},"account":{"q0":null,"q1":{"results":null}}}}}`,
		`{"data":{"actor":{"entity":{"guid":"g","accountId":1},"account":{"q0":{"results":[]},"q1":{"results":[]}}}}}`,
		timesliceAnswer(0, 3),
	} {
		body := body + strings.Repeat(" ", 10_000) // room for the hint's budget
		plain := metricDataOver(t, context.Background(), body)
		sized := metricDataOver(t, WithTimesliceRows(context.Background(), 50, 50), body)
		if !reflect.DeepEqual(plain, sized) {
			t.Errorf("%.80s…: with the hint %+v, without %+v", body, sized.Actor, plain.Actor)
		}

	}
}

// reference is encoding/json's reading of an answer's data (zero for "data": null),
// what a presized decode must equal.
func reference[T any](t *testing.T, body string) T {
	t.Helper()
	var want T
	wire := struct {
		Data *T `json:"data"`
	}{&want}
	if err := json.Unmarshal([]byte(body), &wire); err != nil {
		t.Fatal(err)
	}
	if wire.Data == nil {
		var zero T
		return zero
	}
	return want
}

// outlinePage is an AppList answer with n applications.
func outlinePage(n int) string {
	apps := make([]string, n)
	for i := range apps {
		apps[i] = fmt.Sprintf(`{"__typename":"ApmApplicationEntityOutline","guid":"MXxBUE18QVBQTElDQVRJT058%d","accountId":1,"name":"app %d","reporting":true,"alertSeverity":"NOT_ALERTING","applicationId":%d,"language":"go","settings":{"apdexTarget":0.5,"serverSideConfig":false},"apmSummary":null,"apmBrowserSummary":null}`, i, i, i+1)
	}
	return `{"data":{"actor":{"entitySearch":{"count":` + fmt.Sprint(n) + `,"results":{"nextCursor":null,"entities":[` + strings.Join(apps, ",") + `]}},"browsers":null}}}`
}

// TestPresizedOutlines: an application search page is decoded into a slice of its
// final capacity (at most a page, at most what the answer can hold), and every answer
// (a page, an empty or null page, null data, no data) reads as it does decoded without
// it (encoding/json's reading of the same answer is the reference).
func TestPresizedOutlines(t *testing.T) {
	withoutSettings := strings.Replace(summarized(outlinePage(3)), `"settings":{"apdexTarget":0.5,"serverSideConfig":false}`, `"settings":null`, 2)
	for _, tt := range []struct {
		body    string
		wantCap int
	}{
		{outlinePage(200), 200},
		{outlinePage(3), len(outlinePage(3)) / minOutlineJSON}, // 4: what 900 bytes can hold
		{outlinePage(0), -1},
		{summarized(outlinePage(3)), len(summarized(outlinePage(3))) / minOutlineJSON},
		{withoutSettings, len(withoutSettings) / minOutlineJSON},
		{`{"data":{"actor":{"entitySearch":{"count":0,"results":null}}}}`, -1},
		{`{"data":{"actor":{"entitySearch":null,"browsers":null}}}`, -1},
		{`{"data":{"actor":null}}`, -1},
		{`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`, -1},
		{`{"errors":[{"message":"no"}]}`, -1},
	} {
		var got AppListResponse
		err := decodeOver(t, context.Background(), tt.body, &got)
		if err != nil && !strings.Contains(tt.body, `"errors"`) {
			t.Fatal(err)
		}
		want := reference[AppListResponse](t, tt.body)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.60s…: presized %+v, want %+v", tt.body, got.Actor, want.Actor)
		}
		if tt.wantCap >= 0 {
			if c := cap(got.Actor.EntitySearch.Results.Entities); c != tt.wantCap {
				t.Errorf("%d applications decoded into a capacity of %d", len(got.Actor.EntitySearch.Results.Entities), c)
			}
		}
	}
}

// TestPresizedInventory: an AppList answer with its inventory decodes into a buffer
// given back by ReleaseInventory (its rows overwrite whatever the buffer held) and
// reads as encoding/json reads it, whatever the account part holds; without the
// inventory asked for, the account is left alone.
func TestPresizedInventory(t *testing.T) {
	page := outlinePage(2)
	with := func(account string) string {
		return strings.Replace(page, `"browsers":null}`, `"browsers":null,"account":`+account+`}`, 1)
	}
	rows := `[{"facet":["1","h","2"],"lastSeen":1}]`
	for _, tt := range []struct {
		body          string
		withInventory bool
	}{
		{with(`{"inventory":{"results":` + rows + `}}`), true},
		{with(`{"inventory":{"results":[]}}`), true},
		{with(`{"inventory":{"results":null}}`), true},
		{with(`{"inventory":null}`), true},
		{with(`null`), true},
		{page, false},
		{`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`, true},
	} {
		stale := json.RawMessage(strings.Repeat("x", 4096)) // a buffer's earlier rows
		ReleaseInventory(stale)
		var got AppListResponse
		err := decodeWith(t, context.Background(), &__AppListInput{WithInventory: tt.withInventory}, tt.body, &got)
		if err != nil && !strings.Contains(tt.body, `"errors"`) {
			t.Fatal(err)
		}
		want := reference[AppListResponse](t, tt.body)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.90s…: presized %+v, want %+v", tt.body, got.Actor.Account, want.Actor.Account)
		}
	}
}

// TestPresizedAppInventory: a page inventory decoded over a pooled buffer (a stale one,
// its earlier rows longer than the answer's) is the answer encoding/json reads, in
// every shape the answer can take.
func TestPresizedAppInventory(t *testing.T) {
	rows := `[{"facet":["1","h","2"],"lastSeen":1},{"facet":["3","g","4"],"lastSeen":2}]`
	for _, body := range []string{
		`{"data":{"actor":{"account":{"nrql":{"results":` + rows + `}}}}}`,
		`{"data":{"actor":{"account":{"nrql":{"results":[]}}}}}`,
		`{"data":{"actor":{"account":{"nrql":{"results":null}}}}}`,
		`{"data":{"actor":{"account":{"nrql":null}}}}`,
		`{"data":{"actor":{"account":null}}}`,
		`{"data":{"actor":null}}`,
		`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`,
	} {
		ReleaseInventory(json.RawMessage(strings.Repeat("x", 4096)))
		var got AppInventoryResponse
		err := decodeWith(t, context.Background(), nil, body, &got)
		if err != nil && !strings.Contains(body, `"errors"`) {
			t.Fatal(err)
		}
		if want := reference[AppInventoryResponse](t, body); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: presized %+v, want %+v", body, got.Actor, want.Actor)
		}
	}
}

// TestPresizedFacetsDecodeInPlace: with the hint, a row's facet is decoded into its
// part of the presized buffer (no allocation per row) when the name fits, and into one
// of its own when it does not, reading the same either way.
func TestPresizedFacetsDecodeInPlace(t *testing.T) {
	long := strings.Repeat("Controller/", 4) // 44 bytes: beyond facetRoom
	body := timesliceAnswer(30, 0)
	body = strings.Replace(body, `"facet":"HttpDispatcher"`, `"facet":"`+long+`"`, 1)
	hinted := WithTimesliceRows(context.Background(), 30)
	decodeWith := func(ctx context.Context) *MetricDataResponse {
		var d MetricDataResponse
		presizeTimeslices(ctx, &d, len(body))
		if err := UnmarshalJSON([]byte(body), &wireResponse{Data: &d}); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	rows := decodeWith(hinted).Actor.Account.Q0.Results
	if got := string(rows[0].Facet); got != `"`+long+`"` {
		t.Fatalf("long facet %s", got)
	}
	for i, r := range rows[1:] {
		if string(r.Facet) != `"HttpDispatcher"` || cap(r.Facet) != facetRoom {
			t.Fatalf("row %d: facet %s in a capacity of %d, want in place (%d)", i+1, r.Facet, cap(r.Facet), facetRoom)
		}
	}
	plain := testing.AllocsPerRun(20, func() { decodeWith(context.Background()) })
	sized := testing.AllocsPerRun(20, func() { decodeWith(hinted) })
	if sized > plain-29 {
		t.Errorf("%v allocations decoding 30 rows presized, %v without: a facet per row", sized, plain)
	}
}

// summarized is an outline page whose applications after the first have a summary.
func summarized(page string) string {
	first := strings.Index(page, `"apmSummary":null`) + 1
	return page[:first] + strings.ReplaceAll(page[first:], `"apmSummary":null`,
		`"apmSummary":{"apdexScore":0.9,"errorRate":0.1,"hostCount":2,"instanceCount":3,"webResponseTimeAverage":0.2,"webThroughput":10,"nonWebResponseTimeAverage":0,"nonWebThroughput":0}`)
}

// TestPresizedOutlinesHoldTheirParts: a presized page's applications have their
// settings, summaries, type names, alert severities and languages decoded in place,
// five allocations fewer per application than without the hint, and read the same
// (TestPresizedOutlines).
func TestPresizedOutlinesHoldTheirParts(t *testing.T) {
	body := []byte(summarized(outlinePage(200)))
	req := &gql.Request{}
	decode := func(presize bool) {
		var d AppListResponse
		if presize && !presizeOutlines(req, &d, len(body)) {
			t.Fatal("not presized")
		}
		if err := UnmarshalJSON(body, &wireResponse{Data: &d}); err != nil {
			t.Fatal(err)
		}
	}
	plain := testing.AllocsPerRun(10, func() { decode(false) })
	sized := testing.AllocsPerRun(10, func() { decode(true) })
	if sized > plain-5*200 {
		t.Errorf("%v allocations presized, %v without: parts of the applications allocated one by one", sized, plain)
	}
}
