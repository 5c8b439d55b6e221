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

// TestBrowserApplicationBody: the name of a browser application create comes from a JSON
// body or from the form field browser_application[name]; an empty body is a 4xx, not a
// panic.
func TestBrowserApplicationBody(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		form     string
		wantName string
		wantErr  bool
	}{
		{"json", `{"browser_application":{"name":"shop"}}`, "", "shop", false},
		{"form", `browser_application%5Bname%5D=shop`, `browser_application%5Bname%5D=shop`, "shop", false},
		{"empty body", ``, "", "", true},
		{"json without the object", `{}`, "", "", true},
	}
	for _, tt := range tests {
		p, err := restv2.ParseParams("", tt.form)
		if err != nil {
			t.Fatal(err)
		}
		var name string
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = errors.New("panic")
					t.Errorf("%s: panicked: %v", tt.name, r)
				}
			}()
			name, err = parseBrowserApplication(&request{body: []byte(tt.body), params: p})
		}()
		if (err != nil) != tt.wantErr || name != tt.wantName {
			t.Errorf("%s: (%q, %v), want (%q, error %v)", tt.name, name, err, tt.wantName, tt.wantErr)
		}
	}
}

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
