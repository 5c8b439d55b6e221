package translate

import (
	"testing"

	gq "github.com/v2bridge/v2bridge/graphql"
)

// A severity held by value maps like the pointer healthStatus takes, "" like null.
func TestSeverityHealth(t *testing.T) {
	for _, tt := range []struct {
		reporting bool
		sev       gq.EntityAlertSeverity
		want      string
	}{
		{true, gq.EntityAlertSeverityCritical, "red"},
		{true, gq.EntityAlertSeverityWarning, "orange"},
		{true, gq.EntityAlertSeverityNotAlerting, "green"},
		{true, gq.EntityAlertSeverityNotConfigured, "unknown"},
		{true, "", "unknown"},
		{false, gq.EntityAlertSeverityCritical, "gray"},
		{false, "", "gray"},
	} {
		if got := severityHealth(tt.reporting, tt.sev); got != tt.want {
			t.Errorf("severityHealth(%v, %q) = %q, want %q", tt.reporting, tt.sev, got, tt.want)
		}
	}
}
