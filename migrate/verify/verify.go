package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Verdicts of one field.
const (
	Equal        = "equal"
	WithinTol    = "within_tolerance"
	Different    = "different"
	MissingREST  = "missing_in_rest"
	MissingGraph = "missing_in_translation"
)

// Side is one end of the comparison: a REST v2 base URL (…/v2 is appended to paths'
// /v2 prefix as given) reached with Client.
type Side struct {
	// Base is scheme://host[:port] plus any prefix before /v2 (no trailing slash),
	// e.g. https://api.newrelic.com.
	Base   string
	Client *http.Client
	// Header is added to every request (the API key, an account selector); never
	// written to the report or a log.
	Header http.Header
}

// Config is one verify run.
type Config struct {
	REST, Translation Side
	// Sample is how many objects of each kind are compared (default 3).
	Sample int
	// Tolerance is the relative difference numbers may have and still count as
	// within tolerance (default 0.05, compare mode's default).
	Tolerance float64
	// PerMinute paces requests to each side (default 500: half REST v2's 1000 per
	// minute per key, leaving room for the account's other callers).
	PerMinute int
	// Progress receives a progress bar while the run goes (nil: none), redrawn in place
	// with carriage returns when ProgressTerminal, else a plain line at each tenth of
	// the run (a file or a pipe).
	Progress         io.Writer
	ProgressTerminal bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Writes adds the write routes, on objects the run creates and removes itself
	// (WritePlan lists them); WriteApp, when set, is the application a deployment is
	// recorded on. Stamp names the objects (default: the start time).
	Writes   bool
	WriteApp int64
	Stamp    string
	// Notes are the routes' fidelity notes (gateway.Routes), by route name: a field that
	// is not equal and that its route's note names is marked declared (Field.Declared).
	Notes map[string]string
}

