package contracts

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

var update = flag.Bool("update", false, "rewrite the golden v2 bodies under testdata/golden/")

// apiKey is the key the recorded client sends; the transport never checks it.
const apiKey = "NRAK-CONTRACT-TEST"

// account is the account every request is scoped to (the recordings' own ids are kept).
const account = 1

// clock is the fixed time of every translation (golden files must not move).
var clock = time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)

// recording is one recorded NerdGraph answer (a file under testdata/) and the fix-ups
// its test declares. Fix-ups never add a value the recording lacks, except fields the
// fix-up's doc comment justifies from the recording itself.
type recording struct {
	file string
	fix  func(t *testing.T, doc map[string]any)
}

// recordedTransport answers each NerdGraph request with the recording registered for
// its operation name, the way NerdGraph answers (HTTP 200, application/json). A request
// for an operation with no recording, or a second request for one (a recording is one
// page: following its nextCursor would need a page nobody recorded), fails the test.
type recordedTransport struct {
	t     *testing.T
	byOp  map[string]recording
	asked map[string]int
}

func (rt *recordedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body struct {
		OperationName string `json:"operationName"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("recorded transport: decode request: %w", err)
	}
	rec, ok := rt.byOp[body.OperationName]
	rt.asked[body.OperationName]++
	if !ok || rt.asked[body.OperationName] > 1 {
		rt.t.Errorf("operation %s asked %d times; recordings: %v", body.OperationName, rt.asked[body.OperationName], keys(rt.byOp))
		return answer(http.StatusInternalServerError, []byte(`{"errors":[{"message":"no recording"}]}`)), nil
	}
	return answer(http.StatusOK, load(rt.t, rec)), nil
}

func answer(status int, b []byte) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(b)), ContentLength: int64(len(b))}
}

func keys(m map[string]recording) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// load reads a recording, normalizes it (normalize) and applies its declared fix-up.
func load(t *testing.T, rec recording) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", rec.file))
	if err != nil {
		t.Fatalf("recording: %v", err)
	}
	b := normalize(raw)
	if rec.fix == nil {
		if !json.Valid(b) {
			t.Fatalf("%s: not JSON after normalization:\n%s", rec.file, b)
		}
		return b
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", rec.file, err)
	}
	rec.fix(t, doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("%s: %v", rec.file, err)
	}
	return out
}

// normalize undoes the three ways documentation pages abbreviate an answer, and
// nothing else: a line that is only a `//` comment ("// ... more policies here in
// reality") is dropped, a comma left before a closing bracket is dropped, and an
// example cut short after its last value gets its missing closing brackets (in the
// order the open ones demand). No value is added or changed.
func normalize(b []byte) []byte {
	var kept []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			kept = append(kept, line)
		}
	}
	src := []byte(strings.Join(kept, "\n"))
	var out []byte
	var stack []byte
	inString, escaped := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			out = dropTrailingComma(out)
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		out = append(out, c)
	}
	out = dropTrailingComma(out)
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, stack[i])
	}
	return out
}

// dropTrailingComma removes a comma (and the blanks after it) ending b.
func dropTrailingComma(b []byte) []byte {
	t := bytes.TrimRight(b, " \t\r\n")
	if len(t) > 0 && t[len(t)-1] == ',' {
		return t[:len(t)-1]
	}
	return b
}

// setup returns a Translator whose NerdGraph is the recordings, keyed by operation,
// through the production client (error classification, decoding) with one attempt.
func setup(t *testing.T, byOp map[string]recording) (*translate.Translator, *ng.Client, context.Context, translate.Caller) {
	t.Helper()
	rt := &recordedTransport{t: t, byOp: byOp, asked: map[string]int{}}
	client := ng.NewClient("https://recorded.invalid/graphql", ng.Options{HTTPClient: &http.Client{Transport: rt},
		MaxAttempts: 1, BreakerThreshold: -1})
	tr := translate.New(client, translate.Options{Now: func() time.Time { return clock }, EntityTTL: -1, MetricDataTTL: -1})
	ctx := ng.WithAPIKey(context.Background(), apiKey)
	return tr, client, ctx, translate.Caller{KeyHash: translate.HashKey(apiKey), AccountID: account}
}

// golden compares a v2 body with testdata/golden/name (rewritten with -update).
func golden(t *testing.T, name string, doc restv2.Document) []byte {
	t.Helper()
	body := restv2.JSON(nil, doc)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatalf("v2 body is not JSON: %v\n%s", err, body)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run with -update)", name, err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("v2 body differs from %s:\n got %s\nwant %s", path, pretty.Bytes(), want)
	}
	return body
}

// contextCaller is a request's context and caller, handed to a table's call.
type contextCaller struct {
	ctx context.Context
	c   translate.Caller
}
