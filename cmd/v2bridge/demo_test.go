package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/migrate/verify"
)

// TestDemoRESTDoubleForVerifyCompareAndPassthrough: the demo serves the REST v2 double
// on its own listener; the verify command its banner prints, run as printed and with a
// larger sample, compares the double with the translation and finds only the differences the routes' fidelity
// notes declare, each printed with its reason, and counts the routes the double does
// not serve as not compared, never as errors; routes in compare mode answer and match
// (key_transactions.list, whose figures the double derives as REST does); a route in
// passthrough mode is answered by the double.
func TestDemoRESTDoubleForVerifyCompareAndPassthrough(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--routes",
			"applications.list=compare,key_transactions.list=compare,alerts_policies.list=passthrough"},
			strings.NewReader(""), &out, &logs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("demo: %v", err)
		}
	}()
	base := waitForBanner(t, &out)

	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "/v2bridge verify ") {
			line = strings.TrimSpace(l)
		}
	}
	words := strings.Fields(line)
	if len(words) < 3 || !strings.HasPrefix(words[0], "NEW_RELIC_API_KEY=") || words[1] != "bin/v2bridge" || words[2] != "verify" {
		t.Fatalf("no verify command in the banner:\n%s", out.String())
	}
	key := strings.TrimPrefix(words[0], "NEW_RELIC_API_KEY=")
	// As printed, then over more of the demo's objects.
	for _, extra := range [][]string{nil, {"--sample", "3"}} {
		t.Run("verify"+strings.Join(extra, ""), func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "verify")
			var stdout, stderr bytes.Buffer
			// The figures' windows move by the minute: a run that crosses one compares two
			// windows, and is made again (a verify run builds its translation afresh, and the
			// double keeps nothing).
			for attempt := 1; ; attempt++ {
				stdout.Reset()
				stderr.Reset()
				start := time.Now()
				err := runVerify(ctx, append(append(words[3:], extra...), "--out", report, "--per-minute", "100000"), func(k string) string {
					if k == "NEW_RELIC_API_KEY" {
						return key
					}
					return ""
				}, &stdout, &stderr)
				if err != nil {
					t.Fatalf("verify: %v\n%s", err, stderr.String())
				}
				if attempt == 3 || start.Truncate(time.Minute).Equal(time.Now().Truncate(time.Minute)) {
					break
				}
			}
			b, err := os.ReadFile(report + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var rep verify.Report
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			routes := map[string]verify.RouteSummary{}
			for _, r := range rep.Routes {
				routes[r.Route] = r
			}
			for _, name := range []string{"alerts_policies.list", "alerts_conditions.list", "mobile_applications.list", "mobile_applications.show"} {
				r, ok := routes[name]
				if !ok || r.Errors != 0 || r.Counts[verify.Equal] == 0 || r.Counts[verify.Different]+r.Counts[verify.MissingREST]+r.Counts[verify.MissingGraph] != 0 {
					t.Errorf("%s: %+v", name, r)
				}
				if !strings.Contains(stdout.String(), name) {
					t.Errorf("the summary does not list %s:\n%s", name, stdout.String())
				}
			}
			if r := routes["applications.show"]; r.Counts[verify.Equal] == 0 {
				t.Errorf("applications.show: nothing equal: %+v", r)
			}
			// The double sends every field REST sent (null where the data holds no value), so no
			// field of the applications, hosts or instances is missing on its side.
			for _, name := range []string{"applications.list", "applications.show", "application_hosts.list", "application_hosts.show",
				"application_instances.list", "application_instances.show"} {
				if r := routes[name]; r.Counts[verify.MissingREST] != 0 {
					t.Errorf("%s: %d fields missing in the REST double", name, r.Counts[verify.MissingREST])
				}
			}
			// What differs is what the routes' notes declare, each printed with the note's
			// reason; the routes the double does not serve are not compared, and no error.
			for _, x := range rep.Exchanges {
				for _, f := range x.Fields {
					switch {
					case f.Verdict == verify.WithinTol:
					case f.Declared == "" || f.Reason == "":
						t.Errorf("undeclared difference: %s %s: %s (REST %v, translation %v)", x.Path, f.Path, f.Verdict, f.REST, f.Translation)
					case !strings.Contains(stdout.String(), f.Reason):
						t.Errorf("%s %s: the summary does not print its reason %q", x.Path, f.Path, f.Reason)
					}
				}
			}
			notCompared := 0
			for _, r := range rep.Routes {
				if r.Errors != 0 {
					t.Errorf("%s: %d error(s)", r.Route, r.Errors)
				}
				notCompared += r.NotCompared
			}
			if notCompared == 0 || !strings.Contains(stdout.String(), "not compared: /v2/alerts_violations.json: the REST side does not serve this route (501)") {
				t.Errorf("the routes the double does not serve are not listed as not compared (%d):\n%s", notCompared, stdout.String())
			}
			if t.Failed() {
				t.Logf("verify's summary:\n%s", stdout.String())
			}
		})
	}

	get := func(path string) (*http.Response, string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	if resp, body := get("/rest/v2/alerts_policies.json"); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"Production apps"`) {
		t.Errorf("the double: %d %.300s", resp.StatusCode, body)
	}
	if resp, body := get("/v2/alerts_policies.json"); resp.StatusCode != http.StatusOK || resp.Header.Get("X-V2bridge-Mode") != "passthrough" ||
		!strings.Contains(body, `"Production apps"`) {
		t.Errorf("passthrough: %d %v %.300s", resp.StatusCode, resp.Header, body)
	}
	if resp, body := get("/v2/applications.json?filter[ids]=314221522"); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":314221522`) {
		t.Errorf("compare: %d %.300s", resp.StatusCode, body)
	}
	if resp, body := get("/v2/key_transactions.json"); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":3003`) {
		t.Errorf("compare: %d %.300s", resp.StatusCode, body)
	}
	compared := func(route string) string {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			_, metrics := get("/metrics")
			for _, result := range []string{"match", "declared", "diff", "error"} {
				if strings.Contains(metrics, `v2bridge_compare_total{result="`+result+`",route="`+route+`"}`) {
					return result
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no compared %s in the metrics:\n%s", route, grepLines(metrics, "compare"))
			}
		}
	}
	// applications.list: match, or diff when the summaries' minute turned between the
	// two sides' reads. key_transactions.list's compared fields do not move by the minute.
	if got := compared("applications.list"); got == "error" {
		t.Errorf("applications.list compared: %s", got)
	}
	if got := compared("key_transactions.list"); got != "match" {
		t.Errorf("key_transactions.list compared: %s, want match; the demo's log:\n%s", got, grepLines(logs.String(), "compare"))
	}
}

