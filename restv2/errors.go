package restv2

import "strings"

// Error is a REST v2 error answer: an HTTP status code (plain
// ints: this package does not depend on net/http) and the body
// {"error":{"title":"...","messages":["..."]}}, in XML
// <error><title>...</title><messages><message>...</message></messages></error>.
// messages is omitted when empty. *Error is both an error and a Document.
type Error struct {
	Status   int
	Title    string
	Messages []string
}

// Error returns the title, followed by the messages joined with ", " (the way
// newrelic-client-go prints v2 errors).
func (e *Error) Error() string {
	if len(e.Messages) == 0 {
		return e.Title
	}
	return e.Title + ": " + strings.Join(e.Messages, ", ")
}

// Root is "": the error object itself is the XML root element.
func (*Error) Root() string { return "" }

// EncodeV2 writes {"error":{"title":...,"messages":[...]}}.
func (e *Error) EncodeV2(enc Encoder) {
	enc.BeginObject("error")
	enc.String("title", e.Title)
	if len(e.Messages) > 0 {
		enc.BeginArray("messages", "message")
		for _, m := range e.Messages {
			enc.String("message", m)
		}
		enc.EndArray()
	}
	enc.EndObject()
}

// Titles REST v2 used, as New Relic's REST API v2 pages show them.
const (
	TitleNoAPIKey             = "No API key specified"
	TitleInvalidAPIKey        = "Invalid API key"
	TitleAPIAccessNotEnabled  = "New Relic API access has not been enabled"
	TitleServerError          = "A server error occurred, please contact New Relic support"
	TitleApplicationNotFound  = "No Application found with the given ID"
	TitleApplicationReporting = "Cannot delete an application that is still reporting data."
)

// ErrNoAPIKey is the 401 for a request without Api-Key / X-Api-Key.
func ErrNoAPIKey() *Error { return Unauthorized(TitleNoAPIKey) }

// ErrInvalidAPIKey is the 401 for a key New Relic does not accept.
func ErrInvalidAPIKey() *Error { return Unauthorized(TitleInvalidAPIKey) }

// ErrAPIAccessNotEnabled is the 403 for a key or account without REST API access.
func ErrAPIAccessNotEnabled() *Error { return Forbidden(TitleAPIAccessNotEnabled) }

// ErrServer is the 500 REST v2 answered for internal failures.
func ErrServer() *Error { return ServerError(TitleServerError) }

// The HTTP statuses the gateway answers with. Every status is decided in this file:
// success answers name a Status constant, errors use one constructor per status, and
// code elsewhere compares against these names (TestNoStatusLiteralsOutsideRestv2).
// Plain ints keep this package free of net/http; the names and values follow
// net/http's status.go.
const (
	StatusOK                    = 200
	StatusCreated               = 201
	StatusNotModified           = 304
	StatusBadRequest            = 400
	StatusUnauthorized          = 401
	StatusForbidden             = 403
	StatusNotFound              = 404
	StatusMethodNotAllowed      = 405
	StatusNotAcceptable         = 406
	StatusRequestTimeout        = 408
	StatusConflict              = 409
	StatusGone                  = 410
	StatusRequestEntityTooLarge = 413
	StatusUnsupportedMediaType  = 415
	StatusUnprocessableEntity   = 422
	StatusTooManyRequests       = 429
	StatusInternalServerError   = 500
	StatusNotImplemented        = 501
	StatusBadGateway            = 502
	StatusServiceUnavailable    = 503
	StatusGatewayTimeout        = 504
)

// IsError reports whether status is an error (4xx or 5xx).
func IsError(status int) bool { return status >= StatusBadRequest }

// IsServerError reports whether status is a server-side failure (5xx): the gateway's or
// NerdGraph's, never the client's.
func IsServerError(status int) bool { return status >= StatusInternalServerError }

// The error statuses, one constructor each: every error the gateway sends is built
// here, so the status a kind of failure gets is decided in one place.

// BadRequest (400): the request cannot be read (a malformed id, body or parameter).
func BadRequest(title string, messages ...string) *Error {
	return newError(StatusBadRequest, title, messages)
}

// Unauthorized (401): no key, or a key New Relic does not accept.
func Unauthorized(title string, messages ...string) *Error {
	return newError(StatusUnauthorized, title, messages)
}

