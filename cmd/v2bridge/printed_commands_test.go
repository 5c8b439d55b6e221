package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// placeholder marks a printed command as a template the reader fills in (a key, a file,
// an account of their own): it is checked for its command and flags, not run.
var placeholder = regexp.MustCompile(`\.\.\.|…|\b(FILE|COMMAND|PORT|keyfile|1234567)\b|YOUR_`)

// Every v2bridge and make command the demo banner, the README and docs/*.md print works
// as pasted from the repository root after `make run`: nothing is assumed on PATH (a
// bare `v2bridge` fails), bin/v2bridge commands run (in this process, in a directory
// holding the repository's configs/, against a demo standing in for make run's),
// templates name real commands and flags, and make commands are accepted by the
// Makefile (make -n).
func TestPrintedCommandsWorkAsPasted(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("MAKELEVEL", "") // the banner as a shell, not make, prints it
	base, out := startDemo(t)
	ctx := t.Context()
	host := strings.TrimPrefix(base, "http://")

	type printed struct{ where, cmd string }
	var cmds []printed
	for _, line := range strings.Split(out.String(), "\n") {
		if c := strings.TrimSpace(line); strings.HasPrefix(line, "  ") && programWord(c) != "" {
			cmds = append(cmds, printed{"banner", c})
		}
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, path := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		if filepath.Base(path) == "fidelity.md" {
			continue // generated from the route notes, which name the tools in prose
		}
		for _, c := range printedCommands(string(mustRead(t, path))) {
			cmds = append(cmds, printed{filepath.Base(path), c})
		}
	}
	seen := map[string]int{}
	for _, c := range cmds {
		seen[programWord(c.cmd)]++
	}
	if seen["bin/v2bridge"] < 10 || seen["make"] < 5 {
		t.Fatalf("found only %v printed commands", seen)
	}

	dir := t.TempDir() // verify writes its reports here
	if err := os.Symlink(filepath.Join(root, "configs"), filepath.Join(dir, "configs")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, c := range cmds {
		t.Run(c.where+": "+c.cmd, func(t *testing.T) {
			words := shellWords(c.cmd)
			env := map[string]string{}
			for len(words) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(words[0]) {
				name, value, _ := strings.Cut(words[0], "=")
				env[name], words = value, words[1:]
			}
			switch words[0] {
			case "v2bridge":
				t.Fatalf("`make run` puts nothing on PATH: print bin/v2bridge")
			case "make":
				pasteMake(t, root, words[1:])
				return
			}
			if len(words) < 2 {
				return // the program named in prose
			}
			var help bytes.Buffer
			if err := run(ctx, []string{"help", words[1]}, strings.NewReader(""), &help, &help); err != nil {
				t.Fatalf("%s is not a command: %v", words[1], err)
			}
			for _, w := range words[2:] {
				flag, _, _ := strings.Cut(w, "=")
				if name := strings.TrimLeft(flag, "-"); strings.HasPrefix(flag, "--") &&
					!regexp.MustCompile(`(?m)(^\s+-|\[--)`+regexp.QuoteMeta(name)+`\b`).MatchString(help.String()) {
					t.Errorf("%s takes no %s:\n%s", words[1], flag, help.String())
				}
			}
			if placeholder.MatchString(c.cmd) || len(words) == 2 && c.where != "banner" {
				return // a template, or a command named in prose
			}
			for name, value := range env {
				t.Setenv(name, value)
			}
			args := make([]string, 0, len(words)-1)
			for _, w := range words[1:] {
				args = append(args, strings.ReplaceAll(w, "127.0.0.1:8080", host))
			}
			runCtx := ctx
			switch args[0] {
			case "serve", "demo", "sim": // started and stopped: it must come up with what it was given
				t.Setenv("V2BRIDGE_LISTEN", "127.0.0.1:0")
				stopped, stop := context.WithCancel(ctx)
				stop()
				runCtx = stopped
				if args[0] == "demo" {
					args = append(args, "--listen", "127.0.0.1:0")
				}
			}
			var stdout, stderr bytes.Buffer
			if err := run(runCtx, args, strings.NewReader(""), &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
			}
			if args[0] == "demo" && !strings.Contains(stdout.String(), "Modes: ") {
				t.Errorf("the restarted demo does not say which modes are on:\n%s", stdout.String())
			}
		})
	}
}

// pasteMake checks a printed make command with make -n at the repository's root: the
// Makefile accepts it, and make run hands ARGS and LISTEN to the demo.
func pasteMake(t *testing.T, root string, args []string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", append([]string{"-n", "--no-print-directory"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MAKEFLAGS=", "MAKELEVEL=")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	if len(args) == 0 || args[0] != "run" {
		return
	}
	want := "bin/v2bridge demo --listen 127.0.0.1:8080"
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a, "LISTEN="); ok {
			want = strings.Replace(want, "127.0.0.1:8080", v, 1)
		}
	}
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a, "ARGS="); ok {
			want += " " + v
		}
	}
	if !strings.Contains(string(b), want) {
		t.Errorf("make %s does not run %q:\n%s", strings.Join(args, " "), want, b)
	}
}

// programWord is the program a printed command line runs (after VAR=value
// assignments) when it is v2bridge or make, else "".
func programWord(line string) string {
	for _, w := range strings.Fields(line) {
		if regexp.MustCompile(`^[A-Z_]+=\S`).MatchString(w) {
			continue
		}
		if w == "v2bridge" || w == "bin/v2bridge" || w == "make" {
			return w
		}
		return ""
	}
	return ""
}

// printedCommands returns the v2bridge and make commands a Markdown page prints.
func printedCommands(md string) []string {
	var out []string
	for _, c := range codeLines(md) {
		if programWord(c) != "" {
			out = append(out, c)
		}
	}
	return out
}

// codeLines returns what a Markdown page prints as code: inline code spans and the lines
// of code blocks (indented or fenced; a trailing backslash continues a line; a shell
// comment is dropped).
func codeLines(md string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(md, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	fenced, pending := false, ""
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced && !strings.HasPrefix(line, "    ") && pending == "" {
			continue
		}
		text := strings.TrimSpace(line)
		if i := strings.Index(text, " #"); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if cont, ok := strings.CutSuffix(text, `\`); ok {
			pending += strings.TrimSpace(cont) + " "
			continue
		}
		text, pending = pending+text, ""
		if text != "" {
			out = append(out, text)
		}
	}
	return out
}
