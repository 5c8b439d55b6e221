package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// keyPages answers UserKeys with pages of other users' keys (obfuscated, as NerdGraph
// shows them), the caller's own key on page ownPage (0: never), and a next cursor
// after every page (endless: also after the last).
type keyPages struct {
	own     string
	ownPage int
	pages   int
	endless bool
	calls   int
}

func (k *keyPages) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	k.calls++
	page := k.calls
	keys := `[{"__typename":"ApiAccessUserKey","key":"NRAK-...XYZ","accountId":5}]`
	if page == k.ownPage {
		keys = fmt.Sprintf(`[{"__typename":"ApiAccessUserKey","key":%q,"accountId":8}]`, k.own)
	}
	next := "null"
	if k.endless || page < k.pages {
		next = fmt.Sprintf("%q", fmt.Sprint("c", page))
	}
	return json.Unmarshal([]byte(`{"actor":{"apiAccess":{"keySearch":{"keys":`+keys+`,"nextCursor":`+next+`}}}}`), resp.Data)
}

// TestOwnAccountPages: the caller's key is found on a later page of the key search;
// an endless search stops after maxKeyPages pages without an answer.
func TestOwnAccountPages(t *testing.T) {
	const key = "NRAK-CALLER"
	tests := []struct {
		name      string
		client    *keyPages
		want      int64
		wantOK    bool
		wantCalls int
	}{
		{"on the third page", &keyPages{own: key, ownPage: 3, pages: 5}, 8, true, 3},
		{"not among the pages", &keyPages{own: key, pages: 4}, 0, false, 4},
		{"endless search", &keyPages{own: key, endless: true}, 0, false, maxKeyPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(tt.client, Options{})
			ctx := ng.WithAPIKey(context.Background(), key)
			id, ok, err := tr.OwnAccount(ctx, HashKey(key))
			if err != nil || id != tt.want || ok != tt.wantOK || tt.client.calls != tt.wantCalls {
				t.Fatalf("(%d, %v, %v) after %d pages, want (%d, %v) after %d", id, ok, err, tt.client.calls, tt.want, tt.wantOK, tt.wantCalls)
			}
		})
	}
}
