package gateway

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// poolFor is the in-flight pool a request waits in, decided from its headers alone
// before its body is read: the main pool (Config.MaxInFlight) for a key NerdGraph has
// accepted, a small pool of its own (Config.MaxUnauthenticatedInFlight) for every
// other request — no key, a new key, a refused one. Callers that have not proven a
// key can fill only their own pool, never starve accepted callers.
func (g *Gateway) poolFor(r *http.Request, st *reqState) chan struct{} {
	key, header, err := presentedKey(r.Header) // callerKey refuses two keys later
	st.apiKeyed = header != "X-License-Key"
	if err != nil || key == "" || g.tr == nil {
		return g.unauthSlots
	}
	st.key = key
	st.keyHash, st.keySum = translate.KeySum(key)
	if g.keys.known(st.keyHash) {
		st.accepted = true
		return g.slots
	}
	return g.unauthSlots
}

// keyHashes is translate.KeySum(key), read from the request's state when admission
// already hashed that key.
func (st *reqState) keyHashes(key string) (string, [32]byte) {
	if st != nil && st.key == key && st.keyHash != "" {
		return st.keyHash, st.keySum
	}
	return translate.KeySum(key)
}

// pacedBody reads a request body under a minimum transfer rate: the connection's read
// deadline is start + grace + (bytes read so far) / rate, moved on with every read, so
// a body that stalls or trickles is cut instead of holding its slot until the
// server's read timeout. At the body's end the deadline is lifted: the server watches
// the idle connection for the caller going away, and must not mistake the deadline
// for that while the answer is being made.
type pacedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64
	read  int64
}

func newPacedBody(w http.ResponseWriter, body io.ReadCloser, start time.Time, grace time.Duration, rate int64) io.ReadCloser {
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(start.Add(grace)); err != nil {
		return body // a writer without deadlines (a test recorder): read as it comes
	}
	return &pacedBody{ReadCloser: body, rc: rc, start: start, grace: grace, rate: rate}
}

func (b *pacedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	switch {
	case err == io.EOF:
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = restv2.RequestTimeout("The request body arrived too slowly; send it again at a steady rate")
	case err == nil:
		_ = b.rc.SetReadDeadline(b.start.Add(b.grace + time.Duration(b.read*int64(time.Second)/b.rate)))
	}
	return n, err
}

// bodyReadError is the v2 error for a body that could not be read.
func bodyReadError(err error) *restv2.Error {
	var ve *restv2.Error
	if errors.As(err, &ve) {
		return ve
	}
	return restv2.BadRequest("Could not read the request body")
}
