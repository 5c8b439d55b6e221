package migrate

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
)

// Usage is what one caller did on one route: the migration checklist's row.
type Usage struct {
	Caller    string    `json:"caller"`     // first 8 hex characters of the key's SHA-256
	Agent     string    `json:"user_agent"` // User-Agent product token
	Route     string    `json:"route"`
	Mode      string    `json:"mode"`
	Fidelity  string    `json:"fidelity"`
	Count     int64     `json:"count"`
	Errors    int64     `json:"errors"`
	LastSeen  time.Time `json:"last_seen"`
	Operation string    `json:"nerdgraph_operation,omitempty"`
	Account   int64     `json:"account,omitempty"` // the account of the row's last call
	Explain   string    `json:"explain,omitempty"` // /v2bridge/explain of a sample request of the route

	// calls is this row's v2bridge_v2_calls_total series for its Mode and Fidelity,
	// and counted what this process added to it (Count also holds restored calls).
	calls   prometheus.Counter
	counted int64
}

type usageKey struct{ caller, agent, route string }

// Defaults of the usage report's bounds (issue 17 item 1).
const (
	DefaultReportMaxCallers = 200
	DefaultReportMaxAgents  = 50
)

// otherBucket is the caller or User-Agent product under which the usage report counts
// everything beyond its bounds.
const otherBucket = "other"

// usageBook records v2 calls per caller and route. It keeps its own rows for the top
// maxCallers callers by calls and for maxAgents User-Agent products (the first seen);
// the rest count as "other", so neither the report nor v2bridge_v2_calls_total grows
// without bound.
//
// Top by calls, in bounded memory: callers beyond the bound are counted in candidates,
// a table of at most maxCallers entries kept with the Space-Saving rule (a new caller
// in a full table takes the place of its smallest entry and starts from that count,
// which is its possible error: Metwally, Agrawal and El Abbadi, "Efficient Computation
// of Frequent and Top-k Elements in Data Streams", ICDT 2005). A candidate whose
// guaranteed count (count less error: calls it surely made) passes the smallest
// caller's takes its place, so one-off callers never push out a busy one: the smaller caller's rows and series fold into "other"
// (their calls are kept there) and it becomes a candidate. Only keys NerdGraph
// accepted reach the book (authguard.go), so a flood of made-up keys moves nothing.
// candidate is a Space-Saving entry: n calls counted, of which at most err may be
// another caller's.
type candidate struct{ n, err int64 }

type usageBook struct {
	mu         sync.Mutex
	rows       map[usageKey]*Usage
	callers    map[string]int64     // callers with rows of their own → their calls
	candidates map[string]candidate // callers counted under "other" (Space-Saving)
	minCaller  int64                // a lower bound of the smallest count in callers
	agents     map[string]struct{}
	maxCallers int
	maxAgents  int
	dirty      bool
	calls      *prometheus.CounterVec
}

func newUsageBook(m *gateway.Metrics, maxCallers, maxAgents int) *usageBook {
	if maxCallers <= 0 {
		maxCallers = DefaultReportMaxCallers
	}
	if maxAgents <= 0 {
		maxAgents = DefaultReportMaxAgents
	}
	return &usageBook{rows: map[usageKey]*Usage{}, callers: map[string]int64{}, candidates: map[string]candidate{},
		agents: map[string]struct{}{}, maxCallers: maxCallers, maxAgents: maxAgents, calls: m.UsageCalls()}
}

