package v2

import "strings"

// Error is a REST v2 error answer (REFERENCE.md §7): an HTTP status code (plain
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

// Titles REST v2 used (REFERENCE.md §7.2).
const (
	TitleNoAPIKey             = "No API key specified"
	TitleInvalidAPIKey        = "Invalid API key"
	TitleAPIAccessNotEnabled  = "New Relic API access has not been enabled"
	TitleServerError          = "A server error occurred, please contact New Relic support"
	TitleApplicationNotFound  = "No Application found with the given ID"
	TitleApplicationReporting = "Cannot delete an application that is still reporting data."
)

// ErrNoAPIKey is the 401 for a request without Api-Key / X-Api-Key.
func ErrNoAPIKey() *Error { return &Error{Status: 401, Title: TitleNoAPIKey} }

// ErrInvalidAPIKey is the 401 for a key New Relic does not accept.
func ErrInvalidAPIKey() *Error {
	return &Error{Status: 401, Title: TitleInvalidAPIKey}
}

// ErrAPIAccessNotEnabled is the 403 for a key or account without REST API access.
func ErrAPIAccessNotEnabled() *Error {
	return &Error{Status: 403, Title: TitleAPIAccessNotEnabled}
}

// ErrServer is the 500 REST v2 answered for internal failures.
func ErrServer() *Error {
	return &Error{Status: 500, Title: TitleServerError}
}

// BadRequest is a 400 with title and optional messages.
func BadRequest(title string, messages ...string) *Error {
	return &Error{Status: 400, Title: title, Messages: messages}
}

// NotFound is a 404 with title, e.g. NotFound(TitleApplicationNotFound).
func NotFound(title string) *Error { return &Error{Status: 404, Title: title} }

// Unprocessable is a 422 with title and optional messages (validation detail).
func Unprocessable(title string, messages ...string) *Error {
	return &Error{Status: 422, Title: title, Messages: messages}
}

// EmptyDocument is the body {} REST v2 sent with 429 Too Many Requests
// (REFERENCE.md §7.2). It emits no value; the XML renderer wraps that in a
// fallback root element.
type EmptyDocument struct{}

// Root is "".
func (EmptyDocument) Root() string { return "" }

// EncodeV2 emits nothing.
func (EmptyDocument) EncodeV2(Encoder) {}
