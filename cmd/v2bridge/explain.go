package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// explainAbout is explain's description in `v2bridge help explain`.
const explainAbout = `Prints every NerdGraph round trip the gateway would make for the request —
operation, document, variables, the NRQL and entity-search texts in them — with the
route, its fidelity and note: for people (documents as written, multi-line), or as JSON
with --format json. Nothing is sent: each call is recorded and answered empty.`

type explainOpts struct {
	account               *int64
	data, cfgPath, format *string
}

func explainFlags(fs *flag.FlagSet) explainOpts {
	return explainOpts{
		account: fs.Int64("account", 0, "the account the request is scoped to (else an /accounts/N/v2 path or the configuration's default_account_id)"),
		data:    fs.String("data", "", "the body of a write: the text itself, @FILE, or - for standard input"),
		cfgPath: fs.String("config", "", "configuration whose settings shape the translation (default_account_id, use_create_deployment, browser_loader, metric_names_window, routes)"),
		format:  fs.String("format", "text", "text (for people) or json (the /v2bridge/explain endpoint's form)"),
	}
}

// maxExplainBody bounds a body read from a file or standard input (the gateway's own
// default body limit).
const maxExplainBody = 1 << 20

// runExplain is `v2bridge explain`: the translation of one v2 request, sent nowhere.
func runExplain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if wantsHelp(args) {
		if err := writeHelp(stdout, "explain"); err != nil {
			return err
		}
		return errHelpShown
	}
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := explainFlags(fs)
	account, data, cfgPath := opts.account, opts.data, opts.cfgPath
	// Flags may come before or after the request.
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			_ = writeHelp(stderr, "explain")
			return fmt.Errorf("explain: %w", err)
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(words) == 0 {
		_ = writeHelp(stderr, "explain")
		return errors.New("explain: give the request, as 'METHOD /v2/...'")
	}
	if *account < 0 {
		return fmt.Errorf("explain: --account %d is not an account id", *account)
	}
	if *opts.format != "text" && *opts.format != "json" {
		return fmt.Errorf("explain: --format %q is not text or json", *opts.format)
	}
	body, err := explainBody(*data, stdin)
	if err != nil {
		return err
	}
	p, err := explainPilot(*cfgPath)
	if err != nil {
		return err
	}
	x, err := p.Explain(ctx, migrate.ExplainRequest{Line: strings.Join(words, " "), Body: body, AccountID: *account})
	if err != nil {
		var ve *restv2.Error
		if errors.As(err, &ve) {
			return fmt.Errorf("explain: %d %s", ve.Status, ve.Title)
		}
		return fmt.Errorf("explain: %w", err)
	}
	if *opts.format == "text" {
		return x.WriteText(stdout)
	}
	b, err := x.JSON()
	if err != nil {
		return err
	}
	_, err = stdout.Write(b)
	return err
}

// explainBody reads --data: the text, @FILE or - (standard input).
func explainBody(data string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	switch {
	case data == "-":
		r = stdin
	case strings.HasPrefix(data, "@"):
		f, err := os.Open(data[1:])
		if err != nil {
			return nil, fmt.Errorf("explain --data: %w", err)
		}
		defer f.Close()
		r = f
	default:
		return []byte(data), nil
	}
	b, err := io.ReadAll(io.LimitReader(r, maxExplainBody+1))
	if err != nil {
		return nil, fmt.Errorf("explain --data: %w", err)
	}
	if len(b) > maxExplainBody {
		return nil, fmt.Errorf("explain --data: the body is larger than %d bytes", maxExplainBody)
	}
	return b, nil
}

// explainPilot is the migration pilot of a gateway configured like `serve` with the
// file at path (defaults without one) whose translator holds a graphql.Recorder: no
// NerdGraph client exists.
func explainPilot(path string) (*migrate.Pilot, error) {
	cfg, err := loadConfig(path)
	if err != nil {
		return nil, err
	}
	if err := cfg.applyEnv(os.Getenv); err != nil {
		return nil, err
	}
	modes, err := cfg.modes()
	if err != nil {
		return nil, err
	}
	rest, err := cfg.restUpstream()
	if err != nil {
		return nil, err
	}
	choices, summaryAll := cfg.metricChoices()
	tr := translate.New(&ng.Recorder{}, translate.Options{MetricNamesWindow: cfg.MetricNamesWindow, NameLike: cfg.NameFilter == "like",
		MetricChoices: choices, SummaryAllTransactions: summaryAll})
	p := migrate.New(migrate.Config{RESTUpstream: rest, Compare: migrate.CompareSettings{PrimaryGraph: cfg.Compare.Primary == "graph"}}, nil)
	gc := gateway.Config{
		DefaultAccountID:    cfg.DefaultAccountID,
		UseCreateDeployment: cfg.UseCreateDeployment,
		BrowserLoader:       cfg.BrowserLoader,
		Modes:               modes,
		RESTUpstream:        rest,
	}
	p.Wire(&gc)
	gateway.New(gc, tr, zap.NewNop()) // p explains through it (its Operator hook)
	return p, nil
}
