// Package restdouble is a REST API v2 double for tests: an httptest server answering
// the retained alerts namespaces (policies, conditions, entity conditions) in REST v2's
// shapes (/work/shared/restv2/REFERENCE.md §3.12-3.13, examples under
// /work/shared/restv2/examples), with Link headers on lists and a record of every
// request it received, so pass-through tests can check what reached REST unchanged.
package restdouble
