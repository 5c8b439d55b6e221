package docrequests

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

type answer struct {
	status int
	body   []byte
}

func send(t *testing.T, h *harness.Env, method, path, body string, hdr ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, h.Gateway.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, b}
}

func count(t *testing.T, a answer, key string) int {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(a.body, &m); err != nil {
		t.Fatalf("%d %s", a.status, a.body)
	}
	var items []json.RawMessage
	_ = json.Unmarshal(m[key], &items)
	return len(items)
}

const key = harness.Key1

func TestDocumentedRequestShapes(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	form := "application/x-www-form-urlencoded"
	base := send(t, h, "GET", "/v2/applications.json?filter%5Bname%5D=checkout", "", "X-Api-Key", key)
	want := count(t, base, "applications")
	if want == 0 {
		t.Fatal("demo data has no checkout app")
	}
	tests := []struct {
		name, method, path, body string
		hdr                      []string
	}{
		{"curl -X GET -d form body", "GET", "/v2/applications.json", "filter[name]=checkout", []string{"Content-Type", form}},
		{"form body without content type", "GET", "/v2/applications.json", "filter%5Bname%5D=checkout", nil},
		{"raw brackets in the query", "GET", "/v2/applications.json?filter[name]=checkout", "", nil},
		{"duplicated query keys (params re-sent on the next page)", "GET", "/v2/applications.json?filter[name]=checkout&filter[name]=checkout&page=1&page=1", "", nil},
		{"Content-Type JSON on a GET without body", "GET", "/v2/applications.json?filter[name]=checkout", "", []string{"Content-Type", "application/json"}},
		{"Ansible: POST with a form body", "POST", "/v2/applications.json", "filter[name]=checkout", []string{"Content-Type", form}},
		{"Api-Key and X-Api-Key both", "GET", "/v2/applications.json?filter[name]=checkout", "", []string{"Api-Key", key}},
		{"lower-case x-api-key", "GET", "/v2/applications.json?filter[name]=checkout", "", []string{"x-api-key", key}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := append([]string{"X-Api-Key", key}, tt.hdr...)
			a := send(t, h, tt.method, tt.path, tt.body, hdr...)
			if a.status != 200 || count(t, a, "applications") != want {
				t.Fatalf("%d, %d apps (want %d): %.200s", a.status, count(t, a, "applications"), want, a.body)
			}
		})
	}
}

func TestDocumentedIDsAndTimes(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	k := []string{"X-Api-Key", key}
	comma := send(t, h, "GET", "/v2/applications.json?filter[ids]=314221522,924224343", "", k...)
	repeated := send(t, h, "GET", "/v2/applications.json?filter%5Bids%5D=314221522&filter%5Bids%5D=924224343", "", k...)
	brackets := send(t, h, "GET", "/v2/applications.json?filter[ids][]=314221522&filter[ids][]=924224343", "", k...)
	for _, a := range []answer{comma, repeated, brackets} {
		if count(t, a, "applications") != 2 {
			t.Fatalf("filter[ids]: %d %s", a.status, a.body)
		}
	}
	// Metric data the way the docs call it: curl -X GET -d with names[] and offsets.
	tests := []struct{ name, body string }{
		{"%2B offset", "names[]=HttpDispatcher&values[]=call_count&from=2026-11-20T13:00:00%2B02:00&to=2026-11-20T13:30:00%2B02:00"},
		{"+ offset decoded to a space", "names[]=HttpDispatcher&from=2026-11-20T13:00:00+02:00&to=2026-11-20T13:30:00+02:00"},
		{"Python str(datetime)", "names[]=HttpDispatcher&from=2026-11-20 11:00:00&to=2026-11-20 11:30:00"},
		{"Python with +00:00 as a space", "names[]=HttpDispatcher&from=2026-11-20 11:00:00+00:00&to=2026-11-20 11:30:00+00:00"},
		{"summarize=false and raw brackets", "names[]=HttpDispatcher&summarize=false&from=2026-11-20T11:00:00Z&to=2026-11-20T11:30:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := send(t, h, "GET", "/v2/applications/314221522/metrics/data.json", tt.body, append(k, "Content-Type", "application/x-www-form-urlencoded")...)
			var md struct {
				MetricData struct {
					From    string
					Found   []string `json:"metrics_found"`
					Metrics []struct{ Timeslices []json.RawMessage }
				} `json:"metric_data"`
			}
			if err := json.Unmarshal(a.body, &md); err != nil || a.status != 200 {
				t.Fatalf("%d %s", a.status, a.body)
			}
			if md.MetricData.From != "2026-11-20T11:00:00+00:00" || len(md.MetricData.Found) != 1 || len(md.MetricData.Metrics[0].Timeslices) != 30 {
				t.Fatalf("from %s, %d slices", md.MetricData.From, len(md.MetricData.Metrics[0].Timeslices))
			}
		})
	}
}
