package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// TestMetricScope: an application, host or instance id of 0 is a 404 naming what was not
// found (a mobile application's with the mobile show's title); a host or instance
// lookup that fails is the scope's error; good ids make the scope.
func TestMetricScope(t *testing.T) {
	g, client := explainGateway(Config{})
	caller := translate.Caller{AccountID: 1000001, KeyHash: translate.HashKey("NRAK-0123456789ABCDEFGHIJKLMNOPQ")}
	tests := []struct {
		name      string
		mobile    bool
		vars      map[string]string
		wantTitle string // "" : no v2 error
		wantErr   bool
		want      translate.MetricScope
	}{
		{"application 0", false, map[string]string{"id": "0"}, "No Application found", true, translate.MetricScope{}},
		{"mobile application 0", true, map[string]string{"id": "0"}, "No Mobile Application found", true, translate.MetricScope{}},
		{"application", false, map[string]string{"id": "7"}, "", false, translate.MetricScope{AppID: 7}},
		{"mobile application", true, map[string]string{"id": "7"}, "", false, translate.MetricScope{AppID: 7, Mobile: true}},
		{"host 0", false, map[string]string{"id": "7", "host_id": "0"}, "No Application Host found", true, translate.MetricScope{}},
		{"host lookup fails", false, map[string]string{"id": "7", "host_id": "3"}, "", true, translate.MetricScope{}},
		{"instance 0", false, map[string]string{"id": "7", "instance_id": "0"}, "No Application Instance found", true, translate.MetricScope{}},
		{"instance lookup fails", false, map[string]string{"id": "7", "instance_id": "9"}, "", true, translate.MetricScope{}},
	}
	for _, tt := range tests {
		before := client.calls.Load()
		s, err := metricScope(context.Background(), g, &request{vars: tt.vars, caller: caller, mobile: tt.mobile})
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: error %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		if tt.wantTitle != "" {
			var e *restv2.Error
			if !errors.As(err, &e) || e.Status != 404 || !strings.HasPrefix(e.Title, tt.wantTitle) {
				t.Errorf("%s: error %v, want 404 %q", tt.name, err, tt.wantTitle)
			}
			if n := client.calls.Load() - before; n != 0 {
				t.Errorf("%s: %d NerdGraph calls before the 404", tt.name, n)
			}
		}
		if !tt.wantErr && s != tt.want {
			t.Errorf("%s: scope %+v, want %+v", tt.name, s, tt.want)
		}
	}
}
