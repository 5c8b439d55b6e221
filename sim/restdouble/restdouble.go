package restdouble

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// Double answers REST API v2 requests (paths starting /v2/) from demo data.
type Double struct {
	data       *sim.Data
	now        func() time.Time
	summary    sim.SummaryFunc
	timeslices Totaler
}

// Options tune a double.
type Options struct {
	// Now is the clock of last_reported_at and of Summary (default time.Now).
	Now func() time.Time
	// Summary computes an application's summary figures, as the simulator's
	// sim.WithSummaries does (sim.DemoSummaries for the demo's); nil, or a nil result,
	// keeps the data file's figures.
	Summary sim.SummaryFunc
	// Timeslices are the metrics hosts', instances' and key transactions' summaries are
	// derived from (default: the demo's generated metrics over data, sim.DemoTimeslices).
	Timeslices Totaler
}

// New returns a double over data.
func New(data *sim.Data, opts Options) *Double {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeslices == nil {
		opts.Timeslices = sim.DemoTimeslices(data, opts.Now())
	}
	return &Double{data: data, now: opts.Now, summary: opts.Summary, timeslices: opts.Timeslices}
}

type obj = map[string]any

// ServeHTTP answers one request. A key is required in X-Api-Key (or Api-Key) and must be
// a user key of the data; X-Account-Id picks one of a multi-account key's accounts.
func (d *Double) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("X-Api-Key")
	if key == "" {
		key = r.Header.Get("Api-Key")
	}
	if key == "" {
		writeError(w, http.StatusUnauthorized, "No API key specified")
		return
	}
	acct := d.account(key, r.Header.Get("X-Account-Id"))
	if acct == nil {
		writeError(w, http.StatusUnauthorized, "Invalid API key")
		return
	}
	if r.Method != http.MethodGet {
		writeError(w, http.StatusNotImplemented, "The REST double answers GET requests only")
		return
	}
	p, ok := strings.CutSuffix(r.URL.Path, ".json")
	if !ok {
		writeError(w, http.StatusNotImplemented, "The REST double answers JSON only (paths ending .json)")
		return
	}
	parts := strings.Split(strings.TrimPrefix(p, "/v2/"), "/")
	q := r.URL.Query()
	switch {
	case len(parts) == 1 && parts[0] == "applications":
		d.applications(w, r, acct)
	case len(parts) == 2 && parts[0] == "applications":
		d.application(w, acct, parts[1])
	case len(parts) >= 3 && parts[0] == "applications" && (parts[2] == "hosts" || parts[2] == "instances") && len(parts) <= 4:
		a := d.app(acct, parts[1])
		if a == nil {
			writeError(w, http.StatusNotFound, "No Application found with the given ID")
			return
		}
		one := ""
		if len(parts) == 4 {
			one = parts[3]
		}
		if parts[2] == "hosts" {
			d.hosts(w, acct, a, one)
		} else {
			d.instances(w, acct, a, one)
		}
	case len(parts) == 3 && parts[0] == "applications" && parts[2] == "deployments":
		if d.app(acct, parts[1]) == nil {
			writeError(w, http.StatusNotFound, "No Application found with the given ID")
			return
		}
		writeJSON(w, http.StatusOK, obj{"deployments": []obj{}, "links": obj{"deployment.agent": "/v2/applications/{application_id}"}})
	case len(parts) == 1 && parts[0] == "key_transactions":
		d.keyTransactions(w, acct, "")
	case len(parts) == 2 && parts[0] == "key_transactions":
		d.keyTransactions(w, acct, parts[1])
	case len(parts) == 1 && parts[0] == "mobile_applications":
		d.mobileApplications(w, acct, "")
	case len(parts) == 2 && parts[0] == "mobile_applications":
		d.mobileApplications(w, acct, parts[1])
	case len(parts) == 1 && parts[0] == "alerts_policies":
		d.policies(w, acct, q.Get("filter[name]"))
	case len(parts) == 1 && parts[0] == "alerts_conditions":
		d.conditions(w, acct, q.Get("policy_id"), false)
	case len(parts) == 1 && parts[0] == "alerts_nrql_conditions":
		d.conditions(w, acct, q.Get("policy_id"), true)
	case len(parts) == 1 && parts[0] == "alerts_synthetics_conditions":
		writeJSON(w, http.StatusOK, obj{"synthetics_conditions": []obj{}})
	case len(parts) == 2 && parts[0] == "alerts_entity_conditions":
		writeJSON(w, http.StatusOK, obj{"conditions": []obj{}})
	default:
		writeError(w, http.StatusNotImplemented, "The REST double does not serve "+r.URL.Path)
	}
}

