package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The request line an operator reads carries the query (names and values; never the
// key) and, at debug level, the NerdGraph operations the request made, in order.
func TestRequestLogCarriesQueryAndOperations(t *testing.T) {
	for _, level := range []string{"info", "debug"} {
		t.Run(level, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var out, logs syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--log-level", level}, strings.NewReader(""), &out, &logs)
			}()
			base := waitForBanner(t, &out)
			req, err := http.NewRequest(http.MethodGet, base+"/v2/applications.json?filter%5Bname%5D=checkout&page=1&api_key=NRAK-DEMO-ACCOUNT-1", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			var line map[string]any
			for _, l := range strings.Split(logs.String(), "\n") { // the demo logs in console form: time, level, message, JSON
				var m map[string]any
				if _, fields, ok := strings.Cut(l, "\trequest\t"); ok && json.Unmarshal([]byte(fields), &m) == nil && m["path"] == "/v2/applications.json" {
					line = m
				}
			}
			if line == nil {
				t.Fatalf("no request line:\n%s", logs.String())
			}
			if line["query"] != "filter[name]=checkout&page=1&api_key=[redacted]" {
				t.Errorf("query = %v", line["query"])
			}
			if strings.Contains(logs.String(), "NRAK-DEMO-ACCOUNT-1") {
				t.Error("the log holds the key")
			}
			ops, _ := line["operations"].([]any)
			if level == "info" && ops != nil {
				t.Errorf("operations at info: %v", ops)
			}
			if level == "debug" && (len(ops) == 0 || float64(len(ops)) != line["upstream_calls"]) {
				t.Errorf("operations at debug: %v for %v upstream calls", ops, line["upstream_calls"])
			}
		})
	}
}
