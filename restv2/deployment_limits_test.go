package restv2

import (
	"strings"
	"testing"
	"time"
)

// TestDeploymentLimits pins REST v2's deployment limits (Validate) in characters, not
// bytes, at each edge, and refuses a timestamp in the future.
func TestDeploymentLimits(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	s := func(v string) *string { return &v }
	bmp := "\uFFFF" // the last 3-byte character: allowed
	tests := []struct {
		name    string
		in      DeploymentInput
		wantErr string
	}{
		{"revision 127 characters", DeploymentInput{Revision: strings.Repeat("é", 127)}, ""},
		{"revision 128 characters", DeploymentInput{Revision: strings.Repeat("a", 128)}, "deployment.revision is too long: 128 characters, at most 127"},
		{"user 31 characters of 3 bytes", DeploymentInput{Revision: "r", User: s(strings.Repeat("€", 31))}, ""},
		{"user 32 characters", DeploymentInput{Revision: "r", User: s(strings.Repeat("u", 32))}, "deployment.user is too long"},
		{"changelog 65535 characters", DeploymentInput{Revision: "r", Changelog: s(strings.Repeat("é", 65535))}, ""},
		{"changelog 65536", DeploymentInput{Revision: "r", Changelog: s(strings.Repeat("c", 65536))}, "deployment.changelog is too long"},
		{"description 65536", DeploymentInput{Revision: "r", Description: s(strings.Repeat("d", 65536))}, "deployment.description is too long"},
		{"U+FFFF allowed", DeploymentInput{Revision: "r" + bmp}, ""},
		{"emoji refused", DeploymentInput{Revision: "r\U0001F600"}, "4-byte UTF-8"},
		{"U+10000 refused", DeploymentInput{Revision: "r\U00010000"}, "4-byte UTF-8"},
		{"invalid UTF-8", DeploymentInput{Revision: "r\xff"}, "not valid UTF-8"},
		{"blank revision", DeploymentInput{Revision: " \t"}, "deployment.revision is required"},
		{"timestamp now", DeploymentInput{Revision: "r", Timestamp: &now}, ""},
		{"timestamp 1s ahead", DeploymentInput{Revision: "r", Timestamp: func() *time.Time { t := now.Add(time.Second); return &t }()}, "in the future"},
	}
	for _, tt := range tests {
		err := tt.in.Validate(now)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}