// account is the account a key reaches (the one named by header when it reaches several).
func (d *Double) account(key, header string) *sim.Account {
	for _, u := range d.data.Users {
		if u.Key != key || len(u.Accounts) == 0 {
			continue
		}
		want := u.Accounts[0]
		if header != "" {
			id, err := strconv.Atoi(header)
			if err != nil || !slices.Contains(u.Accounts, id) {
				return nil
			}
			want = id
		}
		for i := range d.data.Accounts {
			if d.data.Accounts[i].ID == want {
				return &d.data.Accounts[i]
			}
		}
	}
	return nil
}

func (d *Double) app(acct *sim.Account, id string) *sim.APMApplication {
	for i, a := range acct.APMApplications {
		if strconv.Itoa(a.ID) == id {
			return &acct.APMApplications[i]
		}
	}
	return nil
}

// pageSize is REST v2's page of applications.
const pageSize = 200

func (d *Double) applications(w http.ResponseWriter, r *http.Request, acct *sim.Account) {
	q := r.URL.Query()
	name, ids, language := q.Get("filter[name]"), q.Get("filter[ids]"), q.Get("filter[language]")
	out := []obj{}
	for i := range acct.APMApplications {
		a := &acct.APMApplications[i]
		if name != "" && !strings.Contains(strings.ToLower(a.Name), strings.ToLower(name)) {
			continue
		}
		if ids != "" && !slices.Contains(strings.Split(ids, ","), strconv.Itoa(a.ID)) {
			continue
		}
		if language != "" && !strings.EqualFold(language, a.Language) {
			continue
		}
		out = append(out, d.application1(acct, a))
	}
	// By name, case-insensitively, as REST's list and NerdGraph's entity search order them.
	slices.SortStableFunc(out, func(x, y obj) int {
		return strings.Compare(strings.ToLower(x["name"].(string)), strings.ToLower(y["name"].(string)))
	})
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	last := max(1, (len(out)+pageSize-1)/pageSize)
	if links := pageLinks(r, page, last); links != "" {
		w.Header().Set("Link", links)
	}
	out = out[min(len(out), (page-1)*pageSize):min(len(out), page*pageSize)]
	writeJSON(w, http.StatusOK, obj{"applications": out, "links": applicationLinks()})
}

// pageLinks is REST's Link header for page of last: next and last after it, first and
// prev before it, on the URL the caller asked (its path as sent, with any prefix the
// double is mounted under).
func pageLinks(r *http.Request, page, last int) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path, _, _ := strings.Cut(r.RequestURI, "?")
	link := func(n int, rel string) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		return fmt.Sprintf("<%s://%s%s?%s>; rel=%q", scheme, r.Host, path, q.Encode(), rel)
	}
	var out []string
	if page > 1 {
		out = append(out, link(1, "first"), link(page-1, "prev"))
	}
	if page < last {
		out = append(out, link(page+1, "next"), link(last, "last"))
	}
	return strings.Join(out, ", ")
}

func (d *Double) application(w http.ResponseWriter, acct *sim.Account, id string) {
	a := d.app(acct, id)
	if a == nil {
		writeError(w, http.StatusNotFound, "No Application found with the given ID")
		return
	}
	writeJSON(w, http.StatusOK, obj{"application": d.application1(acct, a), "links": applicationLinks()})
}

