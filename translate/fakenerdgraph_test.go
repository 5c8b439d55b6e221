package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	gql "github.com/Khan/genqlient/graphql"
)

// fakeCall is one operation the translator sent: its name and variables as JSON
// values (numbers float64), as NerdGraph would receive them.
type fakeCall struct {
	op   string
	vars map[string]any
}

// opFake is a NerdGraph stand-in for the package's own tests: answer returns the data
// object of an operation (marshalled to JSON and decoded into genqlient's response
// type, as the real client does with NerdGraph's answer), or an error. It records every
// call, so tests can count round trips (cache keys) and read the NRQL sent.
type opFake struct {
	mu     sync.Mutex
	calls  []fakeCall
	answer func(op string, vars map[string]any) (any, error)
}

func (f *opFake) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	b, err := json.Marshal(req.Variables)
	if err != nil {
		return fmt.Errorf("fake: variables: %w", err)
	}
	vars := map[string]any{}
	if err := json.Unmarshal(b, &vars); err != nil {
		return fmt.Errorf("fake: variables: %w", err)
	}
	f.mu.Lock()
	f.calls = append(f.calls, fakeCall{op: req.OpName, vars: vars})
	f.mu.Unlock()
	data, err := f.answer(req.OpName, vars)
	if err != nil {
		return err
	}
	if raw, ok := data.(json.RawMessage); ok { // already the answer's text
		return json.Unmarshal(raw, resp.Data)
	}
	body, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("fake: answer: %w", err)
	}
	return json.Unmarshal(body, resp.Data)
}

// count is how many calls of op were sent ("" counts all).
func (f *opFake) count(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if op == "" || c.op == op {
			n++
		}
	}
	return n
}

// nrqlAnswer is NrqlQuery's data object holding rows.
func nrqlAnswer(rows []map[string]any) map[string]any {
	return map[string]any{"actor": map[string]any{"account": map[string]any{"nrql": map[string]any{"results": rows}}}}
}

// withAnswer wraps f's answers: edit may change (or replace) the data object of op (nil
// when f had none).
func withAnswer(f *opFake, edit func(op string, vars map[string]any, data any) (any, error)) *opFake {
	orig := f.answer
	f.answer = func(op string, vars map[string]any) (any, error) {
		data, err := orig(op, vars)
		if err != nil {
			data = nil
		}
		d, e := edit(op, vars, data)
		if d == nil && e == nil {
			return nil, err // an op edit leaves alone keeps f's error
		}
		return d, e
	}
	return f
}

// actorOf is the actor object of a fake answer built as nested maps.
func actorOf(data any) map[string]any {
	return data.(map[string]any)["actor"].(map[string]any)
}

// sentQueries are the values of the variable name of every op call f received.
func sentQueries(f *opFake, op, name string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if c.op == op {
			out = append(out, fmt.Sprint(c.vars[name]))
		}
	}
	return out
}
