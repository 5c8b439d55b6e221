package gateway

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// Titles of errors the gateway itself produces (REST v2's own titles are in
// restv2/errors.go).
const (
	titleUpstreamFail  = "The New Relic NerdGraph API failed to answer; try again later"
	titleUpstreamSlow  = "The New Relic NerdGraph API did not answer in time; try again later"
	titleRouteNotFound = "No route matches this request; see the v2bridge README for the supported REST v2 routes"
)

// v2Error is the gateway's one table from a failure to the v2 error the caller gets:
// a *restv2.Error as it is; a parameter error 400; each kind of NerdGraph failure its
// status (refused key 401, no API access 403, not found 404, rate limited 429, invalid
// answer 500, breaker open, the key's slots busy or a large answer not decoded in time 503, timeout 504, anything else 502); a deadline 504; the
// rest 500. Callers never see an internal error's text: the second result is the cause
// to log, for the failures that are the gateway's or NerdGraph's.
func v2Error(err error) (*restv2.Error, error) {
	var ve *restv2.Error
	if errors.As(err, &ve) {
		return ve, nil
	}
	var pt *PassthroughError
	if errors.As(err, &pt) {
		return restv2.BadGateway("The New Relic REST API v2 did not answer (pass-through route); try again later"), err
	}
	var pe *restv2.ParamError
	if errors.As(err, &pe) {
		return restv2.BadRequest(pe.Error()), nil
	}
	var ge *ng.Error
	if errors.As(err, &ge) {
		switch ge.Kind {
		case ng.KindAuth:
			return restv2.ErrInvalidAPIKey(), nil
		case ng.KindForbidden:
			return restv2.ErrAPIAccessNotEnabled(), err
		case ng.KindNotFound:
			return restv2.NotFound("Not found"), err
		case ng.KindRateLimited:
			return restv2.TooManyRequests("Rate limit exceeded at the New Relic NerdGraph API; retry later"), err
		case ng.KindTimeout:
			return restv2.GatewayTimeout(titleUpstreamSlow), err
		case ng.KindInvalid:
			return restv2.ErrServer(), err
		case ng.KindUnavailable:
			return restv2.Unavailable("The New Relic NerdGraph API is failing; v2bridge is not calling it for a few seconds. Retry later"), err
		case ng.KindOverloaded:
			// The gateway's own overload: NerdGraph was not asked, or answered in time.
			if errors.Is(err, ng.ErrAnswerWait) {
				return restv2.Unavailable("v2bridge is busy decoding other large answers from New Relic; retry later"), err
			}
			return restv2.Unavailable("v2bridge is busy with this API key's other requests to New Relic; retry later"), err
		default:
			return restv2.BadGateway(titleUpstreamFail), err
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return restv2.GatewayTimeout(titleUpstreamSlow), err
	}
	return restv2.ErrServer(), err
}

// retryAfterOf is the Retry-After to send with a 429/503 caused by err.
func retryAfterOf(err error) time.Duration {
	var ge *ng.Error
	if errors.As(err, &ge) && ge.RetryAfter > 0 {
		return ge.RetryAfter
	}
	return time.Second
}

// writeError renders err as a v2 error body in the request's format.
func (g *Gateway) writeError(w http.ResponseWriter, r *http.Request, format string, err error) {
	ve, cause := v2Error(err)
	if cause != nil && restv2.IsServerError(ve.Status) {
		if st := stateFrom(r.Context()); st != nil && st.internal == nil {
			st.internal = cause
		}
	}
	if (ve.Status == restv2.StatusTooManyRequests || ve.Status == restv2.StatusServiceUnavailable) && w.Header().Get("Retry-After") == "" {
		secs := int(retryAfterOf(err).Round(time.Second) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
	g.writeDoc(w, r, format, ve.Status, ve)
}