// productToken is the product of a User-Agent, reduced to the characters of an HTTP
// token (RFC 9110 §5.6.2; anything else becomes '_') and at most 64 of them.
func productToken(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	tok, _, _ = strings.Cut(tok, "/")
	if len(tok) > 64 {
		tok = tok[:64]
	}
	if tok == "" {
		return "unknown"
	}
	b := []byte(tok)
	for i, c := range b {
		if !isTokenChar(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// bucket returns v when set already holds it or has room for it (adding it), else
// otherBucket. The caller holds b.mu.
func bucket(set map[string]struct{}, limit int, v string) string {
	if _, ok := set[v]; ok {
		return v
	}
	if len(set) >= limit {
		return otherBucket
	}
	set[v] = struct{}{}
	return v
}

// caller returns the caller a call of c is counted under (c or otherBucket) and
// counts it, promoting c over the smallest caller when its count passes it. The
// caller holds b.mu.
func (b *usageBook) caller(c string) string {
	if n, ok := b.callers[c]; ok {
		b.callers[c] = n + 1
		return c
	}
	if len(b.callers) < b.maxCallers {
		b.callers[c] = 1
		return c
	}
	e, ok := b.candidates[c]
	if !ok && len(b.candidates) >= b.maxCallers {
		low, lowN := "", int64(-1)
		for k, v := range b.candidates {
			if lowN < 0 || v.n < lowN || (v.n == lowN && k < low) {
				low, lowN = k, v.n
			}
		}
		delete(b.candidates, low)
		e = candidate{n: lowN, err: lowN}
	}
	e.n++
	b.candidates[c] = e
	n := e.n - e.err // calls c surely made since it was counted here
	if n <= b.minCaller {
		return otherBucket
	}
	low, lowN := "", int64(-1)
	for k, v := range b.callers {
		if lowN < 0 || v < lowN || (v == lowN && k < low) {
			low, lowN = k, v
		}
	}
	if b.minCaller = lowN; n <= lowN {
		return otherBucket
	}
	b.demote(low)
	delete(b.candidates, c)
	b.candidates[low] = candidate{n: lowN}
	b.callers[c] = n
	b.minCaller = 0 // recomputed on the next candidate
	return c
}

// demote folds caller c's rows into "other": counts, errors and the calls of its
// v2bridge_v2_calls_total series (which is deleted). The caller holds b.mu.
func (b *usageBook) demote(c string) {
	delete(b.callers, c)
	for k, u := range b.rows {
		if k.caller != c {
			continue
		}
		delete(b.rows, k)
		ok := usageKey{otherBucket, k.agent, k.route}
		o := b.rows[ok]
		if o == nil {
			o = &Usage{Caller: otherBucket, Agent: k.agent, Route: k.route, Mode: u.Mode, Fidelity: u.Fidelity}
			b.rows[ok] = o
		}
		if o.calls == nil {
			o.calls = b.calls.WithLabelValues(k.route, otherBucket, o.Mode, o.Fidelity)
		}
		o.Count += u.Count
		o.Errors += u.Errors
		if u.LastSeen.After(o.LastSeen) {
			o.LastSeen, o.Account = u.LastSeen, u.Account
		}
		o.calls.Add(float64(u.counted))
		o.counted += u.counted
	}
	b.calls.DeletePartialMatch(prometheus.Labels{"caller": c})
}

// record counts one call: the gateway.Config.Usage hook.
func (b *usageBook) record(c gateway.Call) {
	if c.Caller == "" || c.Route == "" {
		return
	}
	mode := string(c.Mode)
	if mode == "" {
		mode = string(gateway.ModeTranslate)
	}
	b.mu.Lock()
	k := usageKey{b.caller(c.Caller), bucket(b.agents, b.maxAgents, productToken(c.Agent)), c.Route}
	u := b.rows[k]
	if u == nil {
		u = &Usage{Caller: k.caller, Agent: k.agent, Route: k.route}
		b.rows[k] = u
	}
	if u.calls == nil || u.Mode != mode || u.Fidelity != string(c.Fidelity) {
		u.calls = b.calls.WithLabelValues(k.route, k.caller, mode, string(c.Fidelity))
	}
	u.Mode, u.Fidelity = mode, string(c.Fidelity)
	if c.Account != 0 {
		u.Account = c.Account
	}
	u.Count++
	u.counted++
	if c.Status >= 400 {
		u.Errors++
	}
	u.LastSeen = c.At.UTC().Truncate(time.Second)
	b.dirty = true
	calls := u.calls
	b.mu.Unlock()
	calls.Inc()
}

func (b *usageBook) snapshot() []Usage {
	b.mu.Lock()
	out := make([]Usage, 0, len(b.rows))
	for _, u := range b.rows {
		out = append(out, *u)
	}
	b.mu.Unlock()
	ops := operations()
	for i := range out {
		out[i].Operation = strings.Join(ops[out[i].Route], ", ")
		out[i].Explain = explainLink(out[i].Route, out[i].Account)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Caller != out[j].Caller {
			return out[i].Caller < out[j].Caller
		}
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return out[i].Route < out[j].Route
	})
	return out
}

// restored counts n saved calls of caller c and returns the caller its row goes under:
// the first maxCallers callers of the saved state keep theirs (the state was saved
// bounded), later ones are "other". The caller holds b.mu.
func (b *usageBook) restored(c string, n int64) string {
	if c == otherBucket {
		return c
	}
	if _, ok := b.callers[c]; ok || len(b.callers) < b.maxCallers {
		b.callers[c] += n
		return c
	}
	return otherBucket
}

// load restores counts saved by save.
func (b *usageBook) load(path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report state: %w", err)
	}
	var rows []Usage
	if err := json.Unmarshal(data, &rows); err != nil {
		return fmt.Errorf("report state %s: %w", path, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range rows {
		u := u
		u.Caller, u.Agent = b.restored(u.Caller, u.Count), bucket(b.agents, b.maxAgents, u.Agent)
		k := usageKey{u.Caller, u.Agent, u.Route}
		if have := b.rows[k]; have != nil {
			have.Count += u.Count
			have.Errors += u.Errors
			continue
		}
		b.rows[k] = &u
	}
	return nil
}

// save writes the counts atomically (temporary file, then rename) when they changed.
func (b *usageBook) save(path string) error {
	b.mu.Lock()
	if !b.dirty {
		b.mu.Unlock()
		return nil
	}
	b.dirty = false
	b.mu.Unlock()
	data, err := json.MarshalIndent(b.snapshot(), "", "  ")
	if err != nil {
		return fmt.Errorf("report state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".v2bridge-report-*")
	if err != nil {
		return fmt.Errorf("report state: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("report state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("report state: %w", err)
	}
	return nil
}

// RunReportState saves the usage report to cfg.ReportStateFile every interval until
// ctx ends, then once more. It returns at once when no state file is configured.
func (p *Pilot) RunReportState(ctx context.Context, interval time.Duration) error {
	if p.cfg.ReportStateFile == "" {
		return nil
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return p.usage.save(p.cfg.ReportStateFile)
		case <-t.C:
			if err := p.usage.save(p.cfg.ReportStateFile); err != nil {
				p.log.Warn("report state not saved", zap.Error(err))
			}
		}
	}
}

// operations maps route names to the genqlient operations that replace them.
func operations() map[string][]string {
	out := map[string][]string{}
	for _, r := range gateway.Routes() {
		out[r.Name] = r.Operations
	}
	return out
}

// operationText is the GraphQL text of a genqlient operation.
func operationText(name string) string {
	switch name {
	case "AppList":
		return ng.AppList_Operation
	case "AppNamePage":
		return ng.AppNamePage_Operation
	case "AppInventory":
		return ng.AppInventory_Operation
	case "AppShow":
		return ng.AppShow_Operation
	case "AppHosts":
		return ng.AppHosts_Operation
	case "MetricNames":
		return ng.MetricNames_Operation
	case "MetricData":
		return ng.MetricData_Operation
	case "Deployments":
		return ng.Deployments_Operation
	case "DeploymentCreateEvent":
		return ng.DeploymentCreateEvent_Operation
	case "BrowserSearch":
		return ng.BrowserSearch_Operation
	case "BrowserDetails":
		return ng.BrowserDetails_Operation
	case "BrowserCreate":
		return ng.BrowserCreate_Operation
	case "MobileSearch":
		return ng.MobileSearch_Operation
	case "MobileShow":
		return ng.MobileShow_Operation
	case "MobileCreate":
		return ng.MobileCreate_Operation
	case "Policies":
		return ng.Policies_Operation
	case "Policy":
		return ng.Policy_Operation
	case "PolicyCreate":
		return ng.PolicyCreate_Operation
	case "PolicyUpdate":
		return ng.PolicyUpdate_Operation
	case "PolicyDelete":
		return ng.PolicyDelete_Operation
	case "Incidents":
		return ng.Incidents_Operation
	case "NrqlQuery":
		return ng.NrqlQuery_Operation
	case "NrqlConditions":
		return ng.NrqlConditions_Operation
	case "NrqlCondition":
		return ng.NrqlCondition_Operation
	case "AsNrqlConditions":
		return ng.AsNrqlConditions_Operation
	case "NrqlConditionStaticCreate":
		return ng.NrqlConditionStaticCreate_Operation
	case "NrqlConditionBaselineCreate":
		return ng.NrqlConditionBaselineCreate_Operation
	case "NrqlConditionStaticUpdate":
		return ng.NrqlConditionStaticUpdate_Operation
	case "NrqlConditionBaselineUpdate":
		return ng.NrqlConditionBaselineUpdate_Operation
	case "ConditionDelete":
		return ng.ConditionDelete_Operation
	case "KeyTransactionSearch":
		return ng.KeyTransactionSearch_Operation
	case "KeyTransactionDetails":
		return ng.KeyTransactionDetails_Operation
	case "KeyTransactionShow":
		return ng.KeyTransactionShow_Operation
	case "AppUpdate":
		return ng.AppUpdate_Operation
	case "AppDelete":
		return ng.AppDelete_Operation
	}
	return ""
}

// serveReport serves /v2bridge/report (HTML), .json and .csv, behind the admin token.
func (p *Pilot) serveReport(w http.ResponseWriter, r *http.Request) {
	if p.cfg.ReportToken == "" {
		http.Error(w, "the usage report is disabled: set report.admin_token", http.StatusNotFound)
		return
	}
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if subtle.ConstantTimeCompare([]byte(token), []byte(p.cfg.ReportToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="v2bridge report"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	rows := p.usage.snapshot()
	source := "this gateway replica (local counts)"
	if p.fleetRows != nil && p.cfg.ReportPrometheusURL == "" { // fleetusage.go
		if fleetRows, err := p.fleetRows.rows(r.Context()); err == nil {
			rows, source = fleetRows, "the fleet's shared store (every replica's counts)"
		} else {
			source = "this gateway replica (local counts: the shared store is unreachable: " + err.Error() + ")"
		}
	}
	if p.cfg.ReportPrometheusURL != "" {
		fleet, err := p.fleetUsage(r.Context())
		if err != nil {
			http.Error(w, "report: fleet totals from Prometheus: "+err.Error(), http.StatusBadGateway)
			return
		}
		rows, source = fleet, "Prometheus at "+p.cfg.ReportPrometheusURL+" (fleet-wide totals of v2bridge_v2_calls_total)"
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ".json"):
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(map[string]any{"source": source, "sunset": "2027-07-31",
			"days_left": daysLeft(p.cfg.Now()), "usage": rows, "compare": p.compareRates(), "cutover": p.cutoverRows(rows)})
	case strings.HasSuffix(r.URL.Path, ".csv"):
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		writeReportCSV(w, rows)
	default:
		var buf bytes.Buffer
		data := p.reportData(rows)
		data["Source"] = source
		data["Cutover"] = p.cutoverRows(rows)
		if err := reportPage.Execute(&buf, data); err != nil {
			http.Error(w, "report: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
	}
}

// writeReportCSV writes the usage rows as CSV. Every text cell passes through csvCell:
// callers, User-Agent products and (from a state file or Prometheus) any label may
// come from outside, and a spreadsheet would run a cell starting with a formula
// character (issue 17 item 6).
func writeReportCSV(w io.Writer, rows []Usage) {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"caller", "user_agent", "route", "mode", "fidelity", "count", "errors", "last_seen", "nerdgraph_operation", "explain"})
	for _, u := range rows {
		_ = cw.Write([]string{csvCell(u.Caller), csvCell(u.Agent), csvCell(u.Route), csvCell(u.Mode), csvCell(u.Fidelity),
			strconv.FormatInt(u.Count, 10), strconv.FormatInt(u.Errors, 10), u.LastSeen.Format(time.RFC3339), csvCell(u.Operation),
			csvCell(u.Explain)})
	}
	cw.Flush()
}

// csvCell neutralises a text cell a spreadsheet would read as a formula: one starting
// with = + - @ tab or carriage return gets a leading apostrophe (OWASP, "CSV
// Injection": https://owasp.org/www-community/attacks/CSV_Injection).
func csvCell(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

func daysLeft(now time.Time) int {
	return int(gateway.Sunset().Sub(now).Hours() / 24)
}

type reportCaller struct {
	Caller, Agent string
	Rows          []Usage
}

type reportBar struct {
	Route       string
	Count       int64
	Y, Width, H int
}

type reportOp struct {
	Route, Name, Text, Curl string
}

func (p *Pilot) reportData(rows []Usage) map[string]any {
	var callers []reportCaller
	perRoute := map[string]int64{}
	for _, u := range rows {
		if n := len(callers); n == 0 || callers[n-1].Caller != u.Caller || callers[n-1].Agent != u.Agent {
			callers = append(callers, reportCaller{Caller: u.Caller, Agent: u.Agent})
		}
		callers[len(callers)-1].Rows = append(callers[len(callers)-1].Rows, u)
		perRoute[u.Route] += u.Count
	}
	routes := make([]string, 0, len(perRoute))
	var most int64 = 1
	for r, n := range perRoute {
		routes = append(routes, r)
		most = max(most, n)
	}
	sort.Strings(routes)
	var bars []reportBar
	for i, r := range routes {
		bars = append(bars, reportBar{Route: r, Count: perRoute[r], Y: 4 + i*22, Width: int(300 * perRoute[r] / most), H: 16})
	}
	var ops []reportOp
	seen := map[string]bool{}
	for _, r := range routes {
		for _, name := range operations()[r] {
			text := operationText(name)
			if text == "" || seen[r+name] {
				continue
			}
			seen[r+name] = true
			body, _ := json.Marshal(map[string]string{"query": strings.TrimSpace(text)})
			curl := "curl https://api.newrelic.com/graphql -H 'Content-Type: application/json' -H \"API-Key: $NEW_RELIC_USER_KEY\" -d '" +
				strings.ReplaceAll(string(body), "'", `'\''`) + "'"
			ops = append(ops, reportOp{Route: r, Name: name, Text: strings.TrimSpace(text), Curl: curl})
		}
	}
	return map[string]any{"Callers": callers, "Bars": bars, "ChartHeight": 8 + 22*len(bars), "Ops": ops,
		"DaysLeft": daysLeft(p.cfg.Now()), "Source": "this gateway replica (local counts)"}
}

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{"pct": func(f float64) float64 { return 100 * f }}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>v2bridge — REST API v2 usage</title>
<style>body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:0 0 1.5em}
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}pre{background:#f4f4f4;padding:.6em;overflow:auto}</style></head>
<body>
<h1>REST API v2 usage</h1>
<p>Source: {{.Source}}. The REST API v2 ends on 31 July 2027: <strong>{{.DaysLeft}} days left</strong>.</p>
<h2>Calls per route</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{{.ChartHeight}}" role="img" aria-label="calls per route">
{{range .Bars}}<text x="0" y="{{.Y}}" dy="12" font-size="12">{{.Route}}</text><rect x="260" y="{{.Y}}" width="{{.Width}}" height="{{.H}}" fill="#3b73b9"/><text x="{{.Width}}" dx="266" y="{{.Y}}" dy="12" font-size="12">{{.Count}}</text>
{{end}}</svg>
{{range .Callers}}<h2>Caller {{.Caller}} ({{.Agent}})</h2>
<table><tr><th>route</th><th>mode</th><th>fidelity</th><th>calls</th><th>errors</th><th>last seen</th><th>NerdGraph operation</th><th>explain</th></tr>
{{range .Rows}}<tr><td>{{.Route}}</td><td>{{.Mode}}</td><td>{{.Fidelity}}</td><td>{{.Count}}</td><td>{{.Errors}}</td><td>{{.LastSeen.Format "2006-01-02 15:04:05"}}</td><td>{{.Operation}}</td><td>{{if .Explain}}<a href="{{.Explain}}">sample request</a>{{end}}</td></tr>
{{end}}</table>{{end}}
{{with .Cutover}}<h2>Cut-over readiness per route</h2>
<p>Calls and fidelity beside the last <code>v2bridge verify</code> result and this replica's compare-mode rates.</p>
<table><tr><th>route</th><th>calls</th><th>fidelity</th><th>last verify</th><th>compare diff rate</th><th>compare error rate</th><th>verdict</th></tr>
{{range .}}<tr><td>{{.Route}}</td><td>{{.Calls}}</td><td>{{.Fidelity}}</td><td>{{with .Verify}}{{.Requests}} request(s), {{.Differences}} difference(s), {{.Within}} within tolerance{{if .NotCompared}}, {{.NotCompared}} not compared{{end}} ({{.At.Format "2006-01-02 15:04"}}){{else}}—{{end}}</td><td>{{with .Compare}}{{printf "%.1f%%" (pct .DiffRate)}} of {{.Total}}{{else}}—{{end}}</td><td>{{with .Compare}}{{printf "%.1f%%" (pct .ErrorRate)}}{{range $side, $n := .BySide}} {{$side}}: {{$n}}{{end}}{{else}}—{{end}}</td><td>{{.Verdict}}</td></tr>
{{end}}</table>{{end}}
<h2>The NerdGraph operations that replace these routes</h2>
{{range .Ops}}<h3>{{.Route}}: {{.Name}}</h3><pre>{{.Text}}</pre><pre>{{.Curl}}</pre>{{end}}
</body></html>
`))

// fleetUsage reads the fleet-wide totals from Prometheus's HTTP API: each replica holds
// only its share, the scraped counters hold them all.
func (p *Pilot) fleetUsage(ctx context.Context) ([]Usage, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	q := url.Values{"query": {"sum by (route, caller, mode, fidelity) (v2bridge_v2_calls_total)"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(p.cfg.ReportPrometheusURL, "/")+"/api/v1/query?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("prometheus query: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("prometheus query: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Status string
		Data   struct {
			Result []struct {
				Metric map[string]string
				Value  []any
			}
		}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&out); err != nil || out.Status != "success" {
		return nil, fmt.Errorf("prometheus answer (HTTP %d, status %q): %v", resp.StatusCode, out.Status, err)
	}
	ops := operations()
	var rows []Usage
	for _, r := range out.Data.Result {
		if len(r.Value) != 2 {
			continue
		}
		s, _ := r.Value[1].(string)
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			continue
		}
		rows = append(rows, Usage{Caller: r.Metric["caller"], Agent: "all", Route: r.Metric["route"], Mode: r.Metric["mode"],
			Fidelity: r.Metric["fidelity"], Count: int64(n), Operation: strings.Join(ops[r.Metric["route"]], ", "),
			Explain: explainLink(r.Metric["route"], 0)})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Caller != rows[j].Caller {
			return rows[i].Caller < rows[j].Caller
		}
		return rows[i].Route < rows[j].Route
	})
	return rows, nil
}
