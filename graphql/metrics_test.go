package graphql

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
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
		d.presize(ctx, nil, len(body))
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
