package gateway

// Application and browser application write bodies (issue 22, whole-tree gremlins run
// at f9be12a, appwrites.go and browser.go lines of that commit).

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestApplicationUpdateSettingsMut: the settings' apdex thresholds reach the update
// input; a threshold of 0 or less is refused with 422.
// Kills appwrites.go:55:24 CONDITIONALS_NEGATION (`s != nil` → `==`: settings dropped)
// and :59:21 CONDITIONALS_BOUNDARY (`*v <= 0` → `< 0`: a 0 threshold accepted).
func TestApplicationUpdateSettingsMut(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		wantApdex  float64 // 0: no app_apdex_threshold in the input
		wantRUM    bool
		wantStatus int // 0: no error
	}{
		{"json settings", `{"application":{"settings":{"app_apdex_threshold":0.5,"enable_real_user_monitoring":true}}}`, 0.5, true, 0},
		{"xml settings", `<application><settings><app_apdex_threshold>0.7</app_apdex_threshold></settings></application>`, 0.7, false, 0},
		{"no settings", `{"application":{"name":"x"}}`, 0, false, 0},
		{"app apdex 0", `{"application":{"settings":{"app_apdex_threshold":0}}}`, 0, false, 422},
		{"end user apdex 0", `{"application":{"settings":{"end_user_apdex_threshold":0}}}`, 0, false, 422},
		{"app apdex negative", `{"application":{"settings":{"app_apdex_threshold":-1}}}`, 0, false, 422},
	}
	for _, tt := range tests {
		in, err := parseApplicationUpdate(&request{body: []byte(tt.body)})
		if tt.wantStatus != 0 {
			var e *v2.Error
			if !errors.As(err, &e) || e.Status != tt.wantStatus {
				t.Errorf("%s: error %v, want status %d", tt.name, err, tt.wantStatus)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		got := 0.0
		if in.AppApdexThreshold != nil {
			got = *in.AppApdexThreshold
		}
		if got != tt.wantApdex {
			t.Errorf("%s: app apdex %v, want %v", tt.name, got, tt.wantApdex)
		}
		if rum := in.EnableRealUserMonitoring != nil && *in.EnableRealUserMonitoring; rum != tt.wantRUM {
			t.Errorf("%s: real user monitoring %v, want %v", tt.name, rum, tt.wantRUM)
		}
	}
}

// TestBrowserApplicationBodyMut: the name of a browser application create comes from
// a JSON body or from the form field browser_application[name]; an empty body is a
// 4xx, not a panic.
// Kills browser.go:40:15 CONDITIONALS_BOUNDARY (`len(body) > 0` → `>= 0`: body[0] of
// an empty body) and CONDITIONALS_NEGATION (`> 0` → `<= 0`: the form read as JSON).
func TestBrowserApplicationBodyMut(t *testing.T) {
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
		p, err := v2.ParseParams("", tt.form)
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

// TestBrowserCreateLoaderMut: a configured browser loader is the one asked for, the
// default (LITE) when none is configured.
// Kills browser.go:61:12 CONDITIONALS_NEGATION (`loader == ""` → `!=`).
func TestBrowserCreateLoaderMut(t *testing.T) {
	for _, tt := range []struct{ configured, want string }{{"", string(translate.BrowserLoader)}, {"SPA", "SPA"}} {
		c := &varsClient{}
		g := New(Config{BrowserLoader: tt.configured}, translate.New(c, translate.Options{}), zap.NewNop())
		p, _ := v2.ParseParams("", "")
		_, _ = handleBrowserCreate(context.Background(), g, &request{body: []byte(`{"browser_application":{"name":"shop"}}`),
			params: p, caller: translate.Caller{AccountID: 1000001, KeyHash: translate.HashKey("NRAK-0123456789ABCDEFGHIJKLMNOPQ")}})
		if len(c.vars) != 1 || !strings.Contains(c.vars[0], `"loaderType":"`+tt.want+`"`) {
			t.Errorf("loader %q configured: NerdGraph variables %q, want loaderType %q", tt.configured, c.vars, tt.want)
		}
	}
}
