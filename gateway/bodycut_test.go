package gateway

import (
	"errors"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

// cutReader gives its bytes, then fails with err: a body the transport stopped
// delivering part way (a client that hung up, or one cut by the minimum body rate).
type cutReader struct {
	b   []byte
	err error
}

func (c *cutReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, c.err
	}
	n := copy(p, c.b)
	c.b = c.b[n:]
	return n, nil
}

// A compressed body whose transport fails part way answers as the transport's failure
// (408 when the minimum rate cut it, else "Could not read the request body"), never as
// a body that does not decode, which would blame the client's encoding.
func TestCompressedBodyCutAnswersAsTheCut(t *testing.T) {
	whole := gzipped(t, `{"deployment":{"revision":"v1","changelog":"a long enough changelog to be cut"}}`)
	for _, tc := range []struct {
		name   string
		err    error
		status int
		title  string
	}{
		{"cut by the minimum rate", restv2.RequestTimeout("Request body too slow"), restv2.StatusRequestTimeout, "Request body too slow"},
		{"client went away", errors.New("connection reset by peer"), restv2.StatusBadRequest, "Could not read the request body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/v2/applications/1/deployments.json", io.NopCloser(&cutReader{b: whole[:len(whole)/2], err: tc.err}))
			r.Header.Set("Content-Encoding", "gzip")
			_, err := readBody(r, 1<<20)
			var ve *restv2.Error
			if !errors.As(err, &ve) || ve.Status != tc.status || ve.Title != tc.title {
				t.Fatalf("readBody = %v, want %d %q", err, tc.status, tc.title)
			}
		})
	}
}
