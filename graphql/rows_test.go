package graphql

import (
	"context"
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

// metricDataOver decodes body as the MetricData answer of a request made with ctx.
func metricDataOver(t *testing.T, ctx context.Context, body string) *MetricDataResponse {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	var data MetricDataResponse
	err := NewClient(srv.URL, Options{MaxAttempts: 1}).MakeRequest(ctx,
		&gql.Request{OpName: "MetricData", Query: "query MetricData { x }"}, &gql.Response{Data: &data})
	if err != nil {
		t.Fatal(err)
	}
	return &data
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
