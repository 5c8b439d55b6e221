package migrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
)

func init() {
	// -update rewrites the golden files (registered here unless another test file of
	// the package already did).
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// refusingClient stands for the NerdGraph transport: explain must never reach it.
type refusingClient struct{ calls atomic.Int64 }

func (c *refusingClient) MakeRequest(context.Context, *gql.Request, *gql.Response) error {
	c.calls.Add(1)
	return errors.New("explain reached the NerdGraph transport")
}

var explainClock = time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)

// pilotGateway is a migration pilot and the gateway wired to it, as cmd/v2bridge
// wires them.
type pilotGateway struct {
	*Pilot
	gw *gateway.Gateway
}

// Handler is the gateway's root handler.
func (p pilotGateway) Handler() http.Handler { return p.gw.Handler() }

// wired builds a pilot from mc (its body bound and clock the gateway's) and the
// gateway of gc over tr, wired to it.
func wired(gc gateway.Config, mc Config, tr *translate.Translator, log *zap.Logger) pilotGateway {
	mc.MaxBodyBytes, mc.Now = gc.MaxBodyBytes, gc.Now
	p := New(mc, log)
	p.Wire(&gc)
	return pilotGateway{Pilot: p, gw: gateway.New(gc, tr, log)}
}

// explainGateway is a gateway wired to a pilot (mc) whose translator's transport
// counts what reaches it.
func explainGateway(cfg gateway.Config, mc Config) (pilotGateway, *refusingClient) {
	c := &refusingClient{}
	cfg.Now = func() time.Time { return explainClock }
	tr := translate.New(c, translate.Options{Now: cfg.Now})
	return wired(cfg, mc, tr, zap.NewNop()), c
}

// TestExplainEveryRoute explains the sample request of every route of the table: a
// translated route shows at least one NerdGraph operation, a retired or unsupported
// one its 501/410 answer and note, and nothing reaches the transport.
func TestExplainEveryRoute(t *testing.T) {
	g, client := explainGateway(gateway.Config{}, Config{})
	for _, rt := range gateway.Routes() {
		t.Run(rt.Name, func(t *testing.T) {
			s, ok := SampleRequest(rt.Name)
			if !ok {
				t.Fatal("no sample request")
			}
			x, err := g.Explain(context.Background(), ExplainRequest{Line: s.Line, Body: []byte(s.Body), AccountID: 1000001})
			if err != nil {
				t.Fatalf("%s: %v", s.Line, err)
			}
			if x.Route != rt.Name || x.Fidelity != rt.Fidelity || x.Note != rt.Note {
				t.Fatalf("%s explained as route %q (%s), want %q (%s)", s.Line, x.Route, x.Fidelity, rt.Name, rt.Fidelity)
			}
			if rt.Retired != nil {
				if len(x.Calls) != 0 || x.Answer.Status != rt.Retired.Status || x.Answer.Title != rt.Retired.Title {
					t.Fatalf("retired route: %d calls, answer %+v, want %d %q", len(x.Calls), x.Answer, rt.Retired.Status, rt.Retired.Title)
				}
				return
			}
			if len(x.Calls) == 0 {
				t.Fatalf("%s: no NerdGraph operation (answer %+v)", s.Line, x.Answer)
			}
			if x.Answer.Status >= 500 {
				t.Fatalf("%s: dry run answered %+v", s.Line, x.Answer)
			}
			// Operations a route makes that its Operations list (the usage report's
			// migration target) does not name: the host name behind a host id that is not
			// cached, and the key transaction list behind a cold show.
			declared := map[string]bool{}
			switch rt.Name {
			case "application_hosts.metrics", "application_hosts.metric_data":
				declared["AppHosts"] = true
			case "key_transactions.show":
				declared["KeyTransactionSearch"] = true
			}
			for _, op := range rt.Operations {
				declared[op] = true
			}
			for _, c := range x.Calls {
				if c.Document == "" || c.Kind == "" {
					t.Errorf("step %d (%s) lacks its document or kind", c.Step, c.Operation)
				}
				if !declared[c.Operation] {
					t.Errorf("step %d: %s is not among the route's Operations %v", c.Step, c.Operation, rt.Operations)
				}
			}
			if x.Account == nil || x.Account.ID != 1000001 {
				t.Errorf("account %+v", x.Account)
			}
		})
	}
	if n := client.calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the NerdGraph transport", n)
	}
}

