package restdouble

import (
	"encoding/base64"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/v2bridge/v2bridge/sim"
)

func (d *Double) policies(w http.ResponseWriter, acct *sim.Account, name string) {
	out := []obj{}
	for _, p := range acct.AlertPolicies {
		if name == "" || strings.Contains(strings.ToLower(p.Name), strings.ToLower(name)) {
			// The demo data holds no creation times: null, as the gateway sends them.
			out = append(out, obj{"id": p.ID, "name": p.Name, "incident_preference": p.IncidentPreference,
				"created_at": nil, "updated_at": nil})
		}
	}
	writeJSON(w, http.StatusOK, obj{"policies": out})
}

// defaultViolationLimit is REST's violation time limit when a condition sets none (72 h).
const defaultViolationLimit = 259200

// conditions answers a policy's legacy APM conditions or its NRQL conditions.
func (d *Double) conditions(w http.ResponseWriter, acct *sim.Account, policy string, nrql bool) {
	pid, err := strconv.Atoi(policy)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "policy_id is required")
		return
	}
	out := []obj{}
	add := func(c sim.NrqlCondition, legacy string) {
		if c.PolicyID != pid {
			return
		}
		limit := c.ViolationTimeLimitSeconds
		if limit == 0 {
			limit = defaultViolationLimit
		}
		o := obj{"id": c.ID, "name": c.Name, "enabled": c.Enabled, "terms": terms(c.Terms), "runbook_url": nil}
		if c.RunbookURL != "" {
			o["runbook_url"] = c.RunbookURL
		}
		if legacy != "" {
			o["type"], o["violation_close_timer"] = legacy, int(limit/3600)
			o["entities"], o["metric"], o["condition_scope"] = appIDs(c.Nrql.Query), nil, nil // metric and scope: not in the demo data
		} else {
			nrqlCondition(o, acct.ID, c, limit)
		}
		out = append(out, o)
	}
	if nrql {
		for _, c := range acct.NrqlConditions {
			add(c, "")
		}
		writeJSON(w, http.StatusOK, obj{"nrql_conditions": out})
		return
	}
	for _, c := range acct.LegacyConditions {
		add(c.NrqlCondition, legacyType(c.SourceProduct))
	}
	writeJSON(w, http.StatusOK, obj{"conditions": out})
}

// legacyType is a legacy condition's REST type by the product it watches.
func legacyType(product string) string {
	switch product {
	case "BROWSER":
		return "browser_metric"
	case "MOBILE":
		return "mobile_metric"
	}
	return "apm_app_metric"
}

// nrqlCondition adds an NRQL condition's own fields to o: type, query, signal,
// expiration and the condition's entity GUID.
func nrqlCondition(o obj, accountID int, c sim.NrqlCondition, limit float64) {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	q := obj{"query": c.Nrql.Query}
	signal := obj{}
	if v := c.Signal.AggregationWindow; v != nil {
		signal["aggregation_window"] = num(*v)
	}
	if c.Signal.AggregationMethod != "" {
		signal["aggregation_method"] = c.Signal.AggregationMethod
	}
	if v := c.Signal.AggregationDelay; v != nil {
		signal["aggregation_delay"] = *v
		if c.Signal.AggregationMethod == "CADENCE" {
			signal["evaluation_offset"], q["since_value"] = num(*v/60), num(*v/60)
		}
	}
	if v := c.Signal.AggregationTimer; v != nil {
		signal["aggregation_timer"] = *v
	}
	if len(signal) == 0 { // New Relic's defaults for a condition created without a signal
		signal["aggregation_window"], signal["aggregation_method"], signal["aggregation_delay"] = "60", "EVENT_FLOW", 120.0
	}
	signal["fill_option"] = "none"
	if c.Signal.FillOption != "" {
		signal["fill_option"] = strings.ToLower(c.Signal.FillOption)
	}
	if v := c.Signal.FillValue; v != nil {
		signal["fill_value"] = num(*v)
	}
	if _, ok := q["since_value"]; !ok {
		q["since_value"] = nil
	}
	o["value_function"] = "single_value" // REST's value for every NRQL condition of a static threshold
	o["type"], o["violation_time_limit_seconds"], o["nrql"] = strings.ToLower(c.Type), limit, q
	if len(signal) > 0 {
		o["signal"] = signal
	}
	if e := c.Expiration; e.ExpirationDuration != nil {
		o["expiration"] = obj{"expiration_duration": num(*e.ExpirationDuration), "open_violation_on_expiration": e.OpenViolationOnExpiration,
			"close_violations_on_expiration": e.CloseViolationsOnExpiration}
	}
	if c.BaselineDirection != "" {
		o["baseline_direction"] = strings.ToLower(c.BaselineDirection)
	}
	if c.ValueFunction != "" && c.Type == "STATIC" {
		o["value_function"] = strings.ToLower(c.ValueFunction)
	}
	o["entity_guid"] = base64.RawStdEncoding.EncodeToString([]byte(strconv.Itoa(accountID) + "|AIOPS|CONDITION|" + strconv.Itoa(c.ID)))
}

// terms are REST's condition terms: duration in minutes and threshold as strings, lower
// case; REST's operators are above, below and equal (newrelic/newrelic-client-go
// pkg/alerts/conditions.go OperatorTypes), where NerdGraph writes EQUALS.
func terms(ts []sim.NrqlTerm) []obj {
	out := []obj{}
	for _, t := range ts {
		fn := "all"
		if t.ThresholdOccurrences == "AT_LEAST_ONCE" {
			fn = "any"
		}
		op := strings.ToLower(t.Operator)
		if op == "equals" {
			op = "equal"
		}
		out = append(out, obj{"duration": strconv.FormatFloat(t.ThresholdDuration/60, 'f', -1, 64), "operator": op,
			"priority": strings.ToLower(t.Priority), "threshold": strconv.FormatFloat(t.Threshold, 'f', -1, 64), "time_function": fn})
	}
	return out
}

// appIDPattern finds the application ids a condition's query names: `appId IN (…)` or
// `appId = n`.
var appIDPattern = regexp.MustCompile(`(?i)\bappId\s*(?:IN\s*\(([0-9,\s]+)\)|=\s*([0-9]+))`)

// appIDs are the application ids a condition's query names by appId, as strings (REST
// listed a condition's entities so), or nil. REST kept a legacy condition's entities
// itself; the demo data holds only the condition's NRQL form, whose WHERE clause names
// them.
func appIDs(query string) any {
	var out []string
	for _, m := range appIDPattern.FindAllStringSubmatch(query, -1) {
		for _, id := range strings.Split(m[1]+m[2], ",") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
	}
	if out == nil {
		return nil
	}
	return out
}
