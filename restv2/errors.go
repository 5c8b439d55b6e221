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

// The statuses a v2 answer can carry, one constructor each: every error the gateway
// sends is built here, so the status a kind of failure gets is decided in one place.
// Plain ints keep this package free of net/http; the names follow net/http's
// status.go.

// BadRequest (400): the request cannot be read (a malformed id, body or parameter).
func BadRequest(title string, messages ...string) *Error { return newError(400, title, messages) }

// Unauthorized (401): no key, or a key New Relic does not accept.
func Unauthorized(title string, messages ...string) *Error { return newError(401, title, messages) }

// Forbidden (403): the key reaches no account the request names.
func Forbidden(title string, messages ...string) *Error { return newError(403, title, messages) }

// NotFound (404): no such resource for this key and account.
func NotFound(title string, messages ...string) *Error { return newError(404, title, messages) }

// MethodNotAllowed (405): the route exists without this method.
func MethodNotAllowed(title string, messages ...string) *Error { return newError(405, title, messages) }

// NotAcceptable (406): the asked format cannot be served.
func NotAcceptable(title string, messages ...string) *Error { return newError(406, title, messages) }

// RequestTimeout (408): the request's body did not arrive in time.
func RequestTimeout(title string, messages ...string) *Error { return newError(408, title, messages) }

// Conflict (409): the change contradicts the resource's present state.
func Conflict(title string, messages ...string) *Error { return newError(409, title, messages) }

// Gone (410): a retired route REST itself no longer served.
func Gone(title string, messages ...string) *Error { return newError(410, title, messages) }

// TooLarge (413): the body exceeds the configured limit.
func TooLarge(title string, messages ...string) *Error { return newError(413, title, messages) }

// UnsupportedMediaType (415): the body comes in an encoding the gateway cannot read.
func UnsupportedMediaType(title string, messages ...string) *Error {
	return newError(415, title, messages)
}

// Unprocessable (422): the input is readable but not valid (validation detail).
func Unprocessable(title string, messages ...string) *Error { return newError(422, title, messages) }

// TooManyRequests (429): a rate limit or guard refused the call.
func TooManyRequests(title string, messages ...string) *Error { return newError(429, title, messages) }

// ServerError (500): the gateway failed; the cause is logged, never sent.
func ServerError(title string, messages ...string) *Error { return newError(500, title, messages) }

// NotImplemented (501): NerdGraph cannot do what the route asks.
func NotImplemented(title string, messages ...string) *Error { return newError(501, title, messages) }

// BadGateway (502): NerdGraph answered with something unusable.
func BadGateway(title string, messages ...string) *Error { return newError(502, title, messages) }

// Unavailable (503): NerdGraph or the gateway is unavailable for now; retry later.
func Unavailable(title string, messages ...string) *Error { return newError(503, title, messages) }

// GatewayTimeout (504): NerdGraph did not answer within the request's deadline.
func GatewayTimeout(title string, messages ...string) *Error { return newError(504, title, messages) }

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
