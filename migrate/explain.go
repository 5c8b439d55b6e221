package migrate

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// ExplainRequest is a REST v2 request to explain.
type ExplainRequest struct {
	// Line is the request as "METHOD /v2/...json?..." (a full URL is accepted in place
	// of the path, an HTTP version after it is ignored).
	Line string
	// Body is the body of a write (JSON, or form-encoded like curl -d).
	Body []byte
	// ContentType declares Body's type; empty: told from the body as the gateway does.
	ContentType string
	// AccountID scopes the request. Zero: the /accounts/{id}/v2 path prefix, else the
	// key map's account of Key, else default_account_id.
	AccountID int64
	// Key is the caller's key, used only to find its account in the key map. It is
	// never sent, logged nor shown.
	Key string
}

// Explanation is what a REST v2 request becomes: its route and every NerdGraph round
// trip the gateway would make for it, none of them sent.
type Explanation struct {
	Request  string           `json:"request"`
	Route    string           `json:"route"`
	Fidelity gateway.Fidelity `json:"fidelity"`
	Note     string           `json:"fidelity_note"`
	// Mode is the route's mode on this gateway; explain always shows translate mode's
	// calls, and ModeNote says what passthrough or compare does instead.
	Mode     gateway.Mode    `json:"mode"`
	ModeNote string          `json:"mode_note,omitempty"`
	Account  *ExplainAccount `json:"account,omitempty"`
	// Calls are the NerdGraph round trips in the order the gateway makes them.
	Calls []ExplainCall `json:"nerdgraph_calls"`
	// NotMade are the route's declared operations the dry run did not reach.
	NotMade []ExplainNotMade `json:"not_made,omitempty"`
	Answer  ExplainAnswer    `json:"answer"`
	Notes   []string         `json:"notes"`
}

// ExplainAccount is the account the request is scoped to and where it came from.
type ExplainAccount struct {
	ID     int64  `json:"id"`
	Source string `json:"source"`
}

// ExplainCall is one NerdGraph round trip: the genqlient operation, its document and
// variables as they would be sent, and the NRQL and entity-search texts read from
// the variables.
type ExplainCall struct {
	Step      int             `json:"step"`
	Operation string          `json:"operation"`
	Kind      string          `json:"kind"` // query or mutation
	Document  string          `json:"document"`
	Variables json.RawMessage `json:"variables,omitempty"`
	NRQL      []string        `json:"nrql,omitempty"`
	// EntitySearch are the entity-search query strings (entitySearch(query:)).
	EntitySearch []string `json:"entity_search,omitempty"`
	// Condition says whether the call depends on earlier answers.
	Condition string `json:"condition"`
}

// ExplainNotMade is an operation of the route the dry run did not make: it depends on
// data in earlier answers, or on other parameters or configuration.
type ExplainNotMade struct {
	Operation string `json:"operation"`
	Kind      string `json:"kind"`
	Document  string `json:"document,omitempty"`
	Condition string `json:"condition"`
}

// ExplainAnswer is the v2 answer of the dry run.
type ExplainAnswer struct {
	Status int    `json:"status,omitempty"` // 0: not known (a write)
	Title  string `json:"title,omitempty"`
	Source string `json:"source"`
}

// explainKey stands in for the caller's key inside the dry run: the gateway's pipeline
// requires a key, the Recorder ignores it, and the real key never enters.
const explainKey = "v2bridge-explain-dry-run"

const (
	conditionFirst = "always made for this request (cold caches)"
	conditionAfter = "made after the empty answers of the earlier steps; with data in them this step, or its variables, may differ"
	notMadeWhy     = "not made in the dry run: made only when earlier answers hold data, or for other parameters or configuration"
	answerDryRun   = "dry run: what the gateway answers when every NerdGraph call finds nothing; not an answer from real data"
	answerNoCall   = "the gateway answers this without calling NerdGraph"
	answerWrite    = "not known: explain never sends a write, and the gateway's answer is made from the write's result"
)

