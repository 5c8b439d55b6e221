package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

// `v2bridge verify` against the simulator, with a REST side answering the same demo
// data: reports written, no differences, the key never printed or written.
func TestVerifyCommand(t *testing.T) {
	// The simulator's clock stands still: its data lands over the seconds after each
	// minute, as NRDB's does, so two sides reading it seconds apart at the wall clock
	// could see a minute's data half and wholly arrived.
	frozen := time.Now()
	s, err := newSimulator(sim.WithClock(func() time.Time { return frozen }))
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(s)
	defer upstream.Close()

	const key = "NRAK-DEMO-ACCOUNT-1"
	out := filepath.Join(t.TempDir(), "report")
	env := func(k string) string {
		if k == "NEW_RELIC_API_KEY" {
			return key
		}
		return ""
	}
	var stdout, stderr bytes.Buffer
	// Both sides build their windows at the wall clock, and the summaries' windows move by
	// the minute: a run that crosses a minute can compare two windows (seen in CI,
	// applications.list differing in summaries and last_reported_at). Such a run is made
	// again with a new REST side: the old one's caches would still answer from the
	// minute before (seen in CI too: the show and filtered lists of one application
	// differing in a run within one minute). A difference within one minute fails.
	for attempt := 1; ; attempt++ {
		stdout.Reset()
		stderr.Reset()
		g, _ := newGateway(upstream.URL+sim.Path, nil, gateway.Config{RateLimitPerMinute: -1}, migrate.Config{}, ng.Options{Timeout: 10 * time.Second},
			zap.NewNop(), translate.Options{}, nil)
		rest := httptest.NewServer(g.Handler())
		start := time.Now()
		err := runVerify(context.Background(), []string{"--rest", rest.URL + "/v2", "--upstream", upstream.URL + sim.Path,
			"--sample", "1", "--per-minute", "100000", "--out", out}, env, &stdout, &stderr)
		rest.Close()
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		crossed := !start.Truncate(time.Minute).Equal(time.Now().Truncate(time.Minute))
		if !crossed || attempt == 3 || strings.Contains(stdout.String(), "0 field(s) differ") {
			break
		}
	}
	if !strings.Contains(stdout.String(), "0 field(s) differ") || !strings.Contains(stderr.String(), "read-only") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	for _, f := range []string{out + ".html", out + ".json"} {
		b, err := os.ReadFile(f)
		if err != nil || strings.Contains(string(b), key) {
			t.Fatalf("%s: %v (or the key is in it)", f, err)
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), key) {
		t.Fatal("the key was printed")
	}
	if err := runVerify(context.Background(), nil, func(string) string { return "" }, &stdout, &stderr); err == nil ||
		!strings.Contains(err.Error(), "NEW_RELIC_API_KEY") {
		t.Fatalf("no key: %v", err)
	}
}

// `v2bridge verify` with a REST URL that does not resolve says so, in its own words.
func TestVerifyCommandSaysWhyRESTFailed(t *testing.T) {
	upstream := demoUpstream(t)
	var stdout, stderr bytes.Buffer
	err := runVerify(context.Background(), []string{"--rest", "http://rest.invalid/v2", "--upstream", upstream.URL + sim.Path,
		"--out", filepath.Join(t.TempDir(), "report")}, func(string) string { return "NRAK-DEMO-ACCOUNT-1" }, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "cannot resolve host rest.invalid") {
		t.Fatalf("verify against rest.invalid = %v", err)
	}
}
