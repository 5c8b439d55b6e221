package migrate

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Failed admin-token attempts a client address may make in a minute before its
// attempts are answered 429 until the minute ends, and how many addresses are
// tracked (beyond it, a new address is refused as if over its limit: a flood from
// many addresses cannot grow memory).
const (
	adminFailuresPerMinute = 10
	adminMaxAddresses      = 10000
)

// adminGate guards the operator endpoints (the usage report and explain) with the
// admin token. The token is accepted only as Authorization: Bearer <token>, the scheme
// in any case (RFC 9110 §11.1: "the authentication scheme is case-insensitive"); a
// bare token is refused. Failed attempts are counted per client address (the
// connection's peer), and an address past adminFailuresPerMinute is answered 429 with
// Retry-After until its minute ends, without comparing the token.
type adminGate struct {
	token string
	now   func() time.Time

	mu       sync.Mutex
	minute   time.Time
	failures map[string]int
}

func newAdminGate(token string, now func() time.Time) *adminGate {
	if now == nil {
		now = time.Now
	}
	return &adminGate{token: token, now: now, failures: map[string]int{}}
}

// admit reports whether r carries the admin token. When it does not, it has written
// the refusal: 429 with Retry-After for an address past its failures, else 401 with a
// WWW-Authenticate challenge for realm (refuse writes the body).
func (a *adminGate) admit(w http.ResponseWriter, r *http.Request, realm string, refuse func(status int, msg string)) bool {
	addr := peer(r)
	now := a.now()
	a.mu.Lock()
	if m := now.Truncate(time.Minute); !m.Equal(a.minute) {
		a.minute, a.failures = m, map[string]int{}
	}
	n, known := a.failures[addr]
	over := n >= adminFailuresPerMinute || (!known && len(a.failures) >= adminMaxAddresses)
	reset := a.minute.Add(time.Minute)
	a.mu.Unlock()
	if over {
		w.Header().Set("Retry-After", strconv.Itoa(max(int(reset.Sub(now).Seconds())+1, 1)))
		refuse(http.StatusTooManyRequests, "too many failed admin-token attempts from this address; retry later")
		return false
	}
	if bearerToken(r.Header.Get("Authorization"), a.token) {
		return true
	}
	a.mu.Lock()
	if _, known := a.failures[addr]; known || len(a.failures) < adminMaxAddresses {
		a.failures[addr]++
	}
	a.mu.Unlock()
	w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
	refuse(http.StatusUnauthorized, "give the admin token as Authorization: Bearer <token>")
	return false
}

// bearerToken reports whether header is "Bearer <want>", the scheme in any case.
func bearerToken(header, want string) bool {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	token = strings.TrimSpace(token)
	return want != "" && subtle.ConstantTimeCompare([]byte(token), []byte(want)) == 1
}

// peer is the address a request came from: the connection's, never a header.
func peer(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
