package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this binary's main: with V2BRIDGE_TEST_MAIN=1 the test binary
// is v2bridge itself.
func TestMain(m *testing.M) {
	if os.Getenv("V2BRIDGE_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Ctrl-C (SIGINT) on the demo stops it cleanly: the shutdown line, exit status 0.
func TestDemoStopsCleanlyOnInterrupt(t *testing.T) {
	cmd := exec.Command(os.Args[0], "demo", "--listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "V2BRIDGE_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ctrl-C") {
				ready <- true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the demo did not start: %s", logs.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, logs.String())
		}
	case <-time.After(35 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the demo did not stop on SIGINT")
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Errorf("no shutdown line:\n%s", logs.String())
	}
}

// make docker hands the Dockerfile every build argument it declares (version, commit,
// date: images never report "dev"), and .dockerignore keeps .git out of the context.
func TestDockerBuildArgs(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^ARG (\w+)`).FindAllStringSubmatch(read("Dockerfile"), -1) {
		declared[m[1]] = true
	}
	mk := read("Makefile")
	recipe := mk[strings.Index(mk, "\ndocker:"):]
	passed := map[string]bool{}
	for _, m := range regexp.MustCompile(`--build-arg (\w+)=\$\((\w+)\)`).FindAllStringSubmatch(recipe, -1) {
		passed[m[1]] = true
	}
	for _, name := range []string{"VERSION", "COMMIT", "DATE"} {
		if !declared[name] || !passed[name] {
			t.Errorf("build argument %s: declared %v, passed by make docker %v", name, declared[name], passed[name])
		}
	}
	ignored := map[string]bool{}
	for _, line := range strings.Split(read(".dockerignore"), "\n") {
		ignored[strings.TrimSpace(line)] = true
	}
	for _, p := range []string{".git", "bin/"} {
		if !ignored[p] {
			t.Errorf(".dockerignore lacks %s", p)
		}
	}
}
