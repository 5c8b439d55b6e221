package migrate

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
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
// bare token is refused. Only guesses are counted: a request that presents no bearer
// token is a 401 that costs its address nothing, so callers sharing an address (a NAT)
// cannot lock the operator out by asking without one. Failed bearer tokens are
// counted per client address (the connection's peer), and an address past
// adminFailuresPerMinute is answered 429 with Retry-After until its minute ends,
// without comparing the token.
//
// Each failed bearer token is logged (the address, the endpoint, the count this minute;
// never what was sent), and so is the start of an address's throttle and of the
// minute's overflow of tracked addresses, once each: the 429s themselves are not, so a
// flood writes no more lines than its counted failures. A request without a bearer
// token is not a guess and is not logged either.
type adminGate struct {
	token string
	now   func() time.Time
	log   *zap.Logger

	mu       sync.Mutex
	minute   time.Time
	failures map[string]int
	overflow bool // the minute's overflow of tracked addresses was logged
}

func newAdminGate(token string, now func() time.Time, log *zap.Logger) *adminGate {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &adminGate{token: token, now: now, log: log, failures: map[string]int{}}
}

// admit reports whether r carries the admin token. When it does not, it has written
// the refusal: 429 with Retry-After for a guess from an address past its failures,
// else 401 with a WWW-Authenticate challenge for realm (refuse writes the body).
func (a *adminGate) admit(w http.ResponseWriter, r *http.Request, realm string, refuse func(status int, msg string)) bool {
	token, presented := bearer(r.Header.Get("Authorization"))
	if !presented {
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
		refuse(http.StatusUnauthorized, "give the admin token as Authorization: Bearer <token>")
		return false
	}
	addr := peer(r)
	now := a.now()
	a.mu.Lock()
	if m := now.Truncate(time.Minute); !m.Equal(a.minute) {
		a.minute, a.failures, a.overflow = m, map[string]int{}, false
	}
	n, known := a.failures[addr]
	full := !known && len(a.failures) >= adminMaxAddresses
	over := n >= adminFailuresPerMinute || full
	reset := a.minute.Add(time.Minute)
	logOverflow := full && !a.overflow
	a.overflow = a.overflow || full
	a.mu.Unlock()
	if logOverflow {
		a.log.Warn("admin token: too many addresses failing this minute; new ones are refused until it ends",
			zap.String("endpoint", realm), zap.Int("addresses", adminMaxAddresses), zap.Time("until", reset))
	}
	if over {
		w.Header().Set("Retry-After", strconv.Itoa(max(int(reset.Sub(now).Seconds())+1, 1)))
		refuse(http.StatusTooManyRequests, "too many failed admin-token attempts from this address; retry later")
		return false
	}
	if a.token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(a.token)) == 1 {
		return true
	}
	a.mu.Lock()
	if _, known := a.failures[addr]; known || len(a.failures) < adminMaxAddresses {
		a.failures[addr]++
	}
	failures := a.failures[addr]
	a.mu.Unlock()
	a.log.Warn("admin token refused", zap.String("endpoint", realm), zap.String("client", addr),
		zap.String("reason", "wrong token"), zap.Int("failures_this_minute", failures))
	if failures == adminFailuresPerMinute {
		a.log.Warn("admin token: address throttled until the minute ends", zap.String("endpoint", realm), zap.String("client", addr),
			zap.Int("failures_this_minute", failures), zap.Time("until", reset))
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
	refuse(http.StatusUnauthorized, "give the admin token as Authorization: Bearer <token>")
	return false
}

// bearer is the token of an Authorization header "Bearer <token>", the scheme in any
// case; presented is false for no header, another scheme, a bare token or an empty one.
func bearer(header string) (token string, presented bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// peer is the address a request came from: the connection's, never a header.
func peer(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
