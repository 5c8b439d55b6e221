package main

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/v2bridge/v2bridge/sim"
)

// The fleet journeys: an account that changes, behind two replicas on one store
// (store.shared_cache), as scripts on a big account would use it. Each step is one row
// of the journeys table, its round trips counted at the upstream once the gateway's
// background reads it caused have ended (settle): a cold lookup by name on replica 1;
// replica 2's first lookup in the warm fleet; an application renamed through replica 1
// and looked up by its new name on both; replica 2 restarted and its first lookup; and
// sweeps, the metric data of 100 and of 1,000 applications one after another after
// listing them.

// fleetStarter starts one replica on the fleet's store: its base URL and its stop.
type fleetStarter func() (base string, stop func(), err error)

// sweepWindows are the sweeps' windows: one each, so that no sweep finds another's
// answers cached.
var sweepWindows = []string{"&from=2026-11-20T10:30:00Z&to=2026-11-20T11:00:00Z", "&from=2026-11-20T11:00:00Z&to=2026-11-20T11:30:00Z"}

// runFleetJourneys runs the fleet's steps on account l; settle waits until the upstream
// has seen no request for a while.
func runFleetJourneys(start fleetStarter, p *upstreamProxy, l sim.LargeAccount, settle func()) ([]journeyResult, error) {
	r1, stop1, err := start()
	if err != nil {
		return nil, err
	}
	defer stop1()
	r2, stop2, err := start()
	if err != nil {
		return nil, err
	}
	defer func() { stop2() }()
	var out []journeyResult
	step := func(title string, f func(c1, c2 *journeyClient) error) {
		c1, c2 := &journeyClient{base: r1, l: l}, &journeyClient{base: r2, l: l}
		settle()
		before, t0 := p.trips.Load(), time.Now()
		err := f(c1, c2)
		took := time.Since(t0)
		settle()
		trips := p.trips.Load() - before
		r := journeyResult{Journey: title, Apps: l.Apps, Runs: 1, Trips: []int64{trips}, ColdTrips: trips,
			ColdHeaderTrips: c1.calls + c2.calls, ColdMs: ms(took), Errors: c1.errs + c2.errs}
		if err != nil {
			r.Err = err.Error()
			r.Errors = max(r.Errors, 1)
		}
		out = append(out, r)
	}
	app := func(k int) (int64, string) {
		i := journeyApp(l, 0, k) % l.Apps
		return int64(l.LargeAppID(i)), l.LargeAppName(i)
	}
	step("fleet: replica 1 cold, lookup by exact name", func(c1, _ *journeyClient) error {
		_, name := app(3)
		return lookupName(c1, name)
	})
	step("fleet: replica 2 joins the warm fleet, lookup", func(_, c2 *journeyClient) error {
		_, name := app(4)
		return lookupName(c2, name)
	})
	step("fleet: rename on replica 1, lookup on each replica", func(c1, c2 *journeyClient) error {
		id, name := app(5)
		renamed := "renamed " + name
		if _, err := c1.do(http.MethodPut, fmt.Sprintf("/v2/applications/%d.json", id),
			fmt.Sprintf(`{"application":{"name":%q}}`, renamed), http.StatusOK); err != nil {
			return err
		}
		if err := lookupName(c1, renamed); err != nil {
			return err
		}
		return lookupName(c2, renamed)
	})
	step("fleet: replica 2 restarted, first lookup", func(_, _ *journeyClient) error {
		stop2()
		if r2, stop2, err = start(); err != nil {
			stop2 = func() {}
			return err
		}
		_, name := app(6)
		return lookupName(&journeyClient{base: r2, l: l}, name)
	})
	for k, n := range []int{100, 1000} {
		n = min(n, l.Apps)
		step(fmt.Sprintf("sweep: list, metric data of %d applications in turn", n), func(c1, _ *journeyClient) error {
			return sweep(c1, n, sweepWindows[k])
		})
	}
	return out, nil
}

var sweepIDRe = regexp.MustCompile(`\{"id":(\d+),"name"`)

// lookupName looks name up by filter[name] and fails unless an application bears it.
func lookupName(c *journeyClient, name string) error {
	a, err := c.get("/v2/applications.json?filter[name]="+url.QueryEscape(name), nil)
	if err != nil {
		return err
	}
	if len(sweepIDRe.FindAllSubmatch(a.body, -1)) == 0 {
		return fmt.Errorf("lookup: no application named %q", name)
	}
	return nil
}

// sweep lists the account's first n applications and reads the metric data of each in
// list order.
func sweep(c *journeyClient, n int, window string) error {
	var ids []string
	for page := 1; len(ids) < n; page++ {
		a, err := c.get("/v2/applications.json?page="+strconv.Itoa(page), nil)
		if err != nil {
			return err
		}
		found := sweepIDRe.FindAllSubmatch(a.body, -1)
		if len(found) == 0 {
			break
		}
		for _, m := range found {
			ids = append(ids, string(m[1]))
		}
	}
	for _, id := range ids[:min(n, len(ids))] {
		if _, err := c.get("/v2/applications/"+id+"/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex"+window, nil); err != nil {
			return err
		}
	}
	return nil
}

// fleetJourneyStore is the fleet journeys' store: redis-server or valkey-server when on
// PATH, else an in-process miniredis.
func fleetJourneyStore() (storeURL string, stop func(), err error) {
	if bin := storeServer(); bin != "" {
		addr, stop, err := startStore(bin)
		return "redis://" + addr, stop, err
	}
	m, err := miniredis.Run()
	if err != nil {
		return "", nil, err
	}
	return "redis://" + m.Addr(), m.Close, nil
}

// settleUpstream waits until p has seen no request for quiet (at most a minute).
func settleUpstream(p *upstreamProxy, quiet time.Duration) func() {
	return func() {
		last := p.trips.Load()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
			time.Sleep(quiet)
			n := p.trips.Load()
			if n == last {
				return
			}
			last = n
		}
	}
}

// fleetJourneysMain runs the fleet journeys on account l, whose upstream (behind p) is
// at upstream, with replicas in processes of their own.
func fleetJourneysMain(upstream string, p *upstreamProxy, l sim.LargeAccount, latency time.Duration) ([]journeyResult, error) {
	storeURL, stopStore, err := fleetJourneyStore()
	if err != nil {
		return nil, err
	}
	defer stopStore()
	start := func() (string, func(), error) {
		c, err := startFleetChild(upstream, storeURL)
		if err != nil {
			return "", func() {}, err
		}
		return c.url, c.stop, nil
	}
	return runFleetJourneys(start, p, l, settleUpstream(p, 2*latency+200*time.Millisecond))
}
