package main

import (
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// The decoder evaluation: the NerdGraph answers the gateway decodes most
// (an application list page of 200 and metric data of 3 names × 30 slices), decoded
// into the generated response types by each candidate, side by side in one run:
//
//	go test -run '^$' -bench Decode -benchmem ./tests/bench
//	GOEXPERIMENT=jsonv2 go test -run '^$' -bench Decode -benchmem ./tests/bench   (adds encoding/json/v2)
//
// TestDecodersAgree is the correctness half: every candidate must decode the recorded
// answers and the corpus below to exactly what encoding/json decodes, and refuse what
// it refuses.

// wire is graphql.Client's envelope (client.go wireResponse).
type wire struct {
	Data   any               `json:"data"`
	Errors []ng.GraphQLError `json:"errors"`
}

type decoder struct {
	name      string
	unmarshal func([]byte, any) error
}

// decoders are the candidates; decode_jsonv2_test.go adds encoding/json/v2 when built
// with GOEXPERIMENT=jsonv2.
var decoders = []decoder{
	{"encoding-json", stdjson.Unmarshal},
	{"goccy-go-json", gojson.Unmarshal},
	{"sonic-std", sonic.ConfigStd.Unmarshal},
}

const (
	listPath   = "/v2/applications.json"
	metricPath = "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"
)

type answerCase struct {
	name string
	path string
	new  func() any
}

var answers = []answerCase{
	{"AppList200", listPath, func() any { return &ng.AppListResponse{} }},
	{"MetricData3x30", metricPath, func() any { return &ng.MetricDataResponse{} }},
}

func BenchmarkDecode(b *testing.B) {
	for _, a := range answers {
		body := record(b, a.path)
		for _, d := range decoders {
			b.Run(a.name+"/"+d.name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					w := wire{Data: a.new()}
					if err := d.unmarshal(body, &w); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// corpus is JSON the decoders must treat as encoding/json does: escapes, unicode,
// nulls, numbers at the edges, duplicate and unknown keys, and malformed input.
var corpus = []string{
	`{"data":{"actor":{"entitySearch":{"count":1,"results":{"nextCursor":null,"entities":[{"__typename":"ApmApplicationEntityOutline","guid":"MXxBUE18QVBQTElDQVRJT058MQ","name":"a\"b\\c\u00e9\ud83d\ude00","accountId":1,"applicationId":1,"reporting":true,"language":"java"}]}}}}}`,
	`{"data":{"actor":{"entitySearch":{"count":null,"results":{"entities":[{"name":null,"settings":null,"apmSummary":{"errorRate":1e-7,"webThroughput":1.7976931348623157e308}}]}}}}}`,
	`{"data":{"actor":{"entitySearch":{"count":2,"count":3,"unknown":{"deep":[1,{"x":[]}]}}}}}`,
	`{"data":null,"errors":[{"message":"boom","path":["actor","account"],"extensions":{"errorClass":"TIMEOUT"}}]}`,
	`{"data":{"actor":{"account":{"inventory":{"results":[{"facet":[1,"h\u00f6st",2],"lastSeen":1.7e12}]}}}}}`,
	`{"data":{"actor":{"entitySearch":{"count":"1"}}}}`,
	`{"data":{"actor":{"entitySearch":{"count":1.5}}}}`,
	`{"data":{"actor":{"entitySearch":{"count":99999999999999999999}}}}`,
	`{"data":{"actor":{"entitySearch":{"results":{"entities":[{"name":"\x80"}]}}}}}`,
	`{"data":{"actor":{"entitySearch":{"results":{"entities":[{"name":"tab	inside"}]}}}}}`,
	`{"data":{"actor":{}}`,
	`{"data":{"actor":{}}} trailing`,
	`{"data":{"actor":{"entitySearch":{"results":{"entities":[{"reporting":tru}]}}}}}`,
	`[]`,
	``,
	"{\"data\":{\"actor\":{\"entitySearch\":{\"results\":{\"entities\":[{\"name\":\"bad \x80 byte\"}]}}}}}",
}

func TestDecodersAgree(t *testing.T) {
	type input struct {
		name string
		body []byte
		new  func() any
	}
	var inputs []input
	for _, a := range answers {
		inputs = append(inputs, input{a.name, record(t, a.path), a.new})
	}
	for i, c := range corpus {
		inputs = append(inputs, input{fmt.Sprintf("corpus/%02d", i), []byte(c), func() any { return &ng.AppListResponse{} }})
	}
	for _, in := range inputs {
		want := wire{Data: in.new()}
		wantErr := stdjson.Unmarshal(in.body, &want)
		for _, d := range decoders[1:] {
			t.Run(in.name+"/"+d.name, func(t *testing.T) {
				got := wire{Data: in.new()}
				err := d.unmarshal(in.body, &got)
				if (err != nil) != (wantErr != nil) {
					t.Fatalf("error = %v, encoding/json's = %v", err, wantErr)
				}
				if wantErr == nil && !reflect.DeepEqual(got, want) {
					t.Fatalf("decoded differently from encoding/json:\n got %s\nwant %s", dump(got), dump(want))
				}
			})
		}
	}
}

func dump(v any) string {
	b, _ := stdjson.Marshal(v)
	return string(b)
}
