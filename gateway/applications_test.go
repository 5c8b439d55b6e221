package gateway

import (
	"errors"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

// TestApplicationUpdateSettings: the settings' apdex thresholds reach the update input;
// a threshold of 0 or less is refused with 422.
func TestApplicationUpdateSettings(t *testing.T) {
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
			var e *restv2.Error
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
