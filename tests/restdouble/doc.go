// Package restdouble is a REST API v2 double for tests: an httptest server answering
// the retained alerts namespaces (policies, conditions, entity conditions) in REST v2's
// shapes (newrelic/docs-website
// src/content/docs/alerts/scale-automate/rest-api/rest-api-calls-alerts.mdx, examples
// under tests/testdata/restv2), with Link headers on lists and a record of every
// request it received, so pass-through tests can check what reached REST unchanged.
package restdouble
