package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	gql "github.com/Khan/genqlient/graphql"
)

// Recorder is a genqlient client that sends nothing. It keeps every operation it is
// given, in order, exactly as Client would send it (name, document, variables), and
// answers each with an empty answer: no data and no errors, as if NerdGraph had found
// nothing. `v2bridge explain` translates a v2 request through it to show the NerdGraph
// round trips the request would cost without making any of them; a write recorded here
// is never sent.
//
// The zero value is ready to use; a Recorder is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	calls []Recorded
}

// Recorded is one operation given to a Recorder.
type Recorded struct {
	// OpName is the genqlient operation's name (AppShow, MetricData, ...).
	OpName string
	// Query is the GraphQL document as it would be sent (operation and fragments).
	Query string
	// Variables is the JSON of the variables as they would be sent; nil when the
	// operation has none.
	Variables json.RawMessage
	// Mutation marks a write: what explain shows of it never leaves the process.
	Mutation bool
}

var _ gql.Client = (*Recorder)(nil)

// ErrNotSent is the answer a Recorder gives a mutation: it was recorded, never sent,
// so it has no result.
var ErrNotSent = errors.New("dry run: the mutation was recorded, not sent")

// MakeRequest records req. A query gets an empty answer: its containers (actor,
// account, searches, NRQL result holders) present and empty, every record (an object
// with an id or guid, an entity, a list) absent, as NerdGraph answers when it finds
// nothing. A mutation gets ErrNotSent, never a made-up result.
func (r *Recorder) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	var vars json.RawMessage
	if req.Variables != nil {
		b, err := json.Marshal(req.Variables)
		if err != nil {
			return fmt.Errorf("encode %s variables: %w", req.OpName, err)
		}
		if string(b) != "null" && string(b) != "{}" {
			vars = b
		}
	}
	mutation := !isQuery(req.Query)
	if !mutation && resp != nil && resp.Data != nil {
		emptyObjects(reflect.ValueOf(resp.Data), 0)
	}
	r.mu.Lock()
	r.calls = append(r.calls, Recorded{OpName: req.OpName, Query: req.Query, Variables: vars, Mutation: mutation})
	r.mu.Unlock()
	if mutation {
		return fmt.Errorf("%s: %w", req.OpName, ErrNotSent)
	}
	return nil
}

// Calls returns the operations recorded so far, in the order they were made.
func (r *Recorder) Calls() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.calls...)
}

// emptyObjects gives every nil pointer to a container struct below v a zero struct:
// the objects of an answer without values. Records (structs with an Id or Guid field),
// slices, maps, interfaces (abstract types such as an entity) and scalars stay absent.
func emptyObjects(v reflect.Value, depth int) {
	if depth > 32 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t := v.Type().Elem()
			if t.Kind() != reflect.Struct || !v.CanSet() || isRecord(t) {
				return
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		emptyObjects(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				emptyObjects(v.Field(i), depth+1)
			}
		}
	}
}

// isRecord reports whether a generated answer type is a record NerdGraph answers null
// for when it does not find it: its selection has an id or a guid.
func isRecord(t reflect.Type) bool {
	for _, name := range [...]string{"Id", "Guid"} {
		if _, ok := t.FieldByName(name); ok {
			return true
		}
	}
	return false
}
