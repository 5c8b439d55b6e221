package migrate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/gateway"
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

// Defaults of the usage report's bounds.
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
// accepted reach the book (gateway/pipeline.go settles usage for accepted keys only), so a flood of made-up keys moves nothing.
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