// application1 is an application object of REST v2's list and show answers.
func (d *Double) application1(acct *sim.Account, a *sim.APMApplication) obj {
	o := obj{"id": a.ID, "name": a.Name, "language": a.Language, "health_status": health(a.AlertSeverity, a.Reporting),
		"reporting": a.Reporting}
	instances, hosts := []int64{}, []int64{}
	seen := map[string]bool{}
	for _, in := range a.Instances {
		instances = append(instances, in.ID)
		if !seen[in.Host] {
			seen[in.Host] = true
			hosts = append(hosts, hostID(acct.ID, a.ID, in.Host))
		}
	}
	if a.Reporting {
		o["last_reported_at"] = d.lastReported(a)
	}
	if s := d.apmSummary(acct.ID, a); a.Reporting && s != nil {
		rt, tp := s.WebResponseTimeAverage, s.WebThroughput
		if tp <= 0 {
			rt, tp = s.NonWebResponseTimeAverage, s.NonWebThroughput
		}
		o["application_summary"] = obj{"response_time": round(rt*1000, 3), "throughput": round(tp, 3), "error_rate": round(s.ErrorRate, 3),
			"apdex_target": a.ApdexTarget, "apdex_score": apdex(s.ApdexScore), "host_count": len(hosts), "instance_count": len(instances)}
	}
	// REST showed end_user_apdex_threshold 7 for an application without browser
	// monitoring (the translation's note on applications.list says so too); the data
	// holds no browser Apdex score, so end_user_summary's is null.
	settings := obj{"app_apdex_threshold": a.ApdexTarget, "enable_real_user_monitoring": a.Browser != nil, "use_server_side_config": a.ServerSideConfig,
		"end_user_apdex_threshold": 7}
	if b := a.Browser; b != nil {
		settings["end_user_apdex_threshold"] = b.ApdexTarget
		if bs := b.Summary; a.Reporting && bs != nil {
			o["end_user_summary"] = obj{"response_time": round(bs.PageLoadTimeAverage, 3), "throughput": round(bs.PageLoadThroughput, 3),
				"apdex_target": b.ApdexTarget, "apdex_score": nil}
		}
	}
	o["settings"] = settings
	slices.Sort(instances)
	slices.Sort(hosts)
	o["links"] = obj{"application_instances": instances, "servers": []int64{}, "application_hosts": hosts}
	return o
}

// lastReported is a reporting application's last_reported_at, and its key
// transactions' (they report with it): the newest minute an instance of a has
// delivered, the newest minute of its metric data the simulator's NRQL holds. An
// instance's minute arrives timeslice.Generator.Arrival after the minute ends (its
// harvest), for REST's collector as for NRDB.
func (d *Double) lastReported(a *sim.APMApplication) string {
	now := d.now().UTC()
	newest := now.Truncate(time.Minute).Add(-time.Minute)
	if len(a.Instances) > 0 {
		gen := timeslice.Generator{Seed: sim.DemoSeed}
		newest = time.Time{}
		for _, in := range a.Instances {
			// Minute m is in once m + 1 min + Arrival <= now.
			if m := now.Add(-time.Minute - gen.Arrival(in.ID)).Truncate(time.Minute); m.After(newest) {
				newest = m
			}
		}
	}
	return newest.Format("2006-01-02T15:04:05+00:00")
}

// applicationLinks are the link templates of an application answer (REST's published
// example, tests/testdata/restv2/application_show.json, without alert_policy).
func applicationLinks() obj {
	return obj{
		"application.application_host":      "/v2/application/{application_id}/hosts/{host_id}",
		"application.application_hosts":     "/v2/application/{application_id}/hosts?ids={host_ids}",
		"application.application_instance":  "/v2/application/{application_id}/instances/{instance_id}",
		"application.application_instances": "/v2/application/{application_id}/instances?ids={instance_ids}",
		"application.server":                "/v2/servers/{server_id}",
		"application.servers":               "/v2/servers?ids={server_ids}",
	}
}