// Field is the verdict of one JSON leaf.
type Field struct {
	Path        string `json:"path"`
	Verdict     string `json:"verdict"`
	REST        any    `json:"rest,omitempty"`
	Translation any    `json:"translation,omitempty"`
	// Declared is the name, in the route's fidelity note, that declares this difference
	// ("" when the note does not name the field); Reason is the note's clause naming it.
	Declared string `json:"declared,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Exchange is one request sent to both sides.
type Exchange struct {
	Route             string  `json:"route"`
	Path              string  `json:"path"`
	RESTStatus        int     `json:"rest_status"`
	TranslationStatus int     `json:"translation_status"`
	RESTMillis        float64 `json:"rest_ms"`
	TranslationMillis float64 `json:"translation_ms"`
	// RoundTrips are the translation's NerdGraph calls (X-V2bridge-Upstream-Calls).
	RoundTrips int `json:"nerdgraph_round_trips"`
	// Error says why the exchange could not be compared because a side failed;
	// NotCompared why it was not compared because a side does not serve the route (it
	// answered 501 Not Implemented, as the demo's REST double does for the routes it
	// leaves out): not an error.
	Error       string         `json:"error,omitempty"`
	NotCompared string         `json:"not_compared,omitempty"`
	Counts      map[string]int `json:"counts"`
	// Fields lists every field that is not equal (equal fields are only counted).
	Fields []Field `json:"fields,omitempty"`
}

// RouteSummary adds a route's exchanges up.
type RouteSummary struct {
	Route       string         `json:"route"`
	Requests    int            `json:"requests"`
	Errors      int            `json:"errors"`
	NotCompared int            `json:"not_compared"`
	Counts      map[string]int `json:"counts"`
	// Declared are the differences of Counts (different, missing on a side) that the
	// route's fidelity note declares, by verdict.
	Declared          map[string]int `json:"declared,omitempty"`
	RoundTrips        int            `json:"nerdgraph_round_trips"`
	RESTMillis        float64        `json:"rest_ms"`
	TranslationMillis float64        `json:"translation_ms"`
}

// Report is the outcome of a run.
type Report struct {
	Started   time.Time      `json:"started"`
	Finished  time.Time      `json:"finished"`
	REST      string         `json:"rest"`
	Sample    int            `json:"sample"`
	Tolerance float64        `json:"tolerance"`
	Routes    []RouteSummary `json:"routes"`
	Exchanges []Exchange     `json:"exchanges"`
}

// Differences are the fields that are different or missing on one side, over all
// exchanges, as "route path field: verdict".
func (r *Report) Differences() []string {
	var out []string
	for _, x := range r.Exchanges {
		for _, f := range x.Fields {
			if f.Verdict != WithinTol {
				line := x.Path + " " + f.Path + ": " + f.Verdict
				if f.Declared != "" {
					line += " (declared: " + f.Reason + ")"
				}
				out = append(out, line)
			}
		}
	}
	sort.Strings(out)
	return out
}

type runner struct {
	cfg   Config
	rep   *Report
	last  map[*Side]time.Time
	gap   time.Duration
	done  int
	total int
	tenth int // the last tenth of the run a plain progress line was written for
	// tenthOf is the total that tenth was counted against: the plan grows by stages,
	// and a larger total counts its tenths afresh.
	tenthOf int
	// lastREST is the REST side's answer to the latest exchange.
	lastREST answer
	// clock and sleep are time.Now and sleepCtx; tests replace them to check the pacing
	// and the 429 waits without waiting.
	clock func() time.Time
	sleep func(ctx context.Context, d time.Duration) bool
}

// sideTimeout bounds one request of a side whose Client is nil.
const sideTimeout = time.Minute

func sideClient() *http.Client { return &http.Client{Timeout: sideTimeout} }

// sleepCtx waits d, or until ctx is done; it reports whether the whole wait passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Run discovers the sample and compares every read route. It fails only when the REST
// side's application list cannot be read (nothing to sample); a failing request is an
// exchange with Error set.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Sample <= 0 {
		cfg.Sample = 3
	}
	if cfg.Tolerance <= 0 {
		cfg.Tolerance = 0.05
	}
	if cfg.PerMinute <= 0 {
		cfg.PerMinute = 500
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	for _, s := range []*Side{&cfg.REST, &cfg.Translation} {
		if s.Client == nil {
			s.Client = sideClient()
		}
	}
	r := &runner{cfg: cfg, rep: &Report{Started: cfg.Now(), REST: strings.TrimSuffix(cfg.REST.Base, "/") + "/v2", Sample: cfg.Sample, Tolerance: cfg.Tolerance},
		last: map[*Side]time.Time{}, gap: time.Minute / time.Duration(cfg.PerMinute), clock: time.Now, sleep: sleepCtx}
	if err := r.discoverAndCompare(ctx); err != nil {
		if cfg.Progress != nil && cfg.ProgressTerminal {
			fmt.Fprintln(cfg.Progress) // the error starts on a line of its own
		}
		return nil, err
	}
	if cfg.Writes {
		r.total += 5
		if cfg.WriteApp != 0 {
			r.total++
		}
		r.writes(ctx)
	}
	r.rep.Finished = cfg.Now()
	r.rep.Routes = summarize(r.rep.Exchanges)
	if cfg.Progress != nil && cfg.ProgressTerminal {
		fmt.Fprintln(cfg.Progress)
	}
	return r.rep, nil
}

// request is one read of the plan. Metric data is not compared: its values depend on
// the second each side is asked, so a comparison would report time, not translation.
type request struct{ route, path string }

func (r *runner) discoverAndCompare(ctx context.Context) error {
	n := r.cfg.Sample
	stage1 := []request{
		{"applications.list", "/v2/applications.json"},
		{"key_transactions.list", "/v2/key_transactions.json"},
		{"browser_applications.list", "/v2/browser_applications.json"},
		{"mobile_applications.list", "/v2/mobile_applications.json"},
		{"alerts_policies.list", "/v2/alerts_policies.json"},
		{"alerts_violations.list", "/v2/alerts_violations.json"},
		{"alerts_incidents.list", "/v2/alerts_incidents.json"},
		{"alerts_events.list", "/v2/alerts_events.json"},
	}
	r.total = len(stage1)
	bodies := map[string][]byte{}
	var appsAnswer answer
	for _, q := range stage1 {
		bodies[q.route] = r.exchange(ctx, q)
		if q.route == "applications.list" {
			appsAnswer = r.lastREST
		}
	}
	if bodies["applications.list"] == nil {
		return fmt.Errorf("verify: the REST side did not list applications: %s", failureCause(r.cfg.REST.Base, appsAnswer))
	}
	apps := ids(bodies["applications.list"], "applications", n)
	var stage2 []request
	for _, name := range appNames(bodies["applications.list"], n) {
		for _, p := range nameProbes(name) {
			stage2 = append(stage2, request{"applications.list", "/v2/applications.json?filter[name]=" + url.QueryEscape(p)})
		}
	}
	for _, id := range apps {
		a := "/v2/applications/" + id
		stage2 = append(stage2, request{"applications.show", a + ".json"}, request{"application_hosts.list", a + "/hosts.json"},
			request{"application_instances.list", a + "/instances.json"}, request{"deployments.list", a + "/deployments.json"},
			request{"applications.metrics", a + "/metrics.json"},
			request{"alerts_entity_conditions.list", "/v2/alerts_entity_conditions/" + id + ".json?entity_type=Application"})
	}
	for _, id := range ids(bodies["key_transactions.list"], "key_transactions", n) {
		stage2 = append(stage2, request{"key_transactions.show", "/v2/key_transactions/" + id + ".json"})
	}
	for _, id := range ids(bodies["mobile_applications.list"], "mobile_applications", n) {
		stage2 = append(stage2, request{"mobile_applications.show", "/v2/mobile_applications/" + id + ".json"})
	}
	for _, id := range ids(bodies["alerts_policies.list"], "policies", n) {
		stage2 = append(stage2, request{"alerts_conditions.list", "/v2/alerts_conditions.json?policy_id=" + id},
			request{"alerts_nrql_conditions.list", "/v2/alerts_nrql_conditions.json?policy_id=" + id},
			request{"alerts_synthetics_conditions.list", "/v2/alerts_synthetics_conditions.json?policy_id=" + id})
	}
	r.total += len(stage2)
	var stage3 []request
	for _, q := range stage2 {
		b := r.exchange(ctx, q)
		switch q.route {
		case "application_hosts.list":
			for _, id := range ids(b, "application_hosts", 1) {
				stage3 = append(stage3, request{"application_hosts.show", strings.TrimSuffix(q.path, ".json") + "/" + id + ".json"})
			}
		case "application_instances.list":
			for _, id := range ids(b, "application_instances", 1) {
				stage3 = append(stage3, request{"application_instances.show", strings.TrimSuffix(q.path, ".json") + "/" + id + ".json"})
			}
		}
	}
	r.total += len(stage3)
	for _, q := range stage3 {
		r.exchange(ctx, q)
	}
	return nil
}

// ids are the first n ids of the objects under key.
func ids(body []byte, key string, n int) []string {
	var doc map[string]json.RawMessage
	var objs []map[string]any
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc[key], &objs) != nil {
		return nil
	}
	var out []string
	for _, o := range objs {
		if len(out) == n {
			break
		}
		if id, ok := o["id"].(float64); ok {
			out = append(out, strconv.FormatInt(int64(id), 10))
		}
	}
	return out
}

// appNames are the names of the first n applications of a list.
func appNames(body []byte, n int) []string {
	var doc struct {
		Applications []struct {
			Name string `json:"name"`
		} `json:"applications"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return nil
	}
	var out []string
	for _, a := range doc.Applications {
		if len(out) == n {
			break
		}
		if a.Name != "" {
			out = append(out, a.Name)
		}
	}
	return out
}

