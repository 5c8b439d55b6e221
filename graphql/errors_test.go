package graphql

import (
	"errors"
	"strings"
	"testing"
)

// TestKindStringPastTheNames: a Kind past the named ones prints its number instead of
// indexing past the names.
func TestKindStringPastTheNames(t *testing.T) {
	for k, want := range map[Kind]string{KindServer: "server", KindUnavailable: "unavailable", KindOverloaded: "overloaded", Kind(10): "kind(10)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

// TestClassify pins the GraphQL error classes and that the most severe wins.
func TestClassify(t *testing.T) {
	e := func(class string) GraphQLError {
		return GraphQLError{Message: "m", Extensions: map[string]any{"errorClass": class}}
	}
	tests := []struct {
		name string
		errs []GraphQLError
		want Kind
	}{
		{"auth beats all", []GraphQLError{e("NOT_FOUND"), e("BAD_API_KEY"), e("FORBIDDEN")}, KindAuth},
		{"forbidden beats rate limit", []GraphQLError{e("TOO_MANY_REQUESTS"), e("ACCESS_DENIED")}, KindForbidden},
		{"rate limit beats timeout", []GraphQLError{e("TIMEOUT"), e("TOO_MANY_REQUESTS")}, KindRateLimited},
		{"timeout beats invalid", []GraphQLError{e("BAD_USER_INPUT"), e("TIMEOUT")}, KindTimeout},
		{"invalid beats not found", []GraphQLError{e("NOT_FOUND"), e("NRQL_SYNTAX_ERROR")}, KindInvalid},
		{"not found beats server", []GraphQLError{e("INTERNAL_SERVER_ERROR"), e("NOT_FOUND")}, KindNotFound},
		{"first kept when equal", []GraphQLError{e("NOT_FOUND"), e("NOT_FOUND")}, KindNotFound},
		{"server first, then nothing worse", []GraphQLError{e("SERVER_ERROR"), {Message: "odd"}}, KindServer},
		{"single not found", []GraphQLError{e("not_found")}, KindNotFound},
		{"error_code key", []GraphQLError{{Extensions: map[string]any{"error_code": "UNAUTHORIZED"}}}, KindAuth},
		{"code key", []GraphQLError{{Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}}}, KindInvalid},
		{"empty errorClass falls to code", []GraphQLError{{Extensions: map[string]any{"errorClass": "", "code": "TIMEOUT"}}}, KindTimeout},
		{"message: unknown field", []GraphQLError{{Message: `Cannot query field "x"`}}, KindInvalid},
		{"message: nrql", []GraphQLError{{Message: "NRQL Syntax Error: x"}}, KindInvalid},
		{"message: other", []GraphQLError{{Message: "boom"}}, KindServer},
	}
	for _, tt := range tests {
		if got := classify(tt.errs); got != tt.want {
			t.Errorf("%s: classify = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestErrorText pins the error text: kind, status, at most three GraphQL errors with
// their paths.
func TestErrorText(t *testing.T) {
	e := &Error{Kind: KindServer, Status: 502, Errors: []GraphQLError{
		{Message: "a", Path: []any{"actor", "account", 1}}, {Message: "b"}, {Message: "c"}, {Message: "d"}, {Message: "e"},
	}, Err: errors.New("cause")}
	want := "nerdgraph server (HTTP 502): a at actor.account.1: b: c; and 2 more: cause"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := (&Error{Kind: KindTimeout}).Error(); got != "nerdgraph timeout" {
		t.Errorf("Error() = %q", got)
	}
	if got := Kind(42).String(); got != "kind(42)" {
		t.Errorf("Kind(42) = %q", got)
	}
	if got := KindUnavailable.String(); got != "unavailable" {
		t.Errorf("KindUnavailable = %q", got)
	}
}

// TestOnlyAt pins when a partial answer's errors are only missing enrichments (an HTTP
// status of 300 or more, the auth/forbidden rule, the path prefix rule).
func TestOnlyAt(t *testing.T) {
	at := func(kind Kind, status int, paths ...string) error {
		e := &Error{Kind: kind, Status: status}
		for _, p := range paths {
			var path []any
			for _, s := range strings.Split(p, ".") {
				path = append(path, s)
			}
			e.Errors = append(e.Errors, GraphQLError{Message: "x", Path: path})
		}
		return e
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"at the path", at(KindServer, 200, "actor.account.inventory"), true},
		{"below the path", at(KindServer, 200, "actor.account.inventory.items"), true},
		{"sibling prefix", at(KindServer, 200, "actor.account.inventoryX"), false},
		{"one elsewhere", at(KindServer, 200, "actor.account.inventory", "actor.entity"), false},
		{"status 300", at(KindServer, 300, "actor.account.inventory"), false},
		{"status 299", at(KindServer, 299, "actor.account.inventory"), true},
		{"auth", at(KindAuth, 200, "actor.account.inventory"), false},
		{"forbidden", at(KindForbidden, 200, "actor.account.inventory"), false},
		{"no errors", &Error{Kind: KindServer, Status: 200}, false},
		{"not a NerdGraph error", errors.New("x"), false},
	}
	for _, tt := range tests {
		if got := OnlyAt(tt.err, "actor.account.inventory", "actor.other"); got != tt.want {
			t.Errorf("%s: OnlyAt = %v, want %v", tt.name, got, tt.want)
		}
	}
}
