package graphql

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind classifies a failed NerdGraph call; the gateway maps each kind to one v2 status
// and title.
type Kind int

// The kinds of upstream failure.
const (
	KindServer      Kind = iota // NerdGraph failed (HTTP 5xx, INTERNAL_SERVER_ERROR): 502
	KindAuth                    // key rejected (HTTP 401, BAD_API_KEY): 401
	KindForbidden               // key valid but not allowed (FORBIDDEN, ACCESS_DENIED): 403
	KindNotFound                // NOT_FOUND: 404
	KindRateLimited             // HTTP 429, TOO_MANY_REQUESTS: 429 with Retry-After
	KindTimeout                 // deadline passed or TIMEOUT: 504
	KindInvalid                 // the operation or NRQL was rejected: a gateway bug, 500
	KindTransport               // no usable HTTP answer (connection refused, reset, bad JSON): 502
	KindUnavailable             // not sent: the circuit breaker is open: 503 with Retry-After
	KindOverloaded              // the gateway's own overload: not sent (it waited too long for one of its key's slots) or answered but not decoded in time (ErrAnswerWait): 503 with Retry-After
)

var kindNames = [...]string{"server", "auth", "forbidden", "not_found", "rate_limited", "timeout", "invalid", "transport", "unavailable", "overloaded"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// GraphQLError is one entry of a NerdGraph response's "errors" list.
type GraphQLError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// PathString renders the error path as dotted text ("actor.account.inventory").
func (e GraphQLError) PathString() string {
	parts := make([]string, 0, len(e.Path))
	for _, p := range e.Path {
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ".")
}

func (e GraphQLError) class() string {
	for _, k := range []string{"errorClass", "error_code", "code"} {
		if s, ok := e.Extensions[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Error is a failed NerdGraph call. Errors carries the GraphQL errors when the
// response had any; for partial responses the generated response data is still filled.
type Error struct {
	Kind       Kind
	Status     int           // HTTP status of the upstream answer, 0 when none arrived
	RetryAfter time.Duration // from Retry-After, when the upstream sent one
	Errors     []GraphQLError
	Err        error // underlying transport error, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("nerdgraph ")
	b.WriteString(e.Kind.String())
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	for i, ge := range e.Errors {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(e.Errors)-3)
			break
		}
		b.WriteString(": ")
		b.WriteString(ge.Message)
		if p := ge.PathString(); p != "" {
			b.WriteString(" at ")
			b.WriteString(p)
		}
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// OnlyAt reports whether err is a NerdGraph error whose every GraphQL error sits at or
// below one of the given dotted paths (e.g. "actor.account.inventory"): the caller may
// then use the rest of the data and treat those fields as missing enrichments.
func OnlyAt(err error, paths ...string) bool {
	var ge *Error
	if !errors.As(err, &ge) || len(ge.Errors) == 0 || ge.Status >= 300 {
		return false
	}
	// A key that may not read the account is never a missing enrichment.
	if ge.Kind == KindAuth || ge.Kind == KindForbidden {
		return false
	}
	for _, e := range ge.Errors {
		p := e.PathString()
		ok := false
		for _, want := range paths {
			if p == want || strings.HasPrefix(p, want+".") {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// isDeprecationWarning reports NerdGraph's deprecation notices, which arrive as
// errors beside good data and carry no failure.
func isDeprecationWarning(e GraphQLError) bool {
	return strings.HasPrefix(e.Message, "This field is deprecated!")
}

// classify picks the kind of a list of GraphQL errors (the most severe wins).
func classify(errs []GraphQLError) Kind {
	kind := KindServer
	rank := func(k Kind) int {
		switch k {
		case KindAuth:
			return 7
		case KindForbidden:
			return 6
		case KindRateLimited:
			return 5
		case KindTimeout:
			return 4
		case KindInvalid:
			return 3
		case KindNotFound:
			return 2
		}
		return 1
	}
	for i, e := range errs {
		k := classifyOne(e)
		if i == 0 || rank(k) > rank(kind) {
			kind = k
		}
	}
	return kind
}

func classifyOne(e GraphQLError) Kind {
	switch strings.ToUpper(e.class()) {
	case "BAD_API_KEY", "UNAUTHORIZED", "UNAUTHENTICATED", "INVALID_API_KEY":
		return KindAuth
	case "FORBIDDEN", "ACCESS_DENIED":
		return KindForbidden
	case "NOT_FOUND":
		return KindNotFound
	case "TOO_MANY_REQUESTS":
		return KindRateLimited
	case "TIMEOUT":
		return KindTimeout
	case "GRAPHQL_VALIDATION_FAILED", "GRAPHQL_PARSE_FAILED", "BAD_USER_INPUT", "INVALID_INPUT", "NRQL_SYNTAX_ERROR":
		return KindInvalid
	case "INTERNAL_SERVER_ERROR", "SERVER_ERROR":
		return KindServer
	}
	msg := e.Message
	switch {
	case strings.Contains(msg, "Cannot query field"), strings.Contains(msg, "Unknown argument"),
		strings.Contains(msg, "NRQL Syntax Error"), strings.Contains(msg, "is not defined by type"):
		return KindInvalid
	}
	return KindServer
}