// TestDemoRoutesFlagIsChecked: --routes names routes and modes as serve's routes key.
func TestDemoRoutesFlagIsChecked(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"nosuch=compare", "no route of that name"},
		{"applications.list=mirror", "is not translate, passthrough or compare"},
		{"applications.list", "is not ROUTE=MODE"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			err := run(context.Background(), []string{"demo", "--listen", "127.0.0.1:0", "--routes", tc.value}, strings.NewReader(""), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("demo --routes %s = %v, want %q", tc.value, err, tc.want)
			}
		})
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The banner's restart command works where the demo was started: make run's ARGS (and
// LISTEN when it was changed) under make, the program itself otherwise; and the banner
// says which route modes are on.
func TestDemoBannerRestartCommandAndModes(t *testing.T) {
	for _, tc := range []struct {
		makelevel, prog, listen, want string
	}{
		{"1", "bin/v2bridge", demoListen, "make run ARGS='--routes " + demoRoutesExample + "'"},
		{"1", "bin/v2bridge", "127.0.0.1:9090", "make run LISTEN=127.0.0.1:9090 ARGS='--routes " + demoRoutesExample + "'"},
		{"", "bin/v2bridge", demoListen, "bin/v2bridge demo --routes " + demoRoutesExample},
		{"", "v2bridge", "127.0.0.1:9090", "v2bridge demo --listen 127.0.0.1:9090 --routes " + demoRoutesExample},
	} {
		got := demoRestart(func(k string) string {
			if k == "MAKELEVEL" {
				return tc.makelevel
			}
			return ""
		}, tc.prog, tc.listen)
		if got != tc.want {
			t.Errorf("MAKELEVEL=%q %s --listen %s: %q, want %q", tc.makelevel, tc.prog, tc.listen, got, tc.want)
		}
	}
	for arg0, want := range map[string]string{"v2bridge": "v2bridge", "bin/v2bridge": "bin/v2bridge", "/tmp/go-build1/b001/v2bridge.test": "bin/v2bridge"} {
		if got := programName(arg0); got != want {
			t.Errorf("programName(%q) = %q, want %q", arg0, got, want)
		}
	}
	modes, err := demoModes(demoRoutesExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		routes string
		want   string
	}{
		{"", "Modes: every route translates"},
		{demoRoutesExample, "Modes: alerts_policies.list=passthrough, applications.list=compare; every other route translates."},
	} {
		m := modes
		if tc.routes == "" {
			m = nil
		}
		if b := demoBanner(demoPrinted{base: "http://h", endpoint: "http://h/graphql", prog: "bin/v2bridge", restart: "x", modes: m}); !strings.Contains(b, tc.want) {
			t.Errorf("--routes %q: the banner lacks %q:\n%s", tc.routes, tc.want, b)
		}
	}
}