// explainer explains REST v2 requests as its gateway answers them, and serves
// /v2bridge/explain behind the report's admin token.
type explainer struct {
	g            *gateway.Gateway
	primaryGraph bool       // compare mode answers from NerdGraph (CompareSettings.PrimaryGraph)
	token        string     // the admin token; empty: /v2bridge/explain is disabled
	gate         *adminGate // checks the token, slowing failed attempts per address (admin.go)
	maxBody      int64      // the bound of a POSTed body to explain
	log          *zap.Logger
}

// Explain translates a REST v2 request as the gateway would, recording each NerdGraph
// operation instead of sending it (graphql.Recorder, which answers every call empty),
// and says what each round trip is. A request that matches no route, or that cannot
// be scoped to an account, is a *restv2.Error; a request the route refuses (bad
// parameters) is explained with that answer. Any other error is a gateway bug.
func (e *explainer) Explain(ctx context.Context, in ExplainRequest) (*Explanation, error) {
	method, target, err := parseRequestLine(in.Line)
	if err != nil {
		return nil, err
	}
	gc := e.g.Config()
	acct, source := e.explainAccount(in, target)
	rec := &ng.Recorder{}
	r, err := http.NewRequestWithContext(ctx, method, "http://v2bridge.explain"+target, bytes.NewReader(in.Body))
	if err != nil {
		return nil, restv2.BadRequest("Invalid request to explain: " + err.Error())
	}
	if in.ContentType != "" {
		r.Header.Set("Content-Type", in.ContentType)
	}
	r.Header.Set("X-Api-Key", explainKey)
	if acct != 0 {
		r.Header.Set("X-Account-Id", strconv.FormatInt(acct, 10))
	}
	cw := gateway.NewRecorder(64 << 10) // enough for an error title; the rest is not shown
	st, err := e.g.DryRun(cw, r, rec)
	if err != nil {
		return nil, fmt.Errorf("explain %s: %w", st.Route, err) // a gateway bug: 500, logged by the caller
	}
	status := cw.Status()
	if status == 0 {
		status = http.StatusOK
	}
	if st.Route == "" { // the router's 404 or 405: nothing to explain
		if status == http.StatusNotFound && gc.UnmatchedPassthrough && strings.Contains(r.URL.Path, "/v2/") {
			return &Explanation{Request: method + " " + target, Route: "unmatched", Fidelity: gateway.Unsupported,
				Note: "no route of the table translates this request", Mode: gateway.ModePassthrough, ModeNote: e.modeNote(gateway.ModePassthrough),
				Calls: []ExplainCall{}, Answer: ExplainAnswer{Source: "the REST API v2's answer, forwarded (unmatched_passthrough)"},
				Notes: []string{"Nothing would be sent to NerdGraph."}}, nil
		}
		return nil, &restv2.Error{Status: status, Title: errorTitle(cw.Body())}
	}
	rt, _ := routeNamed(st.Route)
	calls := rec.Calls()
	if len(calls) > 0 && calls[0].OpName == "Accounts" && acct == 0 {
		return nil, restv2.Unprocessable("Name the account the request is scoped to: " +
			"account=N (v2bridge explain --account N), an /accounts/N/v2/... path, an X-Api-Key the keys: section maps " +
			"to an account (or whose one account this gateway has cached from a recent call), or default_account_id in the configuration")
	}
	x := &Explanation{Request: method + " " + target, Route: rt.Name, Fidelity: rt.Fidelity, Note: rt.Note,
		Mode: gateway.ModeTranslate, Calls: []ExplainCall{}}
	if m := gc.Modes[rt.Name]; m != "" {
		x.Mode = m
	}
	x.ModeNote = e.modeNote(x.Mode)
	x.Answer = ExplainAnswer{Status: status, Source: answerDryRun}
	if status >= 400 {
		x.Answer.Title = errorTitle(cw.Body())
	}
	if rt.Retired != nil {
		x.Answer.Source = answerNoCall
		x.Notes = []string{"NerdGraph has no path for this route: nothing would be sent"}
		return x, nil
	}
	if st.Account != 0 {
		if st.AccountSource == "path" {
			source = "the /accounts/{id}/v2 path prefix"
		}
		x.Account = &ExplainAccount{ID: st.Account, Source: source}
	}
	made := map[string]bool{}
	mutations := false
	for i, c := range calls {
		made[c.OpName] = true
		mutations = mutations || c.Mutation
		x.Calls = append(x.Calls, explainCall(i+1, c))
	}
	for _, op := range rt.Operations {
		if made[op] {
			continue
		}
		text := strings.TrimSpace(operationText(op))
		x.NotMade = append(x.NotMade, ExplainNotMade{Operation: op, Kind: operationKind(text), Document: text, Condition: notMadeWhy})
	}
	if mutations {
		x.Answer = ExplainAnswer{Source: answerWrite}
	}
	x.Notes = explainNotes(x, mutations, st.Degraded)
	return x, nil
}