// TestExplainGolden pins the explanation of representative requests (-update rewrites
// testdata/explain/).
func TestExplainGolden(t *testing.T) {
	g, client := explainGateway(gateway.Config{}, Config{})
	tests := []struct {
		name string
		in   ExplainRequest
	}{
		{"metric_data", ExplainRequest{Line: "GET /v2/applications/123/metrics/data.json?names[]=HttpDispatcher&values[]=call_count", AccountID: 1000001}},
		{"applications_update", ExplainRequest{Line: "PUT /accounts/1000001/v2/applications/123.json",
			Body: []byte(`{"application":{"settings":{"app_apdex_threshold":0.5}}}`)}},
		{"deployments_create", ExplainRequest{Line: "POST /v2/applications/123/deployments.json", AccountID: 1000001,
			Body: []byte(`{"deployment":{"revision":"v1.2.3","user":"ci"}}`)}},
		{"nrql_condition_create", ExplainRequest{Line: "POST /v2/alerts_nrql_conditions/policies/1001.json", AccountID: 1000001,
			Body: []byte(`{"nrql_condition":{"type":"static","name":"Slow","terms":[{"duration":"5","operator":"above","threshold":"1","time_function":"all"}],` +
				`"nrql":{"query":"SELECT average(duration) FROM Transaction WHERE appName = 'O''Brien'"}}}`)}},
		{"applications_list", ExplainRequest{Line: "GET /v2/applications.json", AccountID: 1000001}},
		{"metric_data_hostile_name", ExplainRequest{Line: "GET /v2/applications/123/metrics/data.json?names[]=Custom/x')%20OR%20appId%20>%200%20--&values[]=average_value", AccountID: 1000001}},
		{"servers_retired", ExplainRequest{Line: "GET /v2/servers.json"}},
		// Two round trips: the second is made after the first's empty answer.
		{"key_transaction_show", ExplainRequest{Line: "GET /v2/key_transactions/123.json", AccountID: 1000001}},
		// The read finds no policy (a record is absent from an empty answer), so the
		// delete is not made.
		{"policy_delete", ExplainRequest{Line: "DELETE /v2/alerts_policies/1001.json", AccountID: 1000001}},
		{"metric_data_missing_names", ExplainRequest{Line: "GET /v2/applications/123/metrics/data.json", AccountID: 1000001}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := g.Explain(context.Background(), tt.in)
			if err != nil {
				t.Fatal(err)
			}
			// The note is the route table's (TestExplainEveryRoute holds them equal); the
			// golden file names it so that a reworded note does not stale it.
			if rt, _ := routeNamed(x.Route); x.Note != rt.Note || x.Note == "" {
				t.Fatalf("note %q, want the route's %q", x.Note, rt.Note)
			}
			x.Note = "(the " + x.Route + " route's Note in gateway.Routes)"
			got, err := x.JSON()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "explain", tt.name+".golden.json")
			if updating() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s differs from the golden file:\n%s", tt.name, got)
			}
		})
	}
	if n := client.calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the NerdGraph transport", n)
	}
}

