package verify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WritePlan says, before anything is written, what a run with writes creates and
// removes: only objects of its own, on each side, named with the run's stamp.
func WritePlan(app int64, stamp string) []string {
	plan := []string{
		"create alerts policy " + strconv.Quote(writeName(stamp)) + " on each side (POST /v2/alerts_policies.json)",
		"create an NRQL condition in that policy on each side, update it, delete it (alerts_nrql_conditions)",
		"delete the policy on each side (DELETE /v2/alerts_policies/{id}.json)",
	}
	if app != 0 {
		plan = append(plan, "record a deployment (revision "+strconv.Quote(writeName(stamp))+") on application "+
			strconv.FormatInt(app, 10)+" on each side; the REST-side one is deleted afterwards, the translated one "+
			"stays (NerdGraph change-tracking events cannot be deleted)")
	}
	return append(plan, "nothing else is written; the objects are removed even when a step fails")
}

func writeName(stamp string) string { return "v2bridge-verify " + stamp }

// writeIgnored are the fields that differ between two objects created on purpose on
// each side (their ids, GUIDs and times), not compared in write exchanges.
func writeIgnored(key string) bool {
	switch key {
	case "id", "entity_guid", "created_at", "updated_at", "timestamp":
		return true
	}
	return false
}

// sent is one side's answer to a write.
type sent struct {
	status int
	body   []byte
	took   time.Duration
	calls  int
	err    error
}

func (r *runner) send(ctx context.Context, s *Side, method, path string, body string) sent {
	r.pace(ctx, s)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.Base+path, rd)
	if err != nil {
		return sent{err: err}
	}
	for k, v := range s.Header {
		req.Header[k] = v
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := s.Client.Do(req)
	if err != nil {
		return sent{err: redact(err)}
	}
	defer resp.Body.Close()
	b, err := readAll(resp.Body)
	n, _ := strconv.Atoi(resp.Header.Get("X-V2bridge-Upstream-Calls"))
	return sent{status: resp.StatusCode, body: b, took: time.Since(start), calls: n, err: err}
}

// write sends one write to each side (paths may differ by the side's own object ids)
// and records the comparison, ids and times ignored.
func (r *runner) write(ctx context.Context, route, method, restPath, trPath, body string) (sent, sent) {
	a := r.send(ctx, &r.cfg.REST, method, restPath, body)
	b := r.send(ctx, &r.cfg.Translation, method, trPath, body)
	x := Exchange{Route: route, Path: method + " " + restPath, RESTStatus: a.status, TranslationStatus: b.status,
		RESTMillis: ms(a.took), TranslationMillis: ms(b.took), RoundTrips: b.calls, Counts: map[string]int{}}
	switch {
	case a.err != nil:
		x.Error = "REST side: " + a.err.Error()
	case b.err != nil:
		x.Error = "translation side: " + b.err.Error()
	case a.status == http.StatusNotImplemented:
		x.NotCompared = "the REST side does not serve this route (501)"
	case b.status == http.StatusNotImplemented:
		x.NotCompared = "the translation does not serve this route (501)"
	case a.status >= 500:
		x.Error = "REST side answered " + strconv.Itoa(a.status)
	case b.status >= 500:
		x.Error = "translation side answered " + strconv.Itoa(b.status)
	default:
		if a.status != b.status {
			x.add(Field{Path: "$status", Verdict: Different, REST: a.status, Translation: b.status})
		}
		var av, bv any
		if json.Unmarshal(a.body, &av) != nil || json.Unmarshal(b.body, &bv) != nil {
			x.Error = "a side's body is not JSON"
			break
		}
		compareValue("$", strip(av), strip(bv), r.cfg.Tolerance, &x)
	}
	r.declare(&x)
	r.rep.Exchanges = append(r.rep.Exchanges, x)
	r.done++
	r.progress(x.Path)
	return a, b
}

// strip drops the ignored keys at every depth.
func strip(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			if !writeIgnored(k) {
				out[k] = strip(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = strip(x)
		}
		return out
	}
	return v
}