// explainNotes are the caveats that hold for this explanation.
func explainNotes(x *Explanation, mutations bool, degraded []string) []string {
	notes := []string{"Nothing was sent to NerdGraph: each call was recorded and answered with an empty answer (no data, no errors)."}
	if len(x.Calls) == 0 {
		notes = append(notes, "The gateway answers this request without a NerdGraph call.")
	} else {
		notes = append(notes, "Caches were cold: a live gateway answers repeats of this request from its caches (the cache: settings) with fewer calls, or none.")
	}
	if mutations {
		notes = append(notes, "The mutations above are what the gateway would send; explain never sends a write, so the dry run stops at the first one.")
	}
	if x.Account != nil && x.Account.Source == "default_account_id" {
		notes = append(notes, "A key that reaches one account is scoped to that account instead, after one Accounts round trip (cached for cache.account_ttl).")
	}
	for _, d := range degraded {
		notes = append(notes, "Degraded in the dry run: "+d)
	}
	return notes
}

// modeNote says what a route's non-default mode does instead of the calls explained.
func (e *explainer) modeNote(m gateway.Mode) string {
	rest := e.g.Config().RESTUpstream
	if rest == "" {
		rest = gateway.RESTEndpointUS
	}
	switch m {
	case gateway.ModePassthrough:
		return "this gateway forwards this route unchanged to the REST API v2 at " + rest +
			" and makes none of the NerdGraph calls below; they are what translate mode would send"
	case gateway.ModeCompare:
		side := "the REST API v2 at " + rest
		if e.primaryGraph {
			side = "NerdGraph (the calls below)"
		}
		return "this gateway answers this route from " + side + " and makes the other side's request in the background to compare the answers"
	}
	return ""
}

// explainAccount is the account a request is explained for and its source; 0 when
// none is named (the gateway's pipeline then says whether the route needs one). The
// caller's key is only looked up: in the key map and in the accounts this gateway has
// cached for it, never sent.
func (e *explainer) explainAccount(in ExplainRequest, target string) (int64, string) {
	if strings.HasPrefix(target, "/accounts/") {
		return 0, "" // the path names it; the gateway's pipeline reads it
	}
	if in.AccountID > 0 {
		return in.AccountID, "given with the request to explain"
	}
	if in.Key != "" {
		if id, source := e.g.KeyAccount(in.Key); id != 0 {
			return id, source
		}
	}
	if id := e.g.Config().DefaultAccountID; id != 0 {
		return id, "default_account_id"
	}
	return 0, ""
}

// routeNamed is the route of the table with that name.
func routeNamed(name string) (gateway.Route, bool) {
	for _, rt := range gateway.Routes() {
		if rt.Name == name {
			return rt, true
		}
	}
	return gateway.Route{Name: name}, false
}

