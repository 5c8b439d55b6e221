package graphql

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestPresizedInventory: an AppList answer with its inventory decodes into a buffer
// given back by ReleaseInventory (its rows overwrite whatever the buffer held) and
// reads as encoding/json reads it, whatever the account part holds; without the
// inventory asked for, the account is left alone.
func TestPresizedInventory(t *testing.T) {
	page := outlinePage(2)
	with := func(account string) string {
		return strings.Replace(page, `"browsers":null}`, `"browsers":null,"account":`+account+`}`, 1)
	}
	rows := `[{"facet":["1","h","2"],"lastSeen":1}]`
	for _, tt := range []struct {
		body          string
		withInventory bool
	}{
		{with(`{"inventory":{"results":` + rows + `}}`), true},
		{with(`{"inventory":{"results":[]}}`), true},
		{with(`{"inventory":{"results":null}}`), true},
		{with(`{"inventory":null}`), true},
		{with(`null`), true},
		{page, false},
		{`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`, true},
	} {
		stale := json.RawMessage(strings.Repeat("x", 4096)) // a buffer's earlier rows
		ReleaseInventory(stale)
		var got AppListResponse
		err := decodeWith(t, context.Background(), &__AppListInput{WithInventory: tt.withInventory}, tt.body, &got)
		if err != nil && !strings.Contains(tt.body, `"errors"`) {
			t.Fatal(err)
		}
		want := reference[AppListResponse](t, tt.body)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.90s…: presized %+v, want %+v", tt.body, got.Actor.Account, want.Actor.Account)
		}
	}
}

// TestPresizedAppInventory: a page inventory decoded over a pooled buffer (a stale one,
// its earlier rows longer than the answer's) is the answer encoding/json reads, in
// every shape the answer can take.
func TestPresizedAppInventory(t *testing.T) {
	rows := `[{"facet":["1","h","2"],"lastSeen":1},{"facet":["3","g","4"],"lastSeen":2}]`
	for _, body := range []string{
		`{"data":{"actor":{"account":{"nrql":{"results":` + rows + `}}}}}`,
		`{"data":{"actor":{"account":{"nrql":{"results":[]}}}}}`,
		`{"data":{"actor":{"account":{"nrql":{"results":null}}}}}`,
		`{"data":{"actor":{"account":{"nrql":null}}}}`,
		`{"data":{"actor":{"account":null}}}`,
		`{"data":{"actor":null}}`,
		`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`,
	} {
		ReleaseInventory(json.RawMessage(strings.Repeat("x", 4096)))
		var got AppInventoryResponse
		err := decodeWith(t, context.Background(), nil, body, &got)
		if err != nil && !strings.Contains(body, `"errors"`) {
			t.Fatal(err)
		}
		if want := reference[AppInventoryResponse](t, body); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: presized %+v, want %+v", body, got.Actor, want.Actor)
		}
	}
}