// nameProbes are filter[name] values cut from an application's name, one for each way a
// server-side name match can differ from REST's case-insensitive substring match: a
// fragment inside a word, the name in the other case, and a fragment across a
// separator. NerdGraph's entity search documents its name LIKE only as a fuzzy token
// match (docs/performance.md, filter[name]), so the translation's answer to these is the
// evidence, on the caller's own account, that its list holds every application REST's
// holds: one it drops is reported missing_in_translation.
func nameProbes(name string) []string {
	var runs [][2]int // the name's maximal runs of letters and digits, as rune offsets
	rs := []rune(name)
	for i := 0; i < len(rs); {
		if !alnum(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && alnum(rs[j]) {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	var out []string
	add := func(p string) {
		if strings.TrimSpace(p) != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	longest := [2]int{}
	for _, r := range runs {
		if r[1]-r[0] > longest[1]-longest[0] {
			longest = r
		}
	}
	if longest[1]-longest[0] >= 4 {
		add(string(rs[longest[0]+1 : longest[1]-1]))
	}
	if up := strings.ToUpper(name); up != name {
		add(up)
	} else {
		add(strings.ToLower(name))
	}
	if len(runs) >= 2 {
		a, b := runs[0], runs[1]
		add(string(rs[max(a[0], a[1]-2):min(b[1], b[0]+2)]))
	}
	return out
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// answer is one side's reply.
type answer struct {
	status     int
	body       []byte
	took       time.Duration
	roundTrips int
	err        error
}

func (r *runner) pace(ctx context.Context, s *Side) {
	if wait := r.gap - r.clock().Sub(r.last[s]); wait > 0 {
		r.sleep(ctx, wait)
	}
	r.last[s] = r.clock()
}

func (r *runner) call(ctx context.Context, s *Side, path string) answer {
	for attempt := 0; ; attempt++ {
		r.pace(ctx, s)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Base+path, nil)
		if err != nil {
			return answer{err: err}
		}
		for k, v := range s.Header {
			req.Header[k] = v
		}
		start := time.Now()
		resp, err := s.Client.Do(req)
		if err != nil {
			return answer{err: redact(err)}
		}
		body, err := readAll(resp.Body)
		_ = resp.Body.Close()
		a := answer{status: resp.StatusCode, body: body, took: time.Since(start), err: err}
		a.roundTrips, _ = strconv.Atoi(resp.Header.Get("X-V2bridge-Upstream-Calls"))
		if resp.StatusCode == http.StatusTooManyRequests && attempt < 2 {
			// Respect the side's rate limit: wait as told (at most a minute), then retry.
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			if !r.sleep(ctx, time.Duration(min(max(secs, 1), 60))*time.Second) {
				return a
			}
			continue
		}
		return a
	}
}

// maxBody bounds an answer read for comparison.
const maxBody = 32 << 20

// readAll reads an answer, refusing (not truncating) one larger than maxBody.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err == nil && len(b) > maxBody {
		return nil, fmt.Errorf("answer larger than %d MiB, not compared", maxBody>>20)
	}
	return b, err
}

// redact keeps a transport error's kind without the URL's query.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// exchange sends q to both sides, records the comparison and returns REST's body.
func (r *runner) exchange(ctx context.Context, q request) []byte {
	rest := r.call(ctx, &r.cfg.REST, q.path)
	r.lastREST = rest
	tr := r.call(ctx, &r.cfg.Translation, q.path)
	x := Exchange{Route: q.route, Path: q.path, RESTStatus: rest.status, TranslationStatus: tr.status,
		RESTMillis: ms(rest.took), TranslationMillis: ms(tr.took), RoundTrips: tr.roundTrips, Counts: map[string]int{}}
	switch {
	case rest.err != nil:
		x.Error = "REST side: " + rest.err.Error()
	case tr.err != nil:
		x.Error = "translation side: " + tr.err.Error()
	case rest.status == http.StatusNotImplemented:
		x.NotCompared = "the REST side does not serve this route (501)"
	case tr.status == http.StatusNotImplemented:
		x.NotCompared = "the translation does not serve this route (501)"
	case rest.status >= 500 || rest.status == http.StatusTooManyRequests:
		x.Error = "REST side answered " + strconv.Itoa(rest.status)
	case tr.status >= 500 || tr.status == http.StatusTooManyRequests:
		x.Error = "translation side answered " + strconv.Itoa(tr.status)
	default:
		if rest.status != tr.status {
			x.Fields = append(x.Fields, Field{Path: "$status", Verdict: Different, REST: rest.status, Translation: tr.status})
			x.Counts[Different]++
		}
		var a, b any
		if json.Unmarshal(rest.body, &a) != nil || json.Unmarshal(tr.body, &b) != nil {
			x.Error = "a side's body is not JSON"
			break
		}
		compareValue("$", a, b, r.cfg.Tolerance, &x)
	}
	r.declare(&x)
	r.rep.Exchanges = append(r.rep.Exchanges, x)
	r.done++
	r.progress(q.path)
	if rest.err != nil || rest.status != http.StatusOK {
		return nil
	}
	return rest.body
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }

func (r *runner) progress(path string) {
	if r.cfg.Progress == nil {
		return
	}
	if !r.cfg.ProgressTerminal {
		// A line when the run passes a tenth of the requests known then (and at its
		// first request), no redraws. When a stage adds requests, the tenths count afresh
		// from where the run stands, so the lines go on to the run's last request.
		if r.total != r.tenthOf {
			r.tenth, r.tenthOf = 10*(r.done-1)/max(r.total, 1), r.total
		}
		if tenth := 10 * r.done / max(r.total, 1); r.done == 1 || tenth > r.tenth {
			r.tenth = tenth
			fmt.Fprintf(r.cfg.Progress, "verify: %d of %d requests (%d%%), now %s\n", r.done, r.total, 100*r.done/max(r.total, 1), path)
		}
		return
	}
	const width = 30
	filled := width * r.done / max(r.total, 1)
	fmt.Fprintf(r.cfg.Progress, "\r[%s%s] %d/%d %-60.60s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), r.done, r.total, path)
}

// unionKeys is the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	u := maps.Clone(a)
	if u == nil {
		u = map[string]V{}
	}
	maps.Copy(u, b)
	return slices.Sorted(maps.Keys(u))
}

// compareValue walks both values: objects by key, arrays of objects by their id (else
// by index), leaves by value with the numeric tolerance.
func compareValue(path string, a, b any, tol float64, x *Exchange) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for _, k := range unionKeys(am, bm) {
			av, ina := am[k]
			bv, inb := bm[k]
			p := path + "." + k
			switch {
			case !ina:
				x.add(Field{Path: p, Verdict: MissingREST, Translation: bv})
			case !inb:
				x.add(Field{Path: p, Verdict: MissingGraph, REST: av})
			default:
				compareValue(p, av, bv, tol, x)
			}
		}
		return
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		ak, bk := byID(as), byID(bs)
		if ak != nil && bk != nil {
			for _, k := range unionKeys(ak, bk) {
				av, ina := ak[k]
				bv, inb := bk[k]
				p := path + "[id=" + k + "]"
				switch {
				case !ina:
					x.add(Field{Path: p, Verdict: MissingREST, Translation: bv})
				case !inb:
					x.add(Field{Path: p, Verdict: MissingGraph, REST: av})
				default:
					compareValue(p, av, bv, tol, x)
				}
			}
			return
		}
		for i := 0; i < max(len(as), len(bs)); i++ {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(as):
				x.add(Field{Path: p, Verdict: MissingREST, Translation: bs[i]})
			case i >= len(bs):
				x.add(Field{Path: p, Verdict: MissingGraph, REST: as[i]})
			default:
				compareValue(p, as[i], bs[i], tol, x)
			}
		}
		return
	}
	af, aNum := a.(float64)
	bf, bNum := b.(float64)
	switch {
	case aNum && bNum && af == bf:
		x.Counts[Equal]++
	case aNum && bNum && math.Abs(af-bf) <= tol*math.Max(math.Abs(af), math.Abs(bf)):
		x.add(Field{Path: path, Verdict: WithinTol, REST: a, Translation: b})
	case leafEqual(a, b):
		x.Counts[Equal]++
	default:
		x.add(Field{Path: path, Verdict: Different, REST: a, Translation: b})
	}
}

