// Package v2 holds the REST API v2 resource models (Application, Deployment, MetricData,
// errors, ...) with their exact JSON/XML field names and order, the parsing of v2
// request parameters (filters, names[], values[], from/to, page), and how REST v2
// rounds the figures it shows (Figure, ApdexFigure). It knows nothing of NerdGraph or
// net/http.
package restv2
