package graphql

import (
	"context"

	gql "github.com/Khan/genqlient/graphql"
)

// presizer is implemented by an operation's response type that readies itself for its
// answer before the client decodes into it: the decoder fills a slice's capacity and a
// non-nil pointer's value in place, so a page of rows allocated once at its size is not
// grown by doubling while the rows arrive. The client knows no operation: it asks the
// response (MakeRequest), and each operation that presizes says how, next to the
// types its answer is bound to (applications.go, applications_inventory.go,
// metrics.go).
type presizer interface {
	// presize readies the empty response for the answer, of size bytes, to req made
	// with ctx, and says whether it set anything. It touches only an empty response (a
	// retry decodes into what the first attempt left, as without it), never holds more
	// than an answer of size bytes can fill, and sets only fields the answer holds, as
	// a value or as null, which decodes to nil over them: the response reads the same
	// after decoding as without it.
	presize(ctx context.Context, req *gql.Request, size int) bool
	// unpresize clears what presize set, after an answer whose data was null or absent
	// (nothing was decoded over it).
	unpresize()
}

// presizeFor presizes data when its type is a presizer that sets anything for this
// answer, and returns it (nil: nothing to clear if the answer holds no data).
func presizeFor(ctx context.Context, req *gql.Request, data any, size int) presizer {
	if p, ok := data.(presizer); ok && p.presize(ctx, req, size) {
		return p
	}
	return nil
}