func TestExplainNRQLAndSearchTexts(t *testing.T) {
	g, _ := explainGateway(gateway.Config{}, Config{})
	x, err := g.Explain(context.Background(), ExplainRequest{AccountID: 7,
		Line: "GET /v2/applications/123/metrics/data.json?names[]=HttpDispatcher&names[]=Errors/all&values[]=call_count"})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Calls) != 1 || x.Calls[0].Operation != "MetricData" || len(x.Calls[0].NRQL) == 0 {
		t.Fatalf("calls %+v", x.Calls)
	}
	// Of the four NRQL variables MetricData sends, the ones its @include leaves out
	// are not run and not listed.
	if n := len(x.Calls[0].NRQL); n != 1 {
		t.Errorf("%d NRQL queries listed for one range of two names, want 1: %q", n, x.Calls[0].NRQL)
	}
	for _, q := range x.Calls[0].NRQL {
		if !strings.Contains(q, "SELECT") || !strings.Contains(q, "FROM Metric") || !strings.Contains(q, "'Errors/all'") {
			t.Errorf("not the NRQL query of the metrics: %q", q)
		}
	}
	x, err = g.Explain(context.Background(), ExplainRequest{AccountID: 7, Line: "GET /v2/applications.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Calls) != 1 || len(x.Calls[0].EntitySearch) != 2 || x.Calls[0].EntitySearch[0] != "domain = 'APM' AND type = 'APPLICATION' AND accountId = 7" ||
		len(x.Calls[0].NRQL) != 1 {
		t.Fatalf("entity searches and inventory NRQL of the list: %+v", x.Calls)
	}
	// An alert condition's NRQL travels inside its input object.
	nrql, _ := queryTexts("mutation M($accountId: Int!, $condition: AlertsNrqlConditionStaticInput!) {x}",
		json.RawMessage(`{"accountId":1,"condition":{"name":"a","nrql":{"query":"SELECT 1 FROM T"}}}`))
	if len(nrql) != 1 || nrql[0] != "SELECT 1 FROM T" {
		t.Fatalf("nested nrql: %q", nrql)
	}
	// A deployment names its entity with an entity search inside the event.
	x, err = g.Explain(context.Background(), ExplainRequest{AccountID: 7, Line: "POST /deployments.xml", Body: []byte("deployment[app_name]=Check'out")})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Calls) != 1 || len(x.Calls[0].EntitySearch) != 1 || x.Calls[0].EntitySearch[0] != `domain = 'APM' AND type = 'APPLICATION' AND accountId = 7 AND name = 'Check\'out'` {
		t.Fatalf("entity search of the deployment: %+v", x.Calls)
	}
}

func TestExplainErrors(t *testing.T) {
	g, client := explainGateway(gateway.Config{}, Config{})
	tests := []struct {
		name   string
		in     ExplainRequest
		status int
		title  string
	}{
		{"empty", ExplainRequest{}, 400, "METHOD /v2/"},
		{"no path", ExplainRequest{Line: "GET"}, 400, "METHOD /v2/"},
		{"bad method", ExplainRequest{Line: "FETCH /v2/applications.json"}, 400, "unknown method"},
		{"relative path", ExplainRequest{Line: "GET v2/applications.json"}, 400, "must start with /"},
		{"no route", ExplainRequest{Line: "GET /v2/nothing.json", AccountID: 1}, 404, "No route"},
		{"method not allowed", ExplainRequest{Line: "PATCH /v2/applications.json", AccountID: 1}, 405, "not allowed"},
		{"no account", ExplainRequest{Line: "GET /v2/applications.json"}, 422, "Name the account"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := g.Explain(context.Background(), tt.in)
			var ve *restv2.Error
			if !errors.As(err, &ve) || ve.Status != tt.status || !strings.Contains(ve.Title, tt.title) {
				t.Fatalf("got %v, want %d %q", err, tt.status, tt.title)
			}
		})
	}
	// With unmatched_passthrough, a /v2 path of no route is forwarded, not refused.
	gp, _ := explainGateway(gateway.Config{UnmatchedPassthrough: true}, Config{})
	x, err := gp.Explain(context.Background(), ExplainRequest{Line: "GET /v2/alerts_workflows.json", AccountID: 1})
	if err != nil || x.Route != "unmatched" || x.Mode != gateway.ModePassthrough || len(x.Calls) != 0 || !strings.Contains(x.ModeNote, gateway.RESTEndpointUS) {
		t.Fatalf("%+v %v", x, err)
	}
	// A full URL and an HTTP version are accepted.
	x, err = g.Explain(context.Background(), ExplainRequest{Line: "get https://api.newrelic.com/v2/applications/5.json HTTP/1.1", AccountID: 3})
	if err != nil || x.Route != "applications.show" || x.Request != "GET /v2/applications/5.json" {
		t.Fatalf("%+v %v", x, err)
	}
	if n := client.calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the NerdGraph transport", n)
	}
}

