package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/migrate/verify"
	"github.com/v2bridge/v2bridge/translate"
)

const verifyUsage = `usage: v2bridge verify [--key-env NEW_RELIC_API_KEY | --key-file FILE] [--account ID] [--sample 3]
                       [--rest us|eu|URL] [--upstream us|eu|URL] [--tolerance 0.05] [--per-minute 500] [--out v2bridge-verify]
                       [--writes [--write-app ID]]

Compares the real REST API v2 with the translation on your own account: a sample of the
account's objects is read from both, every read route, field by field. Read-only unless
--writes, which also compares the write routes on objects the run creates and removes
itself (listed before it starts).
Without an account, try it on the demo (make run prints the command): --rest is the demo's
REST v2 double (http://127.0.0.1:8080/rest/v2), --upstream its simulator (…:8080/graphql).
Writes OUT.html and OUT.json and prints a summary. The key is read from the
environment variable or file named, never from the command line, and is never logged.
`

// runVerify is `v2bridge verify`.
func runVerify(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, verifyUsage) }
	keyEnv := fs.String("key-env", "NEW_RELIC_API_KEY", "environment variable holding the user key (NRAK-...)")
	keyFile := fs.String("key-file", "", "file holding the user key (instead of --key-env)")
	account := fs.Int64("account", 0, "account id (needed when the key reaches several accounts)")
	sample := fs.Int("sample", 3, "objects of each kind to compare")
	rest := fs.String("rest", "us", "REST API v2: us, eu or a URL ending in /v2")
	upstream := fs.String("upstream", "us", "NerdGraph: us, eu or a URL")
	tolerance := fs.Float64("tolerance", 0.05, "relative difference numbers may have and count as within tolerance")
	perMinute := fs.Int("per-minute", 500, "requests per minute to each side (REST v2 allows 1000 per key)")
	out := fs.String("out", "v2bridge-verify", "report path prefix: OUT.html and OUT.json")
	writes := fs.Bool("writes", false, "also compare the write routes, on a policy, an NRQL condition and a deployment the run creates and removes itself")
	writeApp := fs.Int64("write-app", 0, "with --writes: the application a deployment is recorded on (0: no deployment)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key, err := verifyKey(*keyEnv, *keyFile, getenv)
	if err != nil {
		return err
	}
	if *sample <= 0 || *perMinute <= 0 || *tolerance < 0 || *tolerance >= 1 {
		return errors.New("verify: --sample and --per-minute must be positive, --tolerance in [0, 1)")
	}
	restURL, err := fileConfig{RESTUpstream: *rest}.restUpstream()
	if err != nil {
		return err
	}
	endpoint, err := ng.ResolveEndpoint(*upstream)
	if err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	// The translation runs in this process on a loopback port, as `serve` would.
	g, _ := newGateway(endpoint, nil, gateway.Config{DefaultAccountID: *account, RateLimitPerMinute: -1}, migrate.Config{},
		ng.Options{Timeout: 30 * time.Second}, zap.NewNop(), translate.Options{}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	srv := &http.Server{Handler: g.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	hdr := http.Header{"X-Api-Key": {key}}
	trHdr := hdr.Clone()
	if *account != 0 {
		trHdr.Set("X-Account-Id", fmt.Sprint(*account))
	}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	if *writes {
		fmt.Fprintf(stderr, "v2bridge verify: reads, then writes to %s and to the translation (NerdGraph %s):\n", restURL, endpoint)
		for _, step := range verify.WritePlan(*writeApp, stamp) {
			fmt.Fprintln(stderr, "  - "+step)
		}
	} else {
		fmt.Fprintf(stderr, "v2bridge verify: read-only; GET requests only, to %s and to the translation (NerdGraph %s)\n", restURL, endpoint)
	}
	rep, err := verify.Run(ctx, verify.Config{
		REST:        verify.Side{Base: strings.TrimSuffix(restURL, "/v2"), Header: hdr},
		Translation: verify.Side{Base: "http://" + ln.Addr().String(), Header: trHdr},
		Sample:      *sample, Tolerance: *tolerance, PerMinute: *perMinute, Progress: stderr, ProgressTerminal: isTerminal(stderr),
		Writes: *writes, WriteApp: *writeApp, Stamp: stamp, Notes: routeNotes(),
	})
	if err != nil {
		return err
	}
	for _, w := range []struct {
		ext   string
		write func(io.Writer) error
	}{{".html", rep.WriteHTML}, {".json", rep.WriteJSON}} {
		f, err := os.Create(*out + w.ext)
		if err != nil {
			return fmt.Errorf("verify report: %w", err)
		}
		werr := w.write(f)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	if err := rep.WriteSummary(stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "reports: %s.html, %s.json\n", *out, *out)
	return nil
}

// routeNotes are the routes' fidelity notes by name, which declare their differences;
// a note that refers to another route ("as key_transactions.list") declares what that
// route's note does too.
func routeNotes() map[string]string {
	notes := map[string]string{}
	for _, r := range gateway.Routes() {
		notes[r.Name] = r.Note
	}
	out := make(map[string]string, len(notes))
	for name, note := range notes {
		out[name] = note
		for other, more := range notes {
			if other != name && strings.Contains(note, "as "+other) {
				out[name] += "; " + more
			}
		}
	}
	return out
}

// isTerminal reports whether w is a terminal (a character device), where a progress
// bar may redraw itself; a file or a pipe gets plain lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// verifyKey reads the user key from a file or an environment variable.
func verifyKey(env, file string, getenv func(string) string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("verify --key-file: %w", err)
		}
		if k := strings.TrimSpace(string(b)); k != "" {
			return k, nil
		}
		return "", fmt.Errorf("verify --key-file: %s is empty", file)
	}
	if k := strings.TrimSpace(getenv(env)); k != "" {
		return k, nil
	}
	return "", fmt.Errorf("verify: set the user key in $%s or give --key-file", env)
}
