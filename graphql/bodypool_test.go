package graphql

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// answersInTurn answers each NerdGraph request with the next body of its list, and
// notes where each answer was read into (the first Read's buffer).
type answersInTurn struct {
	bodies [][]byte
	n      atomic.Int64
	into   []*byte
}

func (a *answersInTurn) RoundTrip(r *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	b := a.bodies[int(a.n.Add(1)-1)%len(a.bodies)]
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		ContentLength: int64(len(b)), Body: &notingReader{r: bytes.NewReader(b), a: a}, Request: r}, nil
}

type notingReader struct {
	r     *bytes.Reader
	a     *answersInTurn
	noted bool
}

func (n *notingReader) Read(p []byte) (int, error) {
	if !n.noted && len(p) > 0 {
		n.noted = true
		n.a.into = append(n.a.into, &p[0])
	}
	return n.r.Read(p)
}

func (n *notingReader) Close() error { return nil }

// An answer's body buffer is reused by the next call once decoded (readBodyInto,
// releaseBody), so nothing decoded may point into it: strings, raw NRQL results and
// bound rows must keep their values after the buffer is overwritten by another answer
// of the same size. Fails if the decoder aliased the body (or the pool handed out a
// buffer still being read).
func TestDecodedAnswerOutlivesItsBody(t *testing.T) {
	first := `{"data":{"actor":{"entitySearch":{"count":1,"results":{"nextCursor":"c1","entities":[` +
		`{"__typename":"ApmApplicationEntityOutline","guid":"MTAwMDAwMXxBUE18QVBQTElDQVRJT058NDI","accountId":1000001,` +
		`"name":"checkout","reporting":true,"alertSeverity":"WARNING","applicationId":42,"language":"java",` +
		`"settings":{"apdexTarget":0.5,"serverSideConfig":true},"apmSummary":null,"apmBrowserSummary":null}]}},` +
		`"browsers":{"results":{"nextCursor":null,"entities":[]}},` +
		`"account":{"inventory":{"results":[{"facet":[42,"web-01",7],"lastSeen":1763640000000}]}}}}}`
	// The same length, every letter changed: a decoded value that aliased the first
	// body would read these bytes.
	second := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'y', r >= 'A' && r <= 'Y', r >= '0' && r <= '8':
			return r + 1
		}
		return r
	}, first)
	second = strings.NewReplacer(`"ebub"`, `"data"`).Replace(second) // keep it decodable as an envelope
	up := &answersInTurn{bodies: [][]byte{[]byte(first), []byte(second)}}
	c := NewClient("http://nerdgraph.invalid/graphql", Options{HTTPClient: &http.Client{Transport: up}, MaxAttempts: 1})
	ctx := WithAPIKey(context.Background(), "NRAK-TEST")

	// Ten calls in turn: each reads into the buffer the previous one released (the
	// pool may drop a buffer now and then, always under -race, so reuse is required
	// once, not every time); the odd calls' answers are kept and checked at the end,
	// after the even calls' answers overwrote their buffers.
	var kept []*AppListResponse
	for i := range 10 {
		resp, err := AppList(ctx, c, "q", nil, "b", 1000001, "SELECT 1", true)
		if i%2 == 0 {
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, resp)
		}
	}
	for _, resp := range kept {
		res := resp.GetActor().GetEntitySearch().GetResults()
		e := res.GetEntities()[0]
		if e.Name != "checkout" || e.Guid != "MTAwMDAwMXxBUE18QVBQTElDQVRJT058NDI" || e.GetLanguage() != "java" ||
			e.GetAlertSeverity() != EntityAlertSeverityWarning || string(e.Typename) != `"ApmApplicationEntityOutline"` || *res.NextCursor != "c1" {
			t.Fatalf("decoded strings changed with the reused body: %+v, cursor %q", e, *res.NextCursor)
		}
		inv := string(resp.GetActor().GetAccount().GetInventory().GetResults())
		if inv != `[{"facet":[42,"web-01",7],"lastSeen":1763640000000}]` {
			t.Fatalf("raw inventory changed with the reused body: %s", inv)
		}
	}
	if up.n.Load() != 10 || len(up.into) != 10 {
		t.Fatalf("%d upstream calls, %d reads, want 10", up.n.Load(), len(up.into))
	}
	reused := 0
	for i := 1; i < len(up.into); i++ {
		if up.into[i] == up.into[i-1] {
			reused++
		}
	}
	if reused == 0 {
		t.Error("no answer was read into the previous one's buffer: the pool is not used")
	}
}