// apmSummary is an application's summary: Summary's figures at the clock, else the data
// file's.
func (d *Double) apmSummary(accountID int, a *sim.APMApplication) *sim.APMSummary {
	if d.summary != nil {
		if s := d.summary(accountID, int64(a.ID), d.now()); s != nil {
			return &sim.APMSummary{ApdexScore: deref(s.ApdexScore), ErrorRate: deref(s.ErrorRate),
				WebResponseTimeAverage: deref(s.WebResponseTimeAverage), NonWebResponseTimeAverage: deref(s.NonWebResponseTimeAverage),
				WebThroughput: deref(s.WebThroughput), NonWebThroughput: deref(s.NonWebThroughput)}
		}
	}
	return a.Summary
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// hosts answers an application's hosts (one: a host id, its show), each summary derived
// from the host's own timeslices (hostFigures); links.server is null (the data names no
// server).
func (d *Double) hosts(w http.ResponseWriter, acct *sim.Account, a *sim.APMApplication, one string) {
	out := []obj{}
	byHost := map[string][]int64{}
	var order []string
	for _, in := range a.Instances {
		if _, ok := byHost[in.Host]; !ok {
			order = append(order, in.Host)
		}
		byHost[in.Host] = append(byHost[in.Host], in.ID)
	}
	for _, h := range order {
		id := hostID(acct.ID, a.ID, h)
		if one != "" && strconv.FormatInt(id, 10) != one {
			continue
		}
		slices.Sort(byHost[h])
		o := obj{"id": id, "application_name": a.Name, "host": h, "language": a.Language,
			"health_status": health(a.AlertSeverity, a.Reporting), "links": obj{"application": a.ID, "application_instances": byHost[h], "server": nil}}
		if sum := d.hostSummary(acct.ID, a, byHost[h]); sum != nil {
			o["application_summary"] = sum
		}
		out = append(out, o)
	}
	links := obj{
		"application_host.application":           "/v2/applications/{application_id}",
		"application_host.application_instances": "/v2/application/{application_id}/instances?ids={instance_ids}",
		"application_host.application_instance":  "/v2/application/{application_id}/instances/{instance_id}",
		"application_host.server":                "/v2/servers/{server_id}",
	}
	writeOneOrList(w, "application_hosts", "application_host", "No Application Host found with the given ID", one, out, links)
}

// instances answers an application's instances (one: an instance id, its show), each
// summary derived from the instance's own timeslices, and a null port (the data holds
// none).
func (d *Double) instances(w http.ResponseWriter, acct *sim.Account, a *sim.APMApplication, one string) {
	out := []obj{}
	for _, in := range a.Instances {
		if one != "" && strconv.FormatInt(in.ID, 10) != one {
			continue
		}
		o := obj{"id": in.ID, "application_name": a.Name, "host": in.Host, "language": a.Language, "port": nil,
			"health_status": health(a.AlertSeverity, a.Reporting), "links": obj{"application": a.ID, "application_host": hostID(acct.ID, a.ID, in.Host), "server": nil}}
		if sum := d.hostSummary(acct.ID, a, []int64{in.ID}); sum != nil {
			o["application_summary"] = sum
		}
		out = append(out, o)
	}
	links := obj{
		"application_instance.application":      "/v2/applications/{application_id}",
		"application_instance.application_host": "/v2/application/{application_id}/hosts/{instance_id}",
		"application_instance.server":           "/v2/servers/{server_id}",
	}
	writeOneOrList(w, "application_instances", "application_instance", "No Application Instance found with the given ID", one, out, links)
}

// hostSummary is the application_summary of some of a's instances (a host's or one
// instance's), with their count (nil when a does not report).
func (d *Double) hostSummary(accountID int, a *sim.APMApplication, instances []int64) obj {
	if !a.Reporting {
		return nil
	}
	f, ok := d.hostFigures(accountID, a.ID, instances)
	if !ok {
		return nil
	}
	o := f.summary()
	o["instance_count"] = len(instances)
	return o
}

// writeOneOrList answers a list under listKey, or with one set its only object under
// oneKey (REST's 404 title notFound when there is none).
func writeOneOrList(w http.ResponseWriter, listKey, oneKey, notFound, one string, out []obj, links obj) {
	switch {
	case one == "":
		writeJSON(w, http.StatusOK, obj{listKey: out, "links": links})
	case len(out) == 0:
		writeError(w, http.StatusNotFound, notFound)
	default:
		writeJSON(w, http.StatusOK, obj{oneKey: out[0], "links": links})
	}
}

func (d *Double) keyTransactions(w http.ResponseWriter, acct *sim.Account, id string) {
	out := []obj{}
	for _, k := range acct.KeyTransactions {
		if id != "" && strconv.Itoa(k.ID) != id {
			continue
		}
		o := obj{"id": k.ID, "name": k.Name, "transaction_name": strings.TrimPrefix(k.MetricName, "WebTransaction/"),
			"links": obj{"application": k.AppID}}
		if a := d.app(acct, strconv.Itoa(k.AppID)); a != nil {
			// A key transaction's health is its own alert status, not its application's;
			// the demo data configures none for key transactions, which REST showed as
			// "unknown" (tests/testdata/restv2/key_transactions_list.json).
			o["health_status"], o["reporting"] = health("NOT_CONFIGURED", a.Reporting), a.Reporting
			if a.Reporting {
				o["last_reported_at"] = d.lastReported(a)
				// Its own figures, from its own timeslices (keyTxFigures), not its
				// application's.
				if f, ok := d.keyTxFigures(acct.ID, k.AppID, k.MetricName); ok {
					sum := f.summary()
					sum["apdex_target"] = k.ApdexTarget
					o["application_summary"] = sum
				}
			}
		}
		out = append(out, o)
	}
	links := obj{"key_transaction.application": "/v2/applications/{application_id}"}
	if id == "" {
		writeJSON(w, http.StatusOK, obj{"key_transactions": out, "links": links})
		return
	}
	if len(out) == 0 {
		writeError(w, http.StatusNotFound, "No Key Transaction found with the given ID")
		return
	}
	writeJSON(w, http.StatusOK, obj{"key_transaction": out[0], "links": links})
}

func (d *Double) mobileApplications(w http.ResponseWriter, acct *sim.Account, id string) {
	out := []obj{}
	for _, m := range acct.MobileApplications {
		if id != "" && strconv.Itoa(m.ID) != id {
			continue
		}
		o := obj{"id": m.ID, "name": m.Name, "health_status": health(m.AlertSeverity, m.Reporting), "reporting": m.Reporting}
		if s := m.Summary; m.Reporting && s != nil {
			perSession := 0.0
			if s.MobileSessionCount > 0 {
				perSession = round(float64(s.HTTPRequestCount)/float64(s.MobileSessionCount), 3)
			}
			// The figures the demo data does not hold are null, as the gateway sends them.
			o["mobile_summary"] = obj{"active_users": nil, "launch_count": s.AppLaunchCount, "throughput": round(s.HTTPRequestRate, 3),
				"response_time": s.HTTPResponseTimeAverage, "calls_per_session": perSession, "interaction_time": nil,
				"failed_call_rate": s.NetworkFailureRate, "remote_error_rate": s.HTTPErrorRate}
			o["crash_summary"] = obj{"supports_crash_data": true, "unresolved_crash_count": nil, "crash_count": s.CrashCount, "crash_rate": s.CrashRate}
		}
		out = append(out, o)
	}
	if id == "" {
		writeJSON(w, http.StatusOK, obj{"mobile_applications": out})
		return
	}
	if len(out) == 0 {
		writeError(w, http.StatusNotFound, "No Mobile Application found with the given ID")
		return
	}
	writeJSON(w, http.StatusOK, obj{"mobile_application": out[0]})
}

// health is REST's health_status for an alert severity.
func health(severity string, reporting bool) string {
	if !reporting {
		return "gray"
	}
	switch severity {
	case "NOT_ALERTING":
		return "green"
	case "WARNING":
		return "orange"
	case "CRITICAL":
		return "red"
	}
	return "unknown"
}

// round keeps n significant digits, as REST's summaries show them.
func round(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

// apdex is an Apdex score as REST shows it, two decimals.
func apdex(v float64) float64 { return math.Round(v*100) / 100 }

func writeError(w http.ResponseWriter, status int, title string) {
	writeJSON(w, status, obj{"error": obj{"title": title}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		_, _ = fmt.Fprintln(w)
	}
}

// hostID is an application host's id. REST numbers hosts itself and NerdGraph has no
// such id; the double gives the gateway's documented surrogate (31 bits of the SHA-256
// of "host|account|application|hostname", never 0: the fidelity note of
// application_hosts.list) so that the ids it lists can be followed through the gateway
// on the demo. It is computed here, not imported: the double shares no code with the
// translation it is compared with.
func hostID(accountID, appID int, host string) int64 {
	sum := sha256.Sum256([]byte("host|" + strconv.Itoa(accountID) + "|" + strconv.Itoa(appID) + "|" + host))
	if id := int64(binary.BigEndian.Uint64(sum[:8]) & 0x7fffffff); id != 0 {
		return id
	}
	return 1
}