// createdID is the id under key in a write's answer ("" when absent).
func createdID(s sent, key string) string {
	var doc map[string]map[string]any
	if s.status/100 != 2 || json.Unmarshal(s.body, &doc) != nil {
		return ""
	}
	if id, ok := doc[key]["id"].(float64); ok {
		return strconv.FormatInt(int64(id), 10)
	}
	return ""
}

// writes runs the write routes on objects the run creates and removes itself.
func (r *runner) writes(ctx context.Context) {
	stamp := r.cfg.Stamp
	if stamp == "" {
		stamp = r.cfg.Now().UTC().Format("20060102T150405Z")
	}
	name := writeName(stamp)
	// Cleanup runs whatever happens, with its own deadline, on the ids this run got.
	var cleanup []func(context.Context)
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i](cctx)
		}
	}()
	pa, pb := r.write(ctx, "alerts_policies.create", http.MethodPost, "/v2/alerts_policies.json", "/v2/alerts_policies.json",
		`{"policy":{"name":`+strconv.Quote(name)+`,"incident_preference":"PER_POLICY"}}`)
	restPolicy, trPolicy := createdID(pa, "policy"), createdID(pb, "policy")
	deleted := false
	cleanup = append(cleanup, func(c context.Context) {
		if deleted {
			return
		}
		if restPolicy != "" {
			r.send(c, &r.cfg.REST, http.MethodDelete, "/v2/alerts_policies/"+restPolicy+".json", "")
		}
		if trPolicy != "" {
			r.send(c, &r.cfg.Translation, http.MethodDelete, "/v2/alerts_policies/"+trPolicy+".json", "")
		}
	})
	if restPolicy != "" && trPolicy != "" {
		cond := `{"nrql_condition":{"type":"static","name":` + strconv.Quote(name) + `,"enabled":false,"value_function":"single_value",` +
			`"violation_time_limit_seconds":3600,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],` +
			`"nrql":{"query":"SELECT count(*) FROM Transaction WHERE appName = 'v2bridge-verify'"}}}`
		ca, cb := r.write(ctx, "alerts_nrql_conditions.create", http.MethodPost, "/v2/alerts_nrql_conditions/policies/"+restPolicy+".json",
			"/v2/alerts_nrql_conditions/policies/"+trPolicy+".json", cond)
		restCond, trCond := createdID(ca, "nrql_condition"), createdID(cb, "nrql_condition")
		if restCond != "" && trCond != "" {
			r.write(ctx, "alerts_nrql_conditions.update", http.MethodPut, "/v2/alerts_nrql_conditions/"+restCond+".json",
				"/v2/alerts_nrql_conditions/"+trCond+".json", `{"nrql_condition":{"name":`+strconv.Quote(name+" (updated)")+`}}`)
			r.write(ctx, "alerts_nrql_conditions.delete", http.MethodDelete, "/v2/alerts_nrql_conditions/"+restCond+".json",
				"/v2/alerts_nrql_conditions/"+trCond+".json", "")
		}
		r.write(ctx, "alerts_policies.delete", http.MethodDelete, "/v2/alerts_policies/"+restPolicy+".json",
			"/v2/alerts_policies/"+trPolicy+".json", "")
		deleted = true
	}
	if r.cfg.WriteApp != 0 {
		app := "/v2/applications/" + strconv.FormatInt(r.cfg.WriteApp, 10) + "/deployments"
		da, _ := r.write(ctx, "deployments.create", http.MethodPost, app+".json", app+".json",
			`{"deployment":{"revision":`+strconv.Quote(name)+`,"description":"v2bridge verify --writes","user":"v2bridge"}}`)
		if id := createdID(da, "deployment"); id != "" {
			cleanup = append(cleanup, func(c context.Context) {
				r.send(c, &r.cfg.REST, http.MethodDelete, app+"/"+id+".json", "")
			})
		}
	}
}
