package translate

import (
	gq "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// figure is v as REST v2 shows a measured figure (restv2.Figure).
func figure(v float64) float64 { return restv2.Figure(v) }

// apdexFigure is an Apdex score as REST v2 shows it (restv2.ApdexFigure).
func apdexFigure(v float64) float64 { return restv2.ApdexFigure(v) }

// healthStatus maps an entity's reporting flag and alert severity to REST v2's
// health_status: gray when not reporting, else red / orange / green,
// and unknown when no alert policy covers the entity.
func healthStatus(reporting bool, sev *gq.EntityAlertSeverity) string {
	if !reporting {
		return "gray"
	}
	if sev == nil {
		return "unknown"
	}
	switch *sev {
	case gq.EntityAlertSeverityCritical:
		return "red"
	case gq.EntityAlertSeverityWarning:
		return "orange"
	case gq.EntityAlertSeverityNotAlerting:
		return "green"
	}
	return "unknown"
}

// severityHealth is healthStatus for a severity held by value ("": null).
func severityHealth(reporting bool, sev gq.EntityAlertSeverity) string {
	if sev == "" {
		return healthStatus(reporting, nil)
	}
	return healthStatus(reporting, &sev)
}