func TestExplainEndpoint(t *testing.T) {
	const legacy = "0123456789abcdef0123456789abcdef0123456789abcdef"
	g, client := explainGateway(gateway.Config{Keys: gateway.KeyMap{translate.HashKey(legacy): {UserKey: "NRAK-MAPPED", AccountID: 4242}}, Modes: map[string]gateway.Mode{"applications.show": gateway.ModePassthrough}}, Config{ReportToken: "admin"})
	h := g.Handler()
	do := func(method, target, token, key, body string) (int, []byte) {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		if key != "" {
			r.Header.Set("X-Api-Key", key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.Bytes()
	}
	q := func(line string) string { return "/v2bridge/explain?request=" + url.QueryEscape(line) }
	title := func(b []byte) string {
		var e struct{ Error struct{ Title string } }
		_ = json.Unmarshal(b, &e)
		return e.Error.Title
	}

	if code, b := do("GET", q("GET /v2/applications.json"), "", "", ""); code != 401 || title(b) == "" {
		t.Fatalf("no token: %d %s", code, b)
	}
	if code, _ := do("GET", q("GET /v2/applications.json"), "wrong", "", ""); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	for _, c := range []struct {
		target string
		status int
	}{
		{"/v2bridge/explain", 400},
		{"/v2bridge/explain?request=%zz", 400},
		{q("GET /v2/applications.json") + "&account=x", 400},
		{q("GET /v2/applications.json") + "&account=-1", 400},
		{q("GET /v2/nope.json") + "&account=1", 404},
		{q("GET /v2/applications.json"), 422},
	} {
		code, b := do("GET", c.target, "admin", "", "")
		if code != c.status || title(b) == "" {
			t.Errorf("%s: %d %s, want %d with a v2 error body", c.target, code, b, c.status)
		}
	}
	if code, _ := do("DELETE", q("GET /v2/applications.json"), "admin", "", ""); code != 405 {
		t.Errorf("DELETE: %d", code)
	}

	// The caller's legacy key finds its account in the key map and goes nowhere else.
	code, b := do("GET", q("GET /v2/applications/123.json"), "admin", legacy, "")
	if code != 200 {
		t.Fatalf("%d %s", code, b)
	}
	var x Explanation
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	if x.Account == nil || x.Account.ID != 4242 || x.Mode != gateway.ModePassthrough || x.ModeNote == "" || len(x.Calls) != 1 {
		t.Fatalf("%s", b)
	}
	if bytes.Contains(b, []byte(legacy)) || bytes.Contains(b, []byte("NRAK-MAPPED")) {
		t.Fatal("a key reached the explanation")
	}
	// A write's body as the POST body; the mutation is shown, never sent.
	code, b = do("POST", q("POST /v2/applications/123/deployments.json")+"&account=9", "admin", "",
		`{"deployment":{"revision":"r1"}}`)
	if code != 200 || !bytes.Contains(b, []byte(`"kind": "mutation"`)) || !bytes.Contains(b, []byte(`r1`)) {
		t.Fatalf("%d %s", code, b)
	}
	if n := client.calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the NerdGraph transport", n)
	}

	// Disabled without an admin token.
	g2, _ := explainGateway(gateway.Config{}, Config{})
	r := httptest.NewRequest("GET", q("GET /v2/applications.json"), nil)
	w := httptest.NewRecorder()
	g2.Handler().ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Fatalf("disabled: %d", w.Code)
	}
}

