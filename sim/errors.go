package sim

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// UnsupportedMessage ends the message of every GraphQL error the simulator returns for
// a part of the schema it does not simulate.
const UnsupportedMessage = "not supported by the v2bridge simulator"

// NerdGraph's extensions.errorClass values used here (newrelic/newrelic-client-go
// internal/http/graphql.go).
const (
	classForbidden    = "FORBIDDEN"
	classInvalidInput = "INVALID_INPUT"
	classNotFound     = "NOT_FOUND"
	classTimeout      = "TIMEOUT"
	classInternal     = "INTERNAL_SERVER_ERROR"
)

// gqlError is a GraphQL error with extensions.errorClass; the executor adds the path.
func gqlError(class, format string, args ...any) *gqlerror.Error {
	e := &gqlerror.Error{Message: fmt.Sprintf(format, args...)}
	if class != "" {
		e.Extensions = map[string]any{"errorClass": class}
	}
	return e
}

// unsupported is the error of a field the simulator does not answer.
func unsupported(ctx context.Context) error {
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		return gqlError("", "%s.%s is %s", fc.Object, fc.Field.Name, UnsupportedMessage)
	}
	return gqlError("", "%s", UnsupportedMessage)
}

// unsupportedFields answers "not supported" for every field that has arguments but no
// resolver: gqlgen would otherwise read the (always empty) model struct field and
// return null, hiding that the simulator ignores the arguments. Fields the simulator
// answers are resolvers (gqlgen.yml); introspection fields are methods.
type unsupportedFields struct{}

var (
	_ graphql.HandlerExtension = unsupportedFields{}
	_ graphql.FieldInterceptor = unsupportedFields{}
)

func (unsupportedFields) ExtensionName() string                   { return "SimulatorUnsupportedFields" }
func (unsupportedFields) Validate(graphql.ExecutableSchema) error { return nil }

func (unsupportedFields) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc != nil && !fc.IsResolver && !fc.IsMethod && fc.Field.Field != nil &&
		fc.Field.Definition != nil && len(fc.Field.Definition.Arguments) > 0 {
		return nil, unsupported(ctx)
	}
	return next(ctx)
}
