package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// maxPrinted is the most a quick-start command may print: a screenful, not a dump.
const maxPrinted = 8 << 10

// Every command the demo banner and the README print works as pasted: through a real
// curl in sh when curl is installed (that half skips cleanly otherwise; .ci/run installs
// curl in CI), and always through the Go client, which reads the command's headers and
// startDemo runs `v2bridge demo` on a free loopback port until the test ends (then
// stops it and fails the test on its error) and returns its base URL and output.
func startDemo(t *testing.T) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0"}, strings.NewReader(""), &out, &logs)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("demo: %v", err)
		}
	})
	return waitForBanner(t, &out), &out
}

// URL. Each answers 2xx and prints at most maxPrinted bytes.
func TestQuickStartCommandsWork(t *testing.T) {
	base, out := startDemo(t)
	banner := out.String()
	if !strings.Contains(banner, "Ctrl-C") {
		t.Error("the banner does not say how to stop the demo")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, line := range strings.Split(banner, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "curl ") {
			cmds = append(cmds, line)
		}
	}
	nBanner := len(cmds)
	for _, c := range readmeCurls(string(readme)) {
		cmds = append(cmds, strings.ReplaceAll(c, "127.0.0.1:8080", strings.TrimPrefix(base, "http://")))
	}
	if nBanner < 5 || len(cmds) <= nBanner {
		t.Fatalf("found %d banner and %d README commands", nBanner, len(cmds)-nBanner)
	}
	curl, curlErr := exec.LookPath("curl")
	for _, c := range cmds {
		t.Run(c, func(t *testing.T) {
			status, body := viaGo(t, c)
			if status < 200 || status > 299 {
				t.Errorf("Go client: status %d: %.300s", status, body)
			}
			if !strings.Contains(c, "|") && !strings.Contains(c, "-o /dev/null") && len(body) > maxPrinted {
				t.Errorf("Go client: the command prints %d bytes; show a short form", len(body))
			}
			if curlErr != nil {
				t.Skip("curl not installed: the real-curl half is skipped (.ci/run installs it)")
			}
			// The curl alone first: a pipeline's status is its last command's, and -s
			// hides curl's own complaint.
			sh := func(line string) ([]byte, error) {
				cmd := exec.Command("sh", "-c", line)
				cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(curl)+string(os.PathListSeparator)+os.Getenv("PATH"))
				return cmd.CombinedOutput()
			}
			curlAlone := strings.TrimSpace(strings.SplitN(c, "|", 2)[0])
			if b, err := sh(curlAlone); err != nil {
				t.Fatalf("sh -c %q: %v\n%.500s", curlAlone, err, b)
			}
			printed, err := sh(c)
			if err != nil {
				t.Fatalf("sh -c %q: %v\n%s", c, err, printed)
			}
			if len(printed) > maxPrinted {
				t.Errorf("curl printed %d bytes; show a short form", len(printed))
			}
			if strings.Contains(string(printed), `"error"`) || strings.Contains(string(printed), "curl: (") {
				t.Errorf("curl printed an error:\n%.500s", printed)
			}
		})
	}
}

func waitForBanner(t *testing.T, out *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`REST API v2 on (http://[0-9.:]+),`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil && strings.Contains(out.String(), "Ctrl-C") {
			return m[1]
		}
	}
	t.Fatalf("no banner: %q", out.String())
	return ""
}

// readmeCurls returns the README's curl commands: indented code lines and inline code
// spans that start with curl.
func readmeCurls(readme string) []string {
	var out []string
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "    curl ") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	for _, m := range regexp.MustCompile("`(curl [^`]+)`").FindAllStringSubmatch(readme, -1) {
		out = append(out, m[1])
	}
	return out
}

// viaGo sends the request a pasted curl command would send (its -H headers and URL; the
// part after a pipe is ignored) and returns the status and body.
func viaGo(t *testing.T, command string) (int, []byte) {
	t.Helper()
	words := shellWords(strings.SplitN(command, "|", 2)[0])
	req, err := http.NewRequest(http.MethodGet, "http://invalid", nil)
	if err != nil {
		t.Fatal(err)
	}
	url := ""
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-H" && i+1 < len(words):
			name, value, _ := strings.Cut(words[i+1], ":")
			req.Header.Set(name, strings.TrimSpace(value))
			i++
		case w == "-D" || w == "-o":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			url = w
		}
	}
	if !strings.Contains(url, "://") {
		url = "http://" + url
	}
	r, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	r.Header = req.Header
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b.Bytes()
}

// shellWords splits a command as sh would for the forms the quick start uses: words
// separated by spaces, single-quoted strings taken literally.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// The curl commands of docs/migration.md work as pasted against the demo started as the
// page says (make run ARGS='--routes …'): each answers 2xx through the Go client and, with
// curl installed, succeeds in sh (a pipeline that reads a compare counted in the
// background is given a few seconds to see it).
func TestMigrationDocCurlsWork(t *testing.T) {
	doc := string(mustRead(t, "..", "..", "docs", "migration.md"))
	m := regexp.MustCompile(`make run ARGS='--routes ([^']+)'`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/migration.md starts no demo with route modes")
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"demo", "--listen", "127.0.0.1:0", "--routes", m[1]}, strings.NewReader(""), &out, &logs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("demo: %v", err)
		}
	}()
	host := strings.TrimPrefix(waitForBanner(t, &out), "http://")
	var cmds []string
	for _, c := range codeLines(doc) {
		if strings.HasPrefix(c, "curl ") {
			cmds = append(cmds, strings.ReplaceAll(c, "127.0.0.1:8080", host))
		}
	}
	if len(cmds) < 4 {
		t.Fatalf("found %d curl commands", len(cmds))
	}
	curl, curlErr := exec.LookPath("curl")
	for _, c := range cmds {
		status, body := viaGo(t, c)
		if status < 200 || status > 299 {
			t.Errorf("%s: Go client: status %d: %.300s", c, status, body)
		}
		if curlErr != nil {
			continue
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			cmd := exec.Command("sh", "-c", c)
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(curl)+string(os.PathListSeparator)+os.Getenv("PATH"))
			b, err := cmd.CombinedOutput()
			if err == nil {
				break
			}
			if !strings.Contains(c, "|") || time.Now().After(deadline) {
				t.Errorf("sh -c %q: %v\n%.500s", c, err, b)
				break
			}
		}
	}
}
