package sim

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// queryCache keeps parsed and validated query documents by query text, so that the
// gateway's few operations are parsed once. When full it starts over, which is enough
// for a bounded set of operations and keeps hostile traffic from growing it.
type queryCache struct {
	mu   sync.RWMutex
	max  int
	docs map[string]*ast.QueryDocument
}

var _ graphql.Cache[*ast.QueryDocument] = (*queryCache)(nil)

func newQueryCache(max int) *queryCache {
	return &queryCache{max: max, docs: map[string]*ast.QueryDocument{}}
}

func (c *queryCache) Get(_ context.Context, key string) (*ast.QueryDocument, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.docs[key]
	return d, ok
}

func (c *queryCache) Add(_ context.Context, key string, d *ast.QueryDocument) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.docs) >= c.max {
		clear(c.docs)
	}
	c.docs[key] = d
}

// introspection turns on schema introspection, which NerdGraph allows.
type introspection struct{}

var (
	_ graphql.HandlerExtension        = introspection{}
	_ graphql.OperationContextMutator = introspection{}
)

func (introspection) ExtensionName() string                   { return "SimulatorIntrospection" }
func (introspection) Validate(graphql.ExecutableSchema) error { return nil }

func (introspection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	oc.DisableIntrospection = false
	return nil
}
