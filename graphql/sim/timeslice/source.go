package timeslice

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/graphql/sim/nrdb"
)

// App is one APM application the source generates Metric rows for.
type App struct {
	AccountID int
	AppID     int64
	AppName   string
	GUID      string
	ApdexT    float64
	Instances []Instance
	// Names are its metric names (DefaultNames when empty).
	Names  []string
	scopes []string // Scopes(Names)
}

// Instance is one agent instance of an application.
type Instance struct {
	ID   int64
	Host string
	// Since is when the instance started reporting (zero: always): it has no rows
	// before it, and none are generated.
	Since time.Time
}

// Source serves Metric rows for a fixed set of reporting applications.
type Source struct {
	gen    Generator
	apps   []App
	byID   map[int64]int
	byGUID map[string]int
}

// NewSource returns a source over apps (only reporting applications belong here).
func NewSource(gen Generator, apps []App) *Source {
	s := &Source{gen: gen, apps: apps, byID: map[int64]int{}, byGUID: map[string]int{}}
	for i := range s.apps {
		if len(s.apps[i].Names) == 0 {
			s.apps[i].Names = defaultNames
		}
		s.apps[i].scopes = Scopes(s.apps[i].Names)
		s.byID[s.apps[i].AppID] = i
		s.byGUID[s.apps[i].GUID] = i
	}
	return s
}

type row struct {
	app    *App
	inst   *Instance
	name   string
	scope  string // "" for the unscoped row, which has no scope attribute
	minute time.Time
	ts     nrdb.Timeslice
}

func (r *row) Get(attr string) (any, bool) {
	switch attr {
	case "appId":
		return float64(r.app.AppID), true
	case "appName":
		return r.app.AppName, true
	case "host":
		return r.inst.Host, true
	case "realAgentId":
		// A string: the only documented comparison quotes it (realAgentId = '$AGENT_ID',
		// https://docs.newrelic.com/docs/apis/rest-api-v2/migrate-to-nrql/).
		return strconv.FormatInt(r.inst.ID, 10), true
	case "metricTimesliceName":
		return r.name, true
	case "scope":
		if r.scope == "" {
			return nil, false
		}
		return r.scope, true
	case "entity.guid":
		return r.app.GUID, true
	case "timestamp":
		return float64(r.minute.UnixMilli()), true
	case "newrelic.timeslice.value":
		return r.ts, true
	}
	return nil, false
}

func (r *row) Timestamp() time.Time { return r.minute }
func (r *row) EventType() string    { return "Metric" }

// Scan implements nrdb.Source for event type Metric, generating only rows that can
// match the scan's hints.
func (s *Source) Scan(ctx context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	if !slices.Contains(sc.EventTypes, "Metric") {
		return nil
	}
	apps := s.candidates(sc.Hints)
	names := stringHint(sc.Hints["metricTimesliceName"])
	hosts := stringHint(sc.Hints["host"])
	agents := stringHint(sc.Hints["realAgentId"])
	start := sc.Begin.Truncate(time.Minute)
	if start.Before(sc.Begin) {
		start = start.Add(time.Minute)
	}
	r := &row{}
	for _, i := range apps {
		app := &s.apps[i]
		if !slices.Contains(sc.Accounts, app.AccountID) {
			continue
		}
		for k := range app.Instances {
			inst := &app.Instances[k]
			if hosts != nil && !hosts[inst.Host] || agents != nil && !agents[strconv.FormatInt(inst.ID, 10)] {
				continue
			}
			for _, name := range app.Names {
				if names != nil && !names[name] {
					continue
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				var scopes []string
				if Scoped(name) {
					scopes = app.scopes
				}
				first := start
				if inst.Since.After(first) {
					first = inst.Since.Truncate(time.Minute)
					if first.Before(inst.Since) {
						first = first.Add(time.Minute)
					}
				}
				for m := first; m.Before(sc.End); m = m.Add(time.Minute) {
					*r = row{app: app, inst: inst, name: name, minute: m,
						ts: s.gen.Timeslice(app.AppID, inst.ID, name, m, app.ApdexT)}
					if !fn(r) {
						return nil
					}
					for _, scope := range scopes {
						*r = row{app: app, inst: inst, name: name, scope: scope, minute: m,
							ts: s.gen.ScopedTimeslice(app.AppID, inst.ID, name, scope, m, app.ApdexT)}
						if !fn(r) {
							return nil
						}
					}
				}
			}
		}
	}
	return nil
}

func (s *Source) candidates(h map[string][]any) []int {
	var out []int
	if ids, ok := h["appId"]; ok {
		for _, v := range ids {
			if f, ok := num(v); ok {
				if i, ok := s.byID[int64(f)]; ok {
					out = append(out, i)
				}
			}
		}
		return out
	}
	if gs, ok := h["entity.guid"]; ok {
		for _, v := range gs {
			if g, ok := v.(string); ok {
				if i, ok := s.byGUID[g]; ok {
					out = append(out, i)
				}
			}
		}
		return out
	}
	out = make([]int, len(s.apps))
	for i := range out {
		out[i] = i
	}
	return out
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func stringHint(vs []any) map[string]bool {
	if vs == nil {
		return nil
	}
	m := map[string]bool{}
	for _, v := range vs {
		switch x := v.(type) {
		case string:
			m[x] = true
		case float64:
			m[strconv.FormatFloat(x, 'f', -1, 64)] = true
		}
	}
	return m
}

// Totals are one application's timeslice sums over a window, by metric name.
type Totals map[string]nrdb.Timeslice

// Totals sums the named metrics of one application over all its instances in
// [from, to) (whole minutes), unscoped rows only. ok is false for an unknown or
// non-reporting application.
func (s *Source) Totals(accountID int, appID int64, from, to time.Time, names ...string) (Totals, bool) {
	i, found := s.byID[appID]
	if !found || s.apps[i].AccountID != accountID {
		return nil, false
	}
	app := &s.apps[i]
	out := Totals{}
	for _, name := range names {
		var sum nrdb.Timeslice
		for _, in := range app.Instances {
			for m := from.Truncate(time.Minute); m.Before(to); m = m.Add(time.Minute) {
				ts := s.gen.Timeslice(app.AppID, in.ID, name, m, app.ApdexT)
				sum.Count += ts.Count
				sum.Total += ts.Total
				sum.TotalExclusive += ts.TotalExclusive
				sum.SumOfSquares += ts.SumOfSquares
			}
		}
		out[name] = sum
	}
	return out, true
}