// parseRequestLine reads "METHOD /v2/..." into a method and a request target.
func parseRequestLine(line string) (method, target string, err error) {
	bad := func(why string) error {
		return restv2.BadRequest("The request to explain must read \"METHOD /v2/...\" (" + why + ")")
	}
	line = strings.TrimSpace(line)
	method, rest, ok := strings.Cut(line, " ")
	if !ok || line == "" {
		return "", "", bad("no method and path")
	}
	method = strings.ToUpper(method)
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch:
	default:
		return "", "", bad("unknown method " + strconv.Quote(method))
	}
	rest = strings.TrimSpace(rest)
	if i := strings.LastIndexByte(rest, ' '); i > 0 && strings.HasPrefix(rest[i+1:], "HTTP/") {
		rest = strings.TrimSpace(rest[:i])
	}
	if strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") {
		u, err := url.Parse(rest)
		if err != nil {
			return "", "", bad("the URL does not parse")
		}
		rest = u.RequestURI()
	}
	if !strings.HasPrefix(rest, "/") || strings.ContainsAny(rest, " \t\r\n") {
		return "", "", bad("the path must start with / and hold no spaces")
	}
	if _, err := url.ParseRequestURI(rest); err != nil {
		return "", "", bad("the path does not parse")
	}
	return method, rest, nil
}

// Documents' variable definitions and entity searches, to find which variables hold
// NRQL (type Nrql) and entity-search text (entitySearch(query: $x)).
var (
	varDefRe       = regexp.MustCompile(`\$(\w+)\s*:\s*\[?\s*(\w+)`)
	entitySearchRe = regexp.MustCompile(`entitySearch\(\s*query:\s*\$(\w+)`)
	// A field run only when a Boolean variable says so: its query variable is sent
	// either way, but NerdGraph runs it only when the @include is true.
	includeRe = regexp.MustCompile(`\(\s*query:\s*\$(\w+)[^)]*\)\s*@(include|skip)\(if:\s*\$(\w+)\s*\)`)
)

// explainCall describes one recorded operation.
func explainCall(step int, c ng.Recorded) ExplainCall {
	doc := strings.TrimSpace(c.Query)
	out := ExplainCall{Step: step, Operation: c.OpName, Kind: "query", Document: doc, Variables: c.Variables, Condition: conditionFirst}
	if c.Mutation {
		out.Kind = "mutation"
	}
	if step > 1 {
		out.Condition = conditionAfter
	}
	out.NRQL, out.EntitySearch = queryTexts(doc, c.Variables)
	return out
}

// queryTexts returns the NRQL strings (variables of type Nrql, and the nrql.query of
// an alert condition's input) and the entity-search query strings (of entitySearch
// fields, and the entitySearch.query of a change tracking event) in the variables,
// in the order the document declares them; a query of a field its @include or @skip
// leaves out is not run, so not listed.
func queryTexts(doc string, vars json.RawMessage) (nrql, search []string) {
	if len(vars) == 0 {
		return nil, nil
	}
	var values map[string]any
	if err := json.Unmarshal(vars, &values); err != nil {
		return nil, nil
	}
	header := doc
	if i := strings.IndexByte(doc, '{'); i >= 0 {
		header = doc[:i]
	}
	searched := map[string]bool{}
	for _, m := range entitySearchRe.FindAllStringSubmatch(doc, -1) {
		searched[m[1]] = true
	}
	notRun := map[string]bool{}
	for _, m := range includeRe.FindAllStringSubmatch(doc, -1) {
		on, _ := values[m[3]].(bool)
		notRun[m[1]] = on == (m[2] == "skip")
	}
	for _, m := range varDefRe.FindAllStringSubmatch(header, -1) {
		name, typ := m[1], m[2]
		v, ok := values[name]
		if !ok || notRun[name] {
			continue
		}
		switch {
		case typ == "Nrql":
			nrql = appendStrings(nrql, v)
		case searched[name]:
			search = appendStrings(search, v)
		default:
			nrql, search = nestedTexts(v, nrql, search)
		}
	}
	return nrql, search
}

// appendStrings appends v when it is a string, or the strings of a list.
func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	}
	return out
}

