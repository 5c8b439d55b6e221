package main

import (
	"bytes"
	"context"
	"flag"
	"strings"
	"testing"
)

// -h, --help and `help COMMAND` print the command's synopsis, every flag it parses and
// every environment variable that sets one of its settings, and succeed (exit 0).
func TestHelpForEveryCommand(t *testing.T) {
	for name, c := range commands() {
		words := strings.Fields(name)
		for _, args := range [][]string{
			append(append([]string{}, words...), "--help"),
			append(append([]string{}, words...), "-h"),
			append([]string{"help"}, words...),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				var out, errOut bytes.Buffer
				if err := run(context.Background(), args, strings.NewReader(""), &out, &errOut); err != nil {
					t.Fatalf("err = %v (stderr %q)", err, errOut.String())
				}
				text := out.String()
				if !strings.HasPrefix(text, "usage: "+c.synopsis+"\n") {
					t.Errorf("help does not start with the synopsis:\n%s", text)
				}
				if c.flags != nil {
					fs := flag.NewFlagSet(name, flag.ContinueOnError)
					c.flags(fs)
					fs.VisitAll(func(f *flag.Flag) {
						if !strings.Contains(text, "-"+f.Name) {
							t.Errorf("help lacks flag -%s", f.Name)
						}
					})
				}
				if c.env != nil {
					for _, line := range c.env() {
						if v := strings.Split(line, "\t")[0]; !strings.Contains(text, v) {
							t.Errorf("help lacks %s", v)
						}
					}
				}
			})
		}
	}
}

// serve and config check name every V2BRIDGE_ variable, and each one really sets its
// key (applyEnv accepts it and the value lands in the configuration).
func TestHelpEnvironmentIsApplied(t *testing.T) {
	vars := configEnv()
	if len(vars) < 15 {
		t.Fatalf("only %d variables listed", len(vars))
	}
	samples := map[string]string{"string": "x", "true or false": "true", "integer": "7", "duration, e.g. 30s": "7s", "number": "0.5"}
	for _, line := range vars {
		name, what, _ := strings.Cut(line, "\t")
		kind := what[strings.Index(what, "(")+1 : len(what)-1]
		cfg := defaultConfig()
		before := cfg.redacted()
		if err := cfg.applyEnv(func(k string) string {
			if k == name {
				return samples[kind]
			}
			return ""
		}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if cfg.redacted() == before {
			t.Errorf("%s=%s changed nothing", name, samples[kind])
		}
	}
}

// Help requests never start a server or read a file; a flag mistake is an error and
// prints the help to stderr.
func TestHelpIsNotAnArgument(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"config", "check", "--help"}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("config check --help: %v", err)
	}
	if strings.Contains(out.String()+errOut.String(), "no such file") {
		t.Fatal("config check --help opened a file")
	}
	out.Reset()
	errOut.Reset()
	err := run(context.Background(), []string{"serve", "--bogus"}, strings.NewReader(""), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "bogus") || !strings.Contains(errOut.String(), "usage: v2bridge serve") {
		t.Fatalf("serve --bogus: err %v, stderr %q", err, errOut.String())
	}
	if err := run(context.Background(), []string{"help", "nope"}, strings.NewReader(""), &out, &errOut); err == nil {
		t.Fatal("help nope succeeded")
	}
}
