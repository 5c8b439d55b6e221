package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Explain's survivors of the whole-tree gremlins run of gateway/... at f9be12a (line
// numbers of that commit). Equivalent, so not tested:
//   - explain.go:333:46 CONDITIONALS_BOUNDARY (`i > 0` → `>= 0` before an HTTP
//     version): rest was trimmed of spaces just before, so a space is never at index 0;
//   - explain.go:525:18 CONDITIONALS_BOUNDARY (`w.body.Len() < 64<<10` → `<=`): at
//     exactly 64 KiB the extra turn writes b[:0], nothing.

// TestExplainDeclaredContentTypeMut: a declared Content-Type decides how the body is
// read, as on the gateway (explain.go:132:20 CONDITIONALS_NEGATION, `in.ContentType !=
// ""` → `==`): a form body declared as JSON is refused with the route's 400, and that
// answer's title is shown (explain.go:173:12 CONDITIONALS_BOUNDARY, `status >= 400` →
// `> 400`).
func TestExplainDeclaredContentTypeMut(t *testing.T) {
	g, _ := explainGateway(Config{})
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

// TestExplainDefaultAccountMut: default_account_id scopes a request explained without
// an account, and the explanation says so (explain.go:272:28 CONDITIONALS_NEGATION,
// `g.cfg.DefaultAccountID != 0` → `==`).
func TestExplainDefaultAccountMut(t *testing.T) {
	g, _ := explainGateway(Config{DefaultAccountID: 77})
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
	g, _ = explainGateway(Config{})
	var ve *v2.Error
	if _, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications.json"}); !errors.As(err, &ve) || ve.Status != 422 {
		t.Fatalf("no account: %v, want 422", err)
	}
}

// TestExplainNoRateLimitMut: the dry run has no rate limit, also when the gateway shares
// one through the fleet store (explain.go:283:79 INVERT_NEGATIVES and ARITHMETIC_BASE,
// `RateLimitPerMinute = -1` → `1`: every explanation would count against one key's
// fleet-wide limit of 1 a minute, and the second would be a 429).
func TestExplainNoRateLimitMut(t *testing.T) {
	m := miniredis.RunT(t)
	store, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	g, _ := explainGateway(Config{Store: store, RateLimitPerMinute: 5})
	for i := range 3 {
		x, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications.json", AccountID: 3})
		if err != nil || x.Answer.Status != http.StatusOK {
			t.Fatalf("explanation %d: %+v %v, want the dry run's 200", i+1, x, err)
		}
	}
}

// TestExplainWithoutTranslatorMut: a gateway made without a translator explains with a
// new one (explain.go:286:10 CONDITIONALS_NEGATION, `g.tr != nil` → `==`: the dry run
// would call DryRun on the nil translator and panic).
func TestExplainWithoutTranslatorMut(t *testing.T) {
	g := New(Config{Now: func() time.Time { return explainClock }}, nil, zap.NewNop())
	x, err := g.Explain(context.Background(), ExplainRequest{Line: "GET /v2/applications/5.json", AccountID: 3})
	if err != nil || x.Route != "applications.show" || len(x.Calls) == 0 {
		t.Fatalf("%+v %v", x, err)
	}
}

// TestQueryTextsHeaderMut: variable definitions are read only from the document's
// header, before its first '{' (explain.go:390:41 CONDITIONALS_NEGATION, `i >= 0` → `<
// 0`: the whole document would be read; CONDITIONALS_BOUNDARY, `>` 0: a document that
// opens with '{' would be read whole). Text in the selection set that looks like a
// definition ("$b: Nrql" inside a string argument) is not one.
func TestQueryTextsHeaderMut(t *testing.T) {
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

// TestErrorTitleXMLMut: the title of an XML error body is the text of its first
// <title> or <error> that holds more than spaces (explain.go:490:10
// CONDITIONALS_NEGATION, `err != nil` → `==`: every XML body would have no title;
// :497:44, `s != ""` → `==`: the spaces before a nested <title> would be the title;
// :497:57, `in == "title"` → `!=`; :497:74, `in == "error"` → `!=`).
func TestErrorTitleXMLMut(t *testing.T) {
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

// TestCaptureWriterBoundMut: the dry run keeps at most 64 KiB of the answer, also over
// several writes (explain.go:526:37 ARITHMETIC_BASE and INVERT_NEGATIVES, `64<<10 -
// w.body.Len()` → `+`), and reports every byte written.
func TestCaptureWriterBoundMut(t *testing.T) {
	w := &captureWriter{header: http.Header{}}
	for _, n := range []int{60 << 10, 10 << 10, 1} {
		if got, err := w.Write(bytes.Repeat([]byte("a"), n)); got != n || err != nil {
			t.Fatalf("Write of %d bytes = %d, %v", n, got, err)
		}
	}
	if w.body.Len() != 64<<10 || w.status != http.StatusOK {
		t.Fatalf("kept %d bytes, status %d; want 65536, 200", w.body.Len(), w.status)
	}
}

// TestExplainLinkAccountMut: a sample link names the account only when one is known
// (explain_samples.go:109:13 CONDITIONALS_BOUNDARY, `account > 0` → `>= 0`).
func TestExplainLinkAccountMut(t *testing.T) {
	if link := explainLink("applications.list", 0); link == "" || strings.Contains(link, "account=") {
		t.Fatalf("link without an account: %q", link)
	}
	if link := explainLink("applications.list", 1); !strings.HasSuffix(link, "&account=1") {
		t.Fatalf("link for account 1: %q", link)
	}
}

// TestExplainEndpointBoundsMut: /v2bridge/explain's account and body bounds (f9be12a):
//   - explain.go:562:82 CONDITIONALS_BOUNDARY (`in.AccountID <= 0` → `< 0`): account=0 is
//     not an account id;
//   - explain.go:568:65 ARITHMETIC_BASE (`MaxBodyBytes+1` → `-1`): a body over the bound is
//     a 413, not explained cut;
//   - explain.go:573:20 CONDITIONALS_BOUNDARY (`> MaxBodyBytes` → `>=`): a body of exactly
//     the bound is explained.
func TestExplainEndpointBoundsMut(t *testing.T) {
	const max = 64
	g, _ := explainGateway(Config{ReportToken: "admin", MaxBodyBytes: max})
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

// TestExplainEndpointLogsBugsMut: an explanation that fails with a 500 (a gateway bug:
// here the dry run panics) is logged, a refused request (4xx) is not
// (explain.go:581:43 CONDITIONALS_NEGATION, `ve.Status >= 500` → `< 500`, and
// CONDITIONALS_BOUNDARY, `>= 500` → `> 500`).
func TestExplainEndpointLogsBugsMut(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := &refusingClient{}
	// The translator keeps its own clock; the gateway's, read when a deployment is
	// received, panics.
	tr := translate.New(c, translate.Options{Now: func() time.Time { return explainClock }})
	g := New(Config{ReportToken: "admin", Now: func() time.Time { panic("clock") }}, tr, zap.New(core))
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
