package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/migrate/verify"
	"github.com/v2bridge/v2bridge/sim/restdouble"
	"github.com/v2bridge/v2bridge/tests/harness"
)

func verifyRun(t *testing.T, rest, translation string) *verify.Report {
	t.Helper()
	hdr := http.Header{"X-Api-Key": {key1}}
	rep, err := verify.Run(context.Background(), verify.Config{
		REST:        verify.Side{Base: rest, Header: hdr},
		Translation: verify.Side{Base: translation, Header: hdr},
		Sample:      2, PerMinute: 1 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// edit rewrites one recorded JSON body.
func edit(t *testing.T, answers map[string]restdouble.Answer, uri string, f func(doc map[string]any)) {
	t.Helper()
	a, ok := answers[uri]
	if !ok {
		t.Fatalf("verify did not ask for %s", uri)
	}
	var doc map[string]any
	if err := json.Unmarshal(a.Body, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	a.Body, _ = json.Marshal(doc)
	answers[uri] = a
}

// verify against the simulator and a REST v2 double that answers the same demo
// objects (recorded from the translation of the demo data, then edited): with no
// difference planted it finds none; with five planted (two changed names, a field REST
// lacks, a field the translation lacks, and a number within tolerance, which is not a
// difference) it finds exactly the four differences, field by field, with both values.
func TestVerifyFindsPlantedDifferences(t *testing.T) {
	e := newEnvWith(t, gateway.Config{})
	rec := restdouble.Record(t, e.gw.URL)
	clean := verifyRun(t, rec.URL, e.gw.URL)
	if d := clean.Differences(); len(d) != 0 {
		t.Fatalf("identical sides differ: %v", d)
	}
	answers := rec.Answers()
	routes := map[string]bool{}
	for _, r := range clean.Routes {
		routes[r.Route] = true
	}
	for _, r := range gateway.Routes() {
		if r.Methods[0] == http.MethodGet && r.Retired == nil && !strings.Contains(r.Name, "metric_data") &&
			!strings.HasSuffix(r.Name, "hosts.metrics") && !strings.HasSuffix(r.Name, "instances.metrics") &&
			r.Name != "mobile_applications.metrics" && !r.Legacy && !routes[r.Name] {
			t.Errorf("verify does not compare read route %s", r.Name)
		}
	}

	var app, kt string
	for uri := range answers {
		if m := regexp.MustCompile(`^/v2/applications/(\d+)\.json$`).FindStringSubmatch(uri); m != nil && (app == "" || m[1] < app) {
			app = m[1]
		}
		if m := regexp.MustCompile(`^/v2/key_transactions/(\d+)\.json$`).FindStringSubmatch(uri); m != nil && (kt == "" || m[1] < kt) {
			kt = m[1]
		}
	}
	var polID, mobID string
	edit(t, answers, "/v2/applications/"+app+".json", func(doc map[string]any) {
		a := doc["application"].(map[string]any)
		a["name"] = "Planted name"
		s := a["application_summary"].(map[string]any)
		s["apdex_target"] = s["apdex_target"].(float64) * 1.01 // within 5%: not a difference
	})
	edit(t, answers, "/v2/alerts_policies.json", func(doc map[string]any) {
		p := doc["policies"].([]any)[0].(map[string]any)
		polID = jsonText(p["id"])
		delete(p, "incident_preference")
	})
	edit(t, answers, "/v2/key_transactions/"+kt+".json", func(doc map[string]any) {
		doc["key_transaction"].(map[string]any)["planted_extra"] = "x"
	})
	edit(t, answers, "/v2/mobile_applications.json", func(doc map[string]any) {
		m := doc["mobile_applications"].([]any)[0].(map[string]any)
		mobID = jsonText(m["id"])
		m["name"] = "Planted mobile"
	})
	double := restdouble.Replay(t, answers)
	rep := verifyRun(t, double.URL, e.gw.URL)
	want := []string{
		"/v2/alerts_policies.json $.policies[id=" + polID + "].incident_preference: missing_in_rest",
		"/v2/applications/" + app + ".json $.application.name: different",
		"/v2/key_transactions/" + kt + ".json $.key_transaction.planted_extra: missing_in_translation",
		"/v2/mobile_applications.json $.mobile_applications[id=" + mobID + "].name: different",
	}
	slices.Sort(want)
	if got := rep.Differences(); !slices.Equal(got, want) {
		t.Fatalf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Both values are reported; the within-tolerance number is reported as such.
	var tol, name bool
	for _, x := range rep.Exchanges {
		for _, f := range x.Fields {
			tol = tol || (f.Path == "$.application.application_summary.apdex_target" && f.Verdict == verify.WithinTol)
			name = name || (f.Path == "$.application.name" && f.REST == "Planted name" && f.Translation == "100% Uptime Monitor")
		}
	}
	if !tol || !name {
		t.Fatalf("within tolerance %v, both values %v", tol, name)
	}
	var html, js, sum bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil || strings.Contains(html.String(), "<script") || !strings.Contains(html.String(), "Planted name") {
		t.Fatalf("HTML report: %v", err)
	}
	if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) {
		t.Fatalf("JSON report: %v", err)
	}
	if err := rep.WriteSummary(&sum); err != nil || !strings.Contains(sum.String(), "4 field(s) differ") || strings.Count(sum.String(), "\n") > 40 {
		t.Fatalf("summary:\n%s", sum.String())
	}
	if strings.Contains(js.String(), key1) || strings.Contains(html.String(), key1) {
		t.Fatal("the key reached the report")
	}

	// The usage report shows the last verify result per route beside calls and fidelity.
	file := filepath.Join(t.TempDir(), "verify.json")
	if err := os.WriteFile(file, js.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	h := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "tok", ReportVerifyFile: file}})
	g := &env{sim: h.Sim, gw: h.Gateway}
	g.get(t, "/v2/applications/"+app+".json", key1)
	var usage struct {
		Cutover []migrate.CutoverRow `json:"cutover"`
	}
	if err := json.Unmarshal(g.get(t, "/v2bridge/report.json", "", "Authorization", "Bearer tok").body, &usage); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, r := range usage.Cutover {
		verdicts[r.Route] = r.Verdict
		if r.Route == "applications.show" && (r.Calls != 1 || r.Fidelity != "approximate" || r.Verify == nil || r.Verify.Differences != 1) {
			t.Fatalf("applications.show row: %+v", r)
		}
	}
	if verdicts["applications.show"] != "1 difference(s)" || verdicts["alerts_nrql_conditions.list"] != "verified equal" {
		t.Fatalf("verdicts: %v", verdicts)
	}
	if page := g.get(t, "/v2bridge/report", "", "Authorization", "Bearer tok").body; !strings.Contains(string(page), "Cut-over readiness per route") {
		t.Fatal("HTML report lacks the cut-over table")
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// --writes: each side creates, updates and deletes its own policy and NRQL condition
// and records a deployment; ids and times aside the answers agree, and no policy or
// condition of the run is left behind.
func TestVerifyWrites(t *testing.T) {
	e := newEnvWith(t, gateway.Config{})
	rec := restdouble.Record(t, e.gw.URL)
	hdr := http.Header{"X-Api-Key": {key1}}
	policies := func() string { return string(e.get(t, "/v2/alerts_policies.json", key1).body) }
	before := policies()
	rep, err := verify.Run(context.Background(), verify.Config{
		REST: verify.Side{Base: rec.URL, Header: hdr}, Translation: verify.Side{Base: e.gw.URL, Header: hdr},
		Sample: 1, PerMinute: 1 << 20, Writes: true, WriteApp: 314221522, Stamp: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Differences(); len(d) != 0 {
		t.Fatalf("differences: %v", d)
	}
	var writes []string
	for _, x := range rep.Exchanges {
		if x.Error != "" {
			t.Errorf("%s: %s", x.Path, x.Error)
		}
		if !strings.HasPrefix(x.Path, "/") {
			writes = append(writes, x.Route)
		}
	}
	want := []string{"alerts_policies.create", "alerts_nrql_conditions.create", "alerts_nrql_conditions.update",
		"alerts_nrql_conditions.delete", "alerts_policies.delete", "deployments.create"}
	if !slices.Equal(writes, want) {
		t.Fatalf("write exchanges %v, want %v", writes, want)
	}
	if after := policies(); after != before || strings.Contains(after, "v2bridge-verify") {
		t.Fatalf("policies changed by the run:\n%s\n%s", before, after)
	}
	if plan := verify.WritePlan(314221522, "test"); !strings.Contains(strings.Join(plan, "\n"), "nothing else is written") {
		t.Fatalf("plan: %v", plan)
	}
}
