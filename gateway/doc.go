// Package gateway is v2bridge's HTTP edge: the path a REST v2 request takes from the
// socket to its answer. Handlers are thin: each decodes the request with restv2 (path
// ids, parameters, the body), calls translate, and returns the restv2 document, which
// respond.go renders with restv2's encoders. Every status an answer carries is decided
// in restv2/errors.go.
//
// A request passes, in order:
//
//   - server.go: the HTTP server, its timeouts, and the root handler (operator paths
//     /metrics, /healthz, /readyz beside the v2 routes); edges.go answers what is not a
//     route's ordinary call (unclean paths, HEAD, 405 with Allow, real REST v2 paths
//     the gateway does not translate);
//   - middleware.go: request id, the in-flight bound (admission.go: a pool of its own
//     for unproven keys, bodies under a minimum rate), panic recovery, metrics and one
//     access-log line (logging.go, with the trace span); replay.go answers a repeated
//     GET that the caches alone answered, while every entry it read still holds;
//   - router.go: the gorilla/mux router of the route table, indexed by path segment and
//     shape, and each route's mode during a migration pilot;
//   - pipeline.go: the steps every route runs — key, body (bodycoding.go decodes a
//     compressed one) and parameters (request.go), deadline, the failed-authentication
//     guard and the per-key rate limit (ratelimit.go), the account (ownaccount.go for a
//     key reaching several), the route's handler, the answer;
//   - routes.go: the route table (name, methods, path, fidelity, operations, handler),
//     with the longer notes on fidelity in routenotes.go;
//   - one file per resource's handlers: applications.go, hosts.go, keytransactions.go,
//     browser.go, mobile.go, deployments.go, policies.go, conditions.go, violations.go,
//     metricdata.go and the legacy v0.go;
//   - respond.go: the answer's bytes and headers (ETag, Link paging, timing), gzip for
//     callers that accept it (compress.go); errors.go: the one table from a failure
//     (a NerdGraph error kind, a parameter error) to its restv2 error.
//
// gateway.go holds the configuration and New; health.go readiness; metrics.go the
// Prometheus series; hooks.go what the migrate package plugs in (pass-through, compare,
// the usage report).
package gateway