// BenchmarkExplain: one explanation builds its own dry-run gateway (route table and
// cold translator), which is most of its cost.
func BenchmarkExplain(b *testing.B) {
	g, _ := explainGateway(gateway.Config{}, Config{})
	in := ExplainRequest{Line: "GET /v2/applications/123/metrics/data.json?names[]=HttpDispatcher&values[]=call_count", AccountID: 1}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := g.Explain(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzExplain: any request line and body explains or is refused with a client error;
// never a panic, a 500 or a call to the transport.
func FuzzExplain(f *testing.F) {
	for _, rt := range gateway.Routes() {
		if s, ok := SampleRequest(rt.Name); ok {
			f.Add(s.Line, s.Body)
		}
	}
	f.Add("GET /accounts/0/v2/applications.json", "")
	f.Add("PUT /v2/alerts_nrql_conditions/1.json", `{"nrql_condition":{"type":"baseline"}}`)
	g, client := explainGateway(gateway.Config{DefaultAccountID: 1}, Config{})
	f.Fuzz(func(t *testing.T, line, body string) {
		x, err := g.Explain(context.Background(), ExplainRequest{Line: line, Body: []byte(body)})
		var ve *restv2.Error
		switch {
		case err != nil && (!errors.As(err, &ve) || ve.Status >= 500):
			t.Fatalf("%q %q: %v", line, body, err)
		case err == nil && x.Answer.Status >= 500 && x.Fidelity != gateway.Unsupported:
			t.Fatalf("%q %q: dry run answered %+v", line, body, x.Answer)
		}
		if n := client.calls.Load(); n != 0 {
			t.Fatalf("%d calls reached the transport", n)
		}
	})
}

// TestExplainDeclaredContentType: a declared Content-Type decides how the body is
// read, as on the gateway: a form body declared as JSON is refused with the route's
// 400, and that answer's title is shown (400 included).
func TestExplainDeclaredContentType(t *testing.T) {
	g, _ := explainGateway(gateway.Config{}, Config{})
	const line, form = "POST /v2/applications/123/deployments.json", "deployment[revision]=r9"
	x, err := g.Explain(context.Background(), ExplainRequest{Line: line, Body: []byte(form), AccountID: 9})
	if err != nil || len(x.Calls) != 1 || x.Calls[0].Kind != "mutation" {
		t.Fatalf("undeclared form body: %+v %v, want its mutation", x, err)
	}
	x, err = g.Explain(context.Background(), ExplainRequest{Line: line, Body: []byte(form), ContentType: "application/json", AccountID: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Calls) != 0 || x.Answer.Status != http.StatusBadRequest || x.Answer.Title == "" {
		t.Fatalf("form body declared as JSON: calls %+v, answer %+v; want no call and a 400 with its title", x.Calls, x.Answer)
	}
}

// TestExplainDefaultAccount: default_account_id scopes a request explained without
// an account, and the explanation says so.
func TestExplainDefaultAccount(t *testing.T) {
	g, _ := explainGateway(gateway.Config{DefaultAccountID: 77}, Config{})
	x, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications.json"})
	if err != nil {
		t.Fatal(err)
	}
	if x.Account == nil || x.Account.ID != 77 || x.Account.Source != "default_account_id" {
		t.Fatalf("account %+v, want 77 from default_account_id", x.Account)
	}
	if !strings.Contains(strings.Join(x.Notes, "\n"), "A key that reaches one account") {
		t.Errorf("notes %q lack the default account's caveat", x.Notes)
	}
	// Without a default, the request names no account: 422.
	g, _ = explainGateway(gateway.Config{}, Config{})
	var ve *restv2.Error
	if _, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications.json"}); !errors.As(err, &ve) || ve.Status != 422 {
		t.Fatalf("no account: %v, want 422", err)
	}
}

// TestExplainNoRateLimit: the dry run has no rate limit, also when the gateway shares
// one through the fleet store (with one, every explanation would count against one
// key's fleet-wide limit, and a later one would be a 429).
func TestExplainNoRateLimit(t *testing.T) {
	m := miniredis.RunT(t)
	store, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	g, _ := explainGateway(gateway.Config{Store: store, RateLimitPerMinute: 5}, Config{})
	for i := range 3 {
		x, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications.json", AccountID: 3})
		if err != nil || x.Answer.Status != http.StatusOK {
			t.Fatalf("explanation %d: %+v %v, want the dry run's 200", i+1, x, err)
		}
	}
}

// TestExplainWithoutTranslator: a gateway made without a translator explains with a
// new one.
func TestExplainWithoutTranslator(t *testing.T) {
	g := wired(gateway.Config{Now: func() time.Time { return explainClock }}, Config{}, nil, zap.NewNop())
	x, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications/5.json", AccountID: 3})
	if err != nil || x.Route != "applications.show" || len(x.Calls) == 0 {
		t.Fatalf("%+v %v", x, err)
	}
}

// TestQueryTextsHeader: variable definitions are read only from the document's
// header, before its first '{' (also when the document opens with '{'). Text in the
// selection set that looks like a definition ("$b: Nrql" inside a string argument) is
// not one.
func TestQueryTextsHeader(t *testing.T) {
	vars := json.RawMessage(`{"a":"SELECT 1 FROM A","b":"SELECT 1 FROM B"}`)
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"header", `query Q($a: Nrql!) { x(query: $a) { y(note: "$b: Nrql") } }`, []string{"SELECT 1 FROM A"}},
		{"anonymous", `{ y(note: "$b: Nrql") }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nrql, search := queryTexts(tt.doc, vars)
			if !reflect.DeepEqual(nrql, tt.want) || search != nil {
				t.Fatalf("queryTexts = %q, %q; want %q, none", nrql, search, tt.want)
			}
		})
	}
}

// TestErrorTitleXML: the title of an XML error body is the text of its first
// <title> or <error> that holds more than spaces (not the spaces before a nested
// <title>).
func TestErrorTitleXML(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"json", `{"error":{"title":"J"}}`, "J"},
		{"v0 error", `<?xml version="1.0"?><errors><error>Legacy title</error></errors>`, "Legacy title"},
		{"nested title", "<error>\n  <title>Nested title</title>\n</error>", "Nested title"},
		{"title after other text", "<response><message>not this</message><title>T</title></response>", "T"},
		{"only spaces", "<error>   </error>", ""},
		{"not xml", "plain text", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errorTitle([]byte(tt.body)); got != tt.want {
				t.Fatalf("errorTitle(%q) = %q, want %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestCaptureWriterBound: the dry run keeps at most 64 KiB of the answer (its
// gateway.Recorder), also over several writes, and reports every byte written. At exactly 64 KiB a further write
// keeps nothing whether the bound is strict or not. (parseRequestLine cuts an HTTP
// version only after a space, which is never at index 0: the line is trimmed first.)
func TestCaptureWriterBound(t *testing.T) {
	w := gateway.NewRecorder(64 << 10)
	for _, n := range []int{60 << 10, 10 << 10, 1} {
		if got, err := w.Write(bytes.Repeat([]byte("a"), n)); got != n || err != nil {
			t.Fatalf("Write of %d bytes = %d, %v", n, got, err)
		}
	}
	if len(w.Body()) != 64<<10 || w.Status() != http.StatusOK {
		t.Fatalf("kept %d bytes, status %d; want 65536, 200", len(w.Body()), w.Status())
	}
}

// TestExplainEndpointBounds: /v2bridge/explain's account and body bounds:
//   - account=0 is not an account id;
//   - a body over the bound is a 413, not explained cut;
//   - a body of exactly the bound is explained.
func TestExplainEndpointBounds(t *testing.T) {
	const max = 64
	g, _ := explainGateway(gateway.Config{MaxBodyBytes: max}, Config{ReportToken: "admin"})
	h := g.Handler()
	target := "/v2bridge/explain?request=" + url.QueryEscape("POST /v2/applications/123/deployments.json")
	body := func(n int) string { // a deployment form body of n bytes
		b := "deployment[revision]="
		return b + strings.Repeat("r", n-len(b))
	}
	tests := []struct {
		name, query, body string
		status            int
	}{
		{"account 0", "&account=0", body(30), http.StatusBadRequest},
		{"account 1", "&account=1", body(30), http.StatusOK},
		{"body at the bound", "&account=1", body(max), http.StatusOK},
		{"body over the bound", "&account=1", body(max + 5), http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, target+tt.query, strings.NewReader(tt.body))
			r.Header.Set("Authorization", "Bearer admin")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.status {
				t.Fatalf("%d %s, want %d", w.Code, w.Body.Bytes(), tt.status)
			}
		})
	}
}

// TestExplainEndpointLogsBugs: an explanation that fails with a 500 (a gateway bug:
// here the dry run panics) is logged, a refused request (4xx) is not.
func TestExplainEndpointLogsBugs(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := &refusingClient{}
	// The translator keeps its own clock; the gateway's, read when a deployment is
	// received, panics.
	tr := translate.New(c, translate.Options{Now: func() time.Time { return explainClock }})
	g := wired(gateway.Config{Now: func() time.Time { panic("clock") }}, Config{ReportToken: "admin"}, tr, zap.New(core))
	h := g.Handler()
	do := func(line string) int {
		r := httptest.NewRequest(http.MethodGet, "/v2bridge/explain?account=1&request="+url.QueryEscape(line), nil)
		r.Header.Set("Authorization", "Bearer admin")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if code := do("GET /v2/nothing.json"); code != http.StatusNotFound {
		t.Fatalf("no route: %d, want 404", code)
	}
	if n := logs.FilterMessage("explain failed").Len(); n != 0 {
		t.Fatalf("a 404 was logged as a failure (%d lines)", n)
	}
	if code := do("POST /v2/applications/123/deployments.json"); code != http.StatusInternalServerError {
		t.Fatalf("panicking dry run: %d, want 500", code)
	}
	if n := logs.FilterMessage("explain failed").Len(); n != 1 {
		t.Fatalf("the 500 was logged %d times, want once", n)
	}
}
