// Package harness starts the gateway, wired to a migration pilot (package migrate), in
// front of the NerdGraph simulator over real HTTP (httptest servers on loopback) for
// the end-to-end, client and benchmark tests. Both run on a fixed clock so answers are
// reproducible.
package harness

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate"
)

// Clock is the fixed time of the simulator and the gateway.
var Clock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// The demo keys.
const (
	Key1     = "NRAK-DEMO-ACCOUNT-1"
	Key2     = "NRAK-DEMO-ACCOUNT-2"
	KeyMulti = "NRAK-DEMO-MULTI"
)

// Env is a running simulator and gateway.
type Env struct {
	Sim     *sim.Server
	SimURL  string
	Gateway *httptest.Server
	GW      *gateway.Gateway
	Pilot   *migrate.Pilot
}

// Options tune StartWith.
type Options struct {
	Gateway gateway.Config
	// Migrate configures the migration pilot; its Metrics, Now, Store (when the
	// gateway's keeps usage rows too) and MaxBodyBytes are the gateway's, its
	// RESTUpstream the gateway's unless set.
	Migrate migrate.Config
	Sim     []sim.Option
	// UpstreamTimeout bounds one NerdGraph call (default 30 s).
	UpstreamTimeout time.Duration
	// SlotWait bounds a call's wait for one of the key's NerdGraph slots (default two
	// minutes, not the product's: how long a loaded test machine queues a burst of
	// calls must not decide a test's outcome; the bound itself has its own tests).
	SlotWait time.Duration
	// AuthTTL is gateway.Config.AuthTTL (default gateway.AuthTTL).
	AuthTTL time.Duration
	// NameLike is translate.Options.NameLike (name_filter: like).
	NameLike bool
	// Now is the gateway's and the translator's clock (default: Clock, fixed); the
	// simulator keeps Clock.
	Now func() time.Time
}

// Start runs the simulator with the demo data and a gateway configured by cfg in front
// of it; both stop when the test ends.
func Start(t testing.TB, cfg gateway.Config) *Env {
	t.Helper()
	return StartWith(t, Options{Gateway: cfg})
}

// StartWith is Start with simulator options (fault injection) and an upstream timeout.
func StartWith(t testing.TB, o Options) *Env {
	t.Helper()
	cfg := o.Gateway
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return Clock }
	now := o.Now
	if now == nil {
		now = fixed
	}
	s, err := sim.NewDemo(data, append([]sim.Option{sim.WithClock(fixed)}, o.Sim...)...)
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(s)
	t.Cleanup(simSrv.Close)
	m := cfg.Metrics
	if m == nil {
		m = gateway.NewMetrics()
	}
	if o.SlotWait <= 0 {
		o.SlotWait = 2 * time.Minute
	}
	client := ng.NewClient(simSrv.URL+sim.Path, ng.Options{Observe: m.ObserveUpstream, Timeout: o.UpstreamTimeout, SlotWait: o.SlotWait})
	tr := translate.New(client, translate.Options{Now: now, Warn: gateway.NoteDegraded, ObserveCache: m.ObserveCache,
		NameLike: o.NameLike})
	cfg.Metrics = m
	if cfg.AuthTTL == 0 {
		cfg.AuthTTL = o.AuthTTL
	}
	if cfg.Now == nil {
		cfg.Now = now
	}
	cfg.Ready = client.Ping
	mc := o.Migrate
	mc.Metrics, mc.Now, mc.MaxBodyBytes = m, cfg.Now, cfg.MaxBodyBytes
	mc.Store, _ = cfg.Store.(state.SharedUsage) // the fleet's store serves both
	if mc.RESTUpstream == "" {
		mc.RESTUpstream = cfg.RESTUpstream
	}
	p := migrate.New(mc, nil)
	p.Wire(&cfg)
	g := gateway.New(cfg, tr, nil)
	gw := httptest.NewServer(g.Handler())
	t.Cleanup(gw.Close)
	return &Env{Sim: s, SimURL: simSrv.URL + sim.Path, Gateway: gw, GW: g, Pilot: p}
}