// nestedTexts appends the query of every {"nrql": {"query": "..."}} (an alert
// condition's NRQL) and {"entitySearch": {"query": "..."}} (the entity a change
// tracking event is recorded on) inside an input value, in key order.
func nestedTexts(v any, nrql, search []string) ([]string, []string) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			inner, _ := v[k].(map[string]any)
			q, isText := inner["query"].(string)
			switch {
			case isText && k == "nrql":
				nrql = append(nrql, q)
			case isText && k == "entitySearch":
				search = append(search, q)
			default:
				nrql, search = nestedTexts(v[k], nrql, search)
			}
		}
	case []any:
		for _, e := range v {
			nrql, search = nestedTexts(e, nrql, search)
		}
	}
	return nrql, search
}

// operationKind is "mutation" or "query" for a document ("" when unknown).
func operationKind(doc string) string {
	switch {
	case doc == "":
		return ""
	case strings.HasPrefix(doc, "mutation"):
		return "mutation"
	}
	return "query"
}

// errorTitle is the title of a v2 error body, JSON or XML (the legacy v0 XML's first
// <error> too); "" when there is none.
func errorTitle(body []byte) string {
	var j struct {
		Error struct {
			Title string `json:"title"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &j) == nil {
		return j.Error.Title
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	var in string
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		switch t := tok.(type) {
		case xml.StartElement:
			in = t.Name.Local
		case xml.CharData:
			if s := strings.TrimSpace(string(t)); s != "" && (in == "title" || in == "error") {
				return s
			}
		case xml.EndElement:
			in = ""
		}
	}
}

// serveExplain serves /v2bridge/explain?request=METHOD%20/v2/...[&account=N][&body=...]
// behind the report's admin token. The body of a write may also come as the POST body.
// The caller's X-Api-Key (or Api-Key) only finds its account in the key map.
func (e *explainer) serveExplain(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) { gateway.WriteError(w, r, err) }
	if e.token == "" {
		fail(restv2.NotFound("v2bridge explain is disabled: set report.admin_token_env"))
		return
	}
	if !e.gate.admit(w, r, "v2bridge explain", func(status int, msg string) { fail(&restv2.Error{Status: status, Title: msg}) }) {
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		fail(restv2.MethodNotAllowed("Method " + r.Method + " is not allowed on this route"))
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		fail(restv2.BadRequest("The query string does not parse: " + err.Error()))
		return
	}
	in := ExplainRequest{Line: q.Get("request"), Body: []byte(q.Get("body")), Key: gateway.APIKey(r.Header)}
	if in.Line == "" {
		fail(restv2.BadRequest("Give the request to explain: request=METHOD%20/v2/... (URL-encoded)"))
		return
	}
	if s := q.Get("account"); s != "" {
		if in.AccountID, err = strconv.ParseInt(s, 10, 64); err != nil || in.AccountID <= 0 {
			fail(restv2.BadRequest("Invalid parameter 'account': " + strconv.Quote(s) + " is not an account id"))
			return
		}
	}
	if r.Method == http.MethodPost && len(in.Body) == 0 && r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, e.maxBody+1))
		if err != nil {
			fail(restv2.BadRequest("Could not read the request body"))
			return
		}
		if int64(len(b)) > e.maxBody {
			fail(restv2.TooLarge(fmt.Sprintf("Request body larger than %d bytes", e.maxBody)))
			return
		}
		in.Body, in.ContentType = b, r.Header.Get("Content-Type")
	}
	x, err := e.Explain(r.Context(), in)
	if err != nil {
		if ve := (*restv2.Error)(nil); !errors.As(err, &ve) || ve.Status >= 500 {
			e.log.Error("explain failed", zap.Error(err))
		}
		fail(err)
		return
	}
	b, err := x.JSON()
	if err != nil {
		fail(err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// JSON is the explanation as indented JSON (NRQL's < > & left as they are), ending
// with a newline: the output of v2bridge explain and /v2bridge/explain.
func (x *Explanation) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(x); err != nil {
		return nil, fmt.Errorf("explanation: %w", err)
	}
	return buf.Bytes(), nil
}

// tokenMatches compares a presented admin token in constant time.
func tokenMatches(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
