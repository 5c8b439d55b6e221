package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// varsClient notes the variables of every NerdGraph call and answers with an error.
type varsClient struct {
	mu   sync.Mutex
	vars []string
}

func (c *varsClient) MakeRequest(_ context.Context, req *gql.Request, _ *gql.Response) error {
	b, _ := json.Marshal(req.Variables)
	c.mu.Lock()
	c.vars = append(c.vars, string(b))
	c.mu.Unlock()
	return errors.New("varsClient: not answering")
}

// TestBrowserCreateLoader: a configured browser loader is the one asked for, the default
// (LITE) when none is configured.
func TestBrowserCreateLoader(t *testing.T) {
	for _, tt := range []struct{ configured, want string }{{"", string(translate.BrowserLoader)}, {"SPA", "SPA"}} {
		c := &varsClient{}
		g := New(Config{BrowserLoader: tt.configured}, translate.New(c, translate.Options{}), zap.NewNop())
		p, _ := restv2.ParseParams("", "")
		_, _ = handleBrowserCreate(context.Background(), g, &request{body: []byte(`{"browser_application":{"name":"shop"}}`),
			params: p, caller: translate.Caller{AccountID: 1000001, KeyHash: translate.HashKey("NRAK-0123456789ABCDEFGHIJKLMNOPQ")}})
		if len(c.vars) != 1 || !strings.Contains(c.vars[0], `"loaderType":"`+tt.want+`"`) {
			t.Errorf("loader %q configured: NerdGraph variables %q, want loaderType %q", tt.configured, c.vars, tt.want)
		}
	}
}
