package sim_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
)

const (
	keyOne   = "NRAK-DEMO-ACCOUNT-1"
	keyTwo   = "NRAK-DEMO-ACCOUNT-2"
	keyMulti = "NRAK-DEMO-MULTI"
	acctOne  = 1000001
	acctTwo  = 1000002
)

// demoData parses the embedded demo data once per test binary; New copies what it
// needs, so tests share it read-only.
var demoData = sync.OnceValues(func() (*sim.Data, error) { return sim.ParseData(configs.DemoData()) })

func loadDemo(t testing.TB) *sim.Data {
	t.Helper()
	d, err := demoData()
	if err != nil {
		t.Fatalf("demo data: %v", err)
	}
	return d
}

// harness is a simulator behind a real HTTP server.
type harness struct {
	sim *sim.Server
	url string
}

func newHarness(t testing.TB, data *sim.Data, opts ...sim.Option) *harness {
	t.Helper()
	s := sim.New(data, opts...)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &harness{sim: s, url: ts.URL + sim.Path}
}

func demoHarness(t testing.TB, opts ...sim.Option) *harness {
	t.Helper()
	return newHarness(t, loadDemo(t), opts...)
}

type gqlErr struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type gqlResp struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlErr        `json:"errors"`
}

// post sends one GraphQL request as a plain JSON POST and returns the status and
// raw body.
func (h *harness) post(t testing.TB, key, query string, vars map[string]any) (int, []byte) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return h.postRaw(t, key, body)
}

func (h *harness) postRaw(t testing.TB, key string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("API-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// query posts a query that must succeed at the HTTP level and decodes data into out
// (when non-nil); it returns the GraphQL errors.
func (h *harness) query(t testing.TB, key, query string, vars map[string]any, out any) []gqlErr {
	t.Helper()
	status, body := h.post(t, key, query, vars)
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var r gqlResp
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	if out != nil && len(r.Data) > 0 {
		if err := json.Unmarshal(r.Data, out); err != nil {
			t.Fatalf("decode data %s: %v", r.Data, err)
		}
	}
	return r.Errors
}

// mustQuery is query with no GraphQL errors allowed.
func (h *harness) mustQuery(t testing.TB, key, query string, vars map[string]any, out any) {
	t.Helper()
	if errs := h.query(t, key, query, vars, out); len(errs) > 0 {
		t.Fatalf("unexpected errors: %+v", errs)
	}
}

func guid(account int, domain, typ string, id int) string {
	return base64.RawStdEncoding.EncodeToString([]byte(strconv.Itoa(account) + "|" + domain + "|" + typ + "|" + strconv.Itoa(id)))
}

func appGUID(account, id int) string { return guid(account, "APM", "APPLICATION", id) }

// apps returns the APM applications of an account in the demo data.
func apps(t testing.TB, d *sim.Data, account int) []sim.APMApplication {
	t.Helper()
	for _, a := range d.Accounts {
		if a.ID == account {
			return a.APMApplications
		}
	}
	t.Fatalf("no account %d", account)
	return nil
}

func findApp(t testing.TB, d *sim.Data, account int, pred func(a sim.APMApplication) bool) sim.APMApplication {
	t.Helper()
	for _, a := range apps(t, d, account) {
		if pred(a) {
			return a
		}
	}
	t.Fatalf("no matching application in account %d", account)
	return sim.APMApplication{}
}

func hasError(errs []gqlErr, class, contains string) bool {
	for _, e := range errs {
		if (class == "" || e.Extensions["errorClass"] == class) && strings.Contains(e.Message, contains) {
			return true
		}
	}
	return false
}