func (x *Exchange) add(f Field) {
	x.Counts[f.Verdict]++
	x.Fields = append(x.Fields, f)
}

func leafEqual(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}

// byID indexes an array of objects that all have an id (nil otherwise).
func byID(xs []any) map[string]any {
	if len(xs) == 0 {
		return map[string]any{}
	}
	out := map[string]any{}
	for _, v := range xs {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		id, ok := m["id"]
		if !ok {
			return nil
		}
		b, _ := json.Marshal(id)
		out[string(b)] = v
	}
	return out
}

func summarize(xs []Exchange) []RouteSummary {
	by := map[string]*RouteSummary{}
	var order []string
	for _, x := range xs {
		s := by[x.Route]
		if s == nil {
			s = &RouteSummary{Route: x.Route, Counts: map[string]int{}}
			by[x.Route] = s
			order = append(order, x.Route)
		}
		s.Requests++
		if x.Error != "" {
			s.Errors++
		}
		if x.NotCompared != "" {
			s.NotCompared++
		}
		for k, v := range x.Counts {
			s.Counts[k] += v
		}
		for _, f := range x.Fields {
			if f.Declared != "" && f.Verdict != Equal && f.Verdict != WithinTol {
				if s.Declared == nil {
					s.Declared = map[string]int{}
				}
				s.Declared[f.Verdict]++
			}
		}
		s.RoundTrips += x.RoundTrips
		s.RESTMillis += x.RESTMillis
		s.TranslationMillis += x.TranslationMillis
	}
	out := make([]RouteSummary, 0, len(order))
	for _, r := range order {
		out = append(out, *by[r])
	}
	return out
}
