package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// makeDryRun returns the commands `make -n target` would run at the repository's root.
func makeDryRun(t *testing.T, target string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", "-n", "--no-print-directory", target)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "MAKEFLAGS=", "MAKELEVEL=") // not a sub-make of make test
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n %s: %v\n%s", target, err, out)
	}
	return string(out)
}

// The build's link flags do not depend on the clock (the date is the last commit's), so
// a warm `make run` on an unchanged tree finds bin/v2bridge up to date instead of
// relinking it.
func TestMakeBuildDoesNotDependOnTheClock(t *testing.T) {
	first := makeDryRun(t, "build")
	time.Sleep(1100 * time.Millisecond)
	if again := makeDryRun(t, "build"); again != first {
		t.Errorf("make build changed with the clock:\n%s\n%s", first, again)
	}
}

// `make run` says what it does before the build, how long a first build takes, and
// where the demo starts.
func TestMakeRunSaysWhatItDoes(t *testing.T) {
	out := makeDryRun(t, "run")
	for _, want := range []string{"make run: building bin/v2bridge", "the first build compiles every dependency, about 90 s and 1.3 GB",
		"make run: starting the demo on"} {
		if !strings.Contains(out, want) {
			t.Errorf("make run does not say %q:\n%s", want, out)
		}
	}
	if b, s := strings.Index(out, "building bin/v2bridge"), strings.Index(out, "go build"); b < 0 || s < 0 || b > s {
		t.Errorf("make run does not announce the build before it starts it:\n%s", out)
	}
}
