package migrate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
)

// reporter serves the usage report's pages: the usage book's rows (or the fleet's,
// from the shared store or Prometheus), compare mode's rates and the cut-over table.
type reporter struct {
	book          *usageBook
	fleetRows     *fleetUsage // the fleet's rows through the shared store; nil without one
	token         string      // the admin token; empty: the report is disabled
	gate          *adminGate  // checks the token, slowing failed attempts per address (admin.go)
	prometheusURL string      // fleet-wide totals from this Prometheus; empty: none
	verifyFile    string      // the last `v2bridge verify` report; empty: none
	now           func() time.Time
	metrics       *gateway.Metrics
	log           *zap.Logger
}

// serveReport serves /v2bridge/report (HTML), .json and .csv, behind the admin token.
func (rep *reporter) serveReport(w http.ResponseWriter, r *http.Request) {
	if rep.token == "" {
		http.Error(w, "the usage report is disabled: set report.admin_token_env", http.StatusNotFound)
		return
	}
	if !rep.gate.admit(w, r, "v2bridge report", func(status int, msg string) { http.Error(w, msg, status) }) {
		return
	}
	rows := rep.book.snapshot()
	source := "this gateway replica (local counts)"
	if rep.fleetRows != nil && rep.prometheusURL == "" { // fleetusage.go
		if fleetRows, err := rep.fleetRows.rows(r.Context()); err == nil {
			rows, source = fleetRows, "the fleet's shared store (every replica's counts)"
		} else {
			source = "this gateway replica (local counts: the shared store is unreachable: " + err.Error() + ")"
		}
	}
	if rep.prometheusURL != "" {
		fleet, err := rep.fleetUsage(r.Context())
		if err != nil {
			http.Error(w, "report: fleet totals from Prometheus: "+err.Error(), http.StatusBadGateway)
			return
		}
		rows, source = fleet, "Prometheus at "+rep.prometheusURL+" (fleet-wide totals of v2bridge_v2_calls_total)"
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ".json"):
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(map[string]any{"source": source, "sunset": "2027-07-31",
			"days_left": daysLeft(rep.now()), "usage": rows, "compare": compareRates(rep.metrics), "cutover": rep.cutoverRows(rows)})
	case strings.HasSuffix(r.URL.Path, ".csv"):
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		writeReportCSV(w, rows)
	default:
		var buf bytes.Buffer
		data := rep.reportData(rows)
		data["Source"] = source
		data["Cutover"] = rep.cutoverRows(rows)
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
// character.
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

func (rep *reporter) reportData(rows []Usage) map[string]any {
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
		"DaysLeft": daysLeft(rep.now()), "Source": "this gateway replica (local counts)"}
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
{{range .}}<tr><td>{{.Route}}</td><td>{{.Calls}}</td><td>{{.Fidelity}}</td><td>{{with .Verify}}{{.Requests}} request(s), {{.Differences}} difference(s), {{.Declared}} declared, {{.Within}} within tolerance{{if .NotCompared}}, {{.NotCompared}} not compared{{end}} ({{.At.Format "2006-01-02 15:04"}}){{else}}—{{end}}</td><td>{{with .Compare}}{{printf "%.1f%%" (pct .DiffRate)}} of {{.Total}}{{if .Declared}} ({{.Declared}} declared only){{end}}{{else}}—{{end}}</td><td>{{with .Compare}}{{printf "%.1f%%" (pct .ErrorRate)}}{{range $side, $n := .BySide}} {{$side}}: {{$n}}{{end}}{{else}}—{{end}}</td><td>{{.Verdict}}</td></tr>
{{end}}</table>{{end}}
<h2>The NerdGraph operations that replace these routes</h2>
{{range .Ops}}<h3>{{.Route}}: {{.Name}}</h3><pre>{{.Text}}</pre><pre>{{.Curl}}</pre>{{end}}
</body></html>
`))

// fleetUsage reads the fleet-wide totals from Prometheus's HTTP API: each replica holds
// only its share, the scraped counters hold them all.
func (rep *reporter) fleetUsage(ctx context.Context) ([]Usage, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	q := url.Values{"query": {"sum by (route, caller, mode, fidelity) (v2bridge_v2_calls_total)"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(rep.prometheusURL, "/")+"/api/v1/query?"+q.Encode(), nil)
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

// cutoverRows is the cut-over table of the report pages: an unreadable verify report
// is logged and left out.
func (rep *reporter) cutoverRows(rows []Usage) []CutoverRow {
	out, err := cutover(rows, rep.verifyFile, compareRates(rep.metrics))
	if err != nil {
		rep.log.Warn("usage report without the last verify result", zap.Error(err))
	}
	return out
}
