package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/v2bridge/v2bridge/sim"
)

// errHelpShown ends a command whose help was asked for (-h, --help): run returns nil, so
// the process exits 0.
var errHelpShown = errors.New("help shown")

// command describes one subcommand for its -h/--help and for `v2bridge help COMMAND`.
type command struct {
	synopsis string
	about    string
	// flags declares the command's flags on fs (nil: the command has none).
	flags func(fs *flag.FlagSet)
	// env lists the environment variables the command reads, one "NAME\twhat" a line.
	env func() []string
}

// commands is every subcommand's help; the flag declarations are the ones the command
// parses with, so the help cannot drift from the flags.
func commands() map[string]command {
	return map[string]command{
		"demo": {
			synopsis: "v2bridge demo [--listen ADDR] [--log-level LEVEL] [--routes ROUTE=MODE,...]",
			about: "The gateway and the NerdGraph simulator with demo data, in one process, and a REST v2\n" +
				"double answering the same data under /rest/v2 (for verify, compare and passthrough).\n" +
				"It prints ready-to-paste curl commands; Ctrl-C stops it.",
			flags: func(fs *flag.FlagSet) { demoFlags(fs) },
			env:   tracingEnv,
		},
		"serve": {
			synopsis: "v2bridge serve [--config FILE] [--listen ADDR] [--upstream us|eu|URL] [--log-level LEVEL]",
			about:    "The gateway in front of the real NerdGraph. Precedence: flags, then V2BRIDGE_* variables,\nthen the file, then the defaults (configs/v2bridge.yaml documents every key).",
			flags:    func(fs *flag.FlagSet) { serveFlags(fs) },
			env:      func() []string { return append(configEnv(), tracingEnv()...) },
		},
		"sim": {
			synopsis: "v2bridge sim [--listen ADDR] [--scale apps=N,hosts=N,names=N]",
			about:    "The NerdGraph simulator alone (demo data; keys NRAK-DEMO-ACCOUNT-1, NRAK-DEMO-ACCOUNT-2,\nNRAK-DEMO-MULTI). A tool for tests and demos, not evidence of NerdGraph's behaviour.",
			flags:    func(fs *flag.FlagSet) { simFlags(fs) },
		},
		"explain": {
			synopsis: "v2bridge explain [--account N] [--data BODY|@FILE|-] [--config FILE] [--format text|json] 'METHOD /v2/...'",
			about:    explainAbout,
			flags:    func(fs *flag.FlagSet) { explainFlags(fs) },
		},
		"verify": {
			synopsis: verifySynopsis(),
			about:    verifyAbout(),
		},
		"config check": {
			synopsis: "v2bridge config check FILE",
			about:    "Validate FILE with the V2BRIDGE_* variables applied, list every problem, and print the\neffective configuration (user keys are never printed).",
			env:      configEnv,
		},
		"hash-key": {
			synopsis: "v2bridge hash-key < keyfile",
			about:    "Print the SHA-256 of the legacy key on standard input, for the keys: section.",
		},
		"help": {
			synopsis: "v2bridge help [COMMAND]",
			about:    "List the commands, or print one command's flags and environment variables\n(the same as COMMAND --help).",
		},
		"version": {
			synopsis: "v2bridge version",
			about:    "Print the version, commit and build date.",
		},
	}
}

// verifySynopsis and verifyAbout split verify's usage text (verify.go) into the
// synopsis, every flag in it, and the description.
func verifySynopsis() string {
	syn, _, _ := strings.Cut(strings.TrimPrefix(verifyUsage, "usage: "), "\n\n")
	return syn
}

func verifyAbout() string {
	_, about, _ := strings.Cut(verifyUsage, "\n\n")
	return strings.TrimSpace(about)
}

// helpName maps what `v2bridge help X` accepts to a commands() key.
func helpName(args []string) string {
	name := strings.Join(args, " ")
	if name == "config" {
		return "config check"
	}
	return name
}

// writeHelp prints one command's synopsis, description, flags and environment.
func writeHelp(w io.Writer, name string) error {
	c, ok := commands()[name]
	if !ok {
		return fmt.Errorf("no command %q (v2bridge help lists them)", name)
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis, c.about)
	if c.flags != nil {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.flags(fs)
		fs.SetOutput(w)
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
	}
	if c.env != nil {
		fmt.Fprintln(w, "\nenvironment:")
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		for _, line := range c.env() {
			fmt.Fprintf(tw, "  %s\n", line)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("help: %w", err)
		}
	}
	return nil
}

// wantsHelp reports whether args ask for help: -h, -help or --help anywhere before a
// lone "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// parseFlags parses args for the command name. Help goes to stdout and ends the command
// with errHelpShown; a flag mistake prints the help to stderr and is an error.
func parseFlags(fs *flag.FlagSet, name string, args []string, stdout, stderr io.Writer) error {
	if wantsHelp(args) {
		if err := writeHelp(stdout, name); err != nil {
			return err
		}
		return errHelpShown
	}
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		_ = writeHelp(stderr, name)
		return fmt.Errorf("%s: %w", name, err)
	}
	if fs.NArg() > 0 {
		_ = writeHelp(stderr, name)
		return fmt.Errorf("%s: unexpected argument %q", name, fs.Arg(0))
	}
	return nil
}

type demoOpts struct{ listen, logLevel, routes *string }

func demoFlags(fs *flag.FlagSet) demoOpts {
	return demoOpts{
		listen:   fs.String("listen", demoListen, "gateway listen address"),
		logLevel: fs.String("log-level", "info", "debug, info, warn or error"),
		routes: fs.String("routes", "", "route modes against the demo's REST double, e.g. applications.list=compare,alerts_policies.list=passthrough "+
			"(the routes key of serve's configuration)"),
	}
}

type serveOpts struct{ cfgPath, listen, upstream, logLevel *string }

func serveFlags(fs *flag.FlagSet) serveOpts {
	return serveOpts{
		cfgPath:  fs.String("config", "", "YAML configuration file (configs/v2bridge.yaml documents every key)"),
		listen:   fs.String("listen", "", "listen address (overrides V2BRIDGE_LISTEN and the file)"),
		upstream: fs.String("upstream", "", "NerdGraph: us, eu or a URL (overrides V2BRIDGE_UPSTREAM and the file)"),
		logLevel: fs.String("log-level", "", "debug, info, warn or error (overrides V2BRIDGE_LOG_LEVEL and the file)"),
	}
}

type simOpts struct{ listen, scale *string }

func simFlags(fs *flag.FlagSet) simOpts {
	return simOpts{
		listen: fs.String("listen", "127.0.0.1:4000", "simulator listen address"),
		scale: fs.String("scale", "", "add a generated large account, e.g. apps=50000,hosts=3,names=5000 (account "+
			strconv.Itoa(sim.ScaleAccountID)+", key "+sim.ScaleKey+")"),
	}
}

// configEnv lists the V2BRIDGE_* variables applyEnv reads: one per scalar key of the
// configuration file, nested ones included.
func configEnv() []string {
	var out []string
	for _, k := range scalarKeys() {
		out = append(out, k.env+"\t"+k.path+" ("+envKind(k.typ)+")")
	}
	return out
}
