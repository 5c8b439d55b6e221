package graphql

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// decodeOver has the client decode body as the answer to a request made with ctx into
// data, and returns the client's error.
func decodeOver(t *testing.T, ctx context.Context, body string, data any) error {
	t.Helper()
	return decodeWith(t, ctx, nil, body, data)
}

// decodeWith is decodeOver for a request with variables.
func decodeWith(t *testing.T, ctx context.Context, vars any, body string, data any) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	return NewClient(srv.URL, Options{MaxAttempts: 1}).MakeRequest(ctx,
		&gql.Request{OpName: "Q", Query: "query Q { x }", Variables: vars}, &gql.Response{Data: data})
}

// reference is encoding/json's reading of an answer's data (zero for "data": null),
// what a presized decode must equal.
func reference[T any](t *testing.T, body string) T {
	t.Helper()
	var want T
	wire := struct {
		Data *T `json:"data"`
	}{&want}
	if err := json.Unmarshal([]byte(body), &wire); err != nil {
		t.Fatal(err)
	}
	if wire.Data == nil {
		var zero T
		return zero
	}
	return want
}

// sizedItems is a response of no NerdGraph operation that readies itself for its
// answer: the client reaches it through the presizer interface alone.
type sizedItems struct {
	Items []int `json:"items"`
	// sizes are the answer sizes presize was told; cleared counts unpresize's calls.
	sizes   []int
	cleared int
}

func (d *sizedItems) presize(_ context.Context, _ *gql.Request, size int) bool {
	d.sizes = append(d.sizes, size)
	if d.Items != nil {
		return false
	}
	d.Items = make([]int, 0, 64)
	return true
}

func (d *sizedItems) unpresize() { d.cleared++; d.Items = nil }

// The client presizes any response that is a presizer, told the answer's size, and
// clears it again when the answer holds no data to decode over it.
func TestClientPresizesThroughTheResponse(t *testing.T) {
	for _, tt := range []struct {
		name, body  string
		wantItems   []int
		wantCap     int
		wantCleared int
	}{
		{"data", `{"data":{"items":[1,2,3]}}`, []int{1, 2, 3}, 64, 0},
		{"null data", `{"data":null,"errors":[{"message":"boom"}]}`, nil, 0, 1},
		{"no data", `{"errors":[{"message":"no"}]}`, nil, 0, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var d sizedItems
			_ = decodeOver(t, context.Background(), tt.body, &d)
			if len(d.sizes) != 1 || d.sizes[0] != len(tt.body) {
				t.Fatalf("presize told sizes %v, want [%d]", d.sizes, len(tt.body))
			}
			if !slices.Equal(d.Items, tt.wantItems) || cap(d.Items) != tt.wantCap || d.cleared != tt.wantCleared {
				t.Errorf("items %v (capacity %d), cleared %d times; want %v (capacity %d), cleared %d times",
					d.Items, cap(d.Items), d.cleared, tt.wantItems, tt.wantCap, tt.wantCleared)
			}
		})
	}
}

// The client names no operation's type: what an operation's answer needs before it is
// decoded lives with the operation (presizer), so client.go refers to none of the
// types genqlient generates or the operations bind.
func TestClientNamesNoOperationType(t *testing.T) {
	fset := token.NewFileSet()
	declared := map[string]string{}
	for _, name := range []string{"generated.go", "applications.go", "applications_inventory.go", "metrics.go", "deployments.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					declared[s.(*ast.TypeSpec).Name.Name] = name
				}
			}
		}
	}
	if len(declared) < 100 {
		t.Fatalf("found %d operation types; the files moved", len(declared))
	}
	client, err := parser.ParseFile(fset, "client.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(client, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if file, found := declared[id.Name]; found {
				t.Errorf("client.go %s names %s (%s)", fset.Position(id.Pos()), id.Name, file)
			}
		}
		return true
	})
}