// Forbidden (403): the key reaches no account the request names.
func Forbidden(title string, messages ...string) *Error {
	return newError(StatusForbidden, title, messages)
}

// NotFound (404): no such resource for this key and account.
func NotFound(title string, messages ...string) *Error {
	return newError(StatusNotFound, title, messages)
}

// MethodNotAllowed (405): the route exists without this method.
func MethodNotAllowed(title string, messages ...string) *Error {
	return newError(StatusMethodNotAllowed, title, messages)
}

// NotAcceptable (406): the asked format cannot be served.
func NotAcceptable(title string, messages ...string) *Error {
	return newError(StatusNotAcceptable, title, messages)
}

// RequestTimeout (408): the request's body did not arrive in time.
func RequestTimeout(title string, messages ...string) *Error {
	return newError(StatusRequestTimeout, title, messages)
}

// Conflict (409): the change contradicts the resource's present state.
func Conflict(title string, messages ...string) *Error {
	return newError(StatusConflict, title, messages)
}

// Gone (410): a retired route REST itself no longer served.
func Gone(title string, messages ...string) *Error { return newError(StatusGone, title, messages) }

// TooLarge (413): the body exceeds the configured limit.
func TooLarge(title string, messages ...string) *Error {
	return newError(StatusRequestEntityTooLarge, title, messages)
}

// UnsupportedMediaType (415): the body comes in an encoding the gateway cannot read.
func UnsupportedMediaType(title string, messages ...string) *Error {
	return newError(StatusUnsupportedMediaType, title, messages)
}

// Unprocessable (422): the input is readable but not valid (validation detail).
func Unprocessable(title string, messages ...string) *Error {
	return newError(StatusUnprocessableEntity, title, messages)
}

// TooManyRequests (429): a rate limit or guard refused the call.
func TooManyRequests(title string, messages ...string) *Error {
	return newError(StatusTooManyRequests, title, messages)
}

// ServerError (500): the gateway failed; the cause is logged, never sent.
func ServerError(title string, messages ...string) *Error {
	return newError(StatusInternalServerError, title, messages)
}

// NotImplemented (501): NerdGraph cannot do what the route asks.
func NotImplemented(title string, messages ...string) *Error {
	return newError(StatusNotImplemented, title, messages)
}

// BadGateway (502): NerdGraph answered with something unusable.
func BadGateway(title string, messages ...string) *Error {
	return newError(StatusBadGateway, title, messages)
}

// Unavailable (503): NerdGraph or the gateway is unavailable for now; retry later.
func Unavailable(title string, messages ...string) *Error {
	return newError(StatusServiceUnavailable, title, messages)
}

// GatewayTimeout (504): NerdGraph did not answer within the request's deadline.
func GatewayTimeout(title string, messages ...string) *Error {
	return newError(StatusGatewayTimeout, title, messages)
}

// WriteOutcomeUnknown is the 502 when a write may have reached NerdGraph but its
// answer was lost (the connection failed or NerdGraph failed after receiving it): the
// gateway never retries it, and the title names the read that shows whether it was
// applied.
func WriteOutcomeUnknown(what, check string) *Error {
	return newError(StatusBadGateway, outcomeUnknownTitle(what, check), nil)
}

// WriteTimedOut is the 504 when a write may have reached NerdGraph but no answer came
// within the request's deadline; like WriteOutcomeUnknown it is never retried.
func WriteTimedOut(what, check string) *Error {
	return newError(StatusGatewayTimeout, outcomeUnknownTitle(what, check), nil)
}

func outcomeUnknownTitle(what, check string) string {
	return "No answer from New Relic NerdGraph; the " + what +
		" may have been recorded. Check with " + check + " before sending it again"
}

func newError(status int, title string, messages []string) *Error {
	return &Error{Status: status, Title: title, Messages: messages}
}

// EmptyDocument is the body {} REST v2 sent with 429 Too Many Requests
// as New Relic's rate-limit page shows it. It emits no value; the XML renderer wraps that in a
// fallback root element.
type EmptyDocument struct{}

// Root is "".
func (EmptyDocument) Root() string { return "" }

// EncodeV2 emits nothing.
func (EmptyDocument) EncodeV2(Encoder) {}
