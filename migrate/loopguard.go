package migrate

import (
	"net/http"
	"strings"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/restv2"
)

// viaPseudonym is how a v2bridge names itself in the Via header of what it forwards to
// REST (RFC 9110 §7.6.3: "received-protocol received-by").
const viaPseudonym = "v2bridge"

// viaValue is the Via entry a forwarded request carries.
const viaValue = "1.1 " + viaPseudonym

// loopGuard refuses to forward a request that a v2bridge already forwarded: when
// rest_upstream leads back to a gateway (internal DNS that sends New Relic's hostname to
// the gateway, for clients that cannot change their host, also answers the gateway's
// own lookups), each pass would call the gateway again. The request is answered 508
// instead, naming the fix, and the loop ends at its second hop.
func loopGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if forwardedByGateway(r.Header) {
			gateway.WriteError(w, r, &restv2.Error{Status: http.StatusLoopDetected,
				Title: "v2bridge would forward this request to itself: rest_upstream leads back to a v2bridge gateway " +
					"(does the gateway's DNS send the REST API's host to the gateway?); set rest_upstream to the REST API's own address"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// forwardedByGateway reports whether h's Via names a v2bridge.
func forwardedByGateway(h http.Header) bool {
	for _, v := range h.Values("Via") {
		for entry := range strings.SplitSeq(v, ",") {
			if f := strings.Fields(entry); len(f) >= 2 && strings.EqualFold(f[1], viaPseudonym) {
				return true
			}
		}
	}
	return false
}
