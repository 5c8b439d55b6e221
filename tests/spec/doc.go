// Package spec traces every statement of the REST v2 service specification
// ("Application Performance Monitoring REST API v2: Service Specification") to a test that asserts it or to a
// declared difference. Matrix is the table: one row per normative statement (fields and
// their types, endpoints and parameters, rules, limits, versioning notes, and the
// choice made for each point the specification leaves "not shown"), each with a stable
// id and a status:
//
//   - tested: the named tests (package path and test name) assert the statement;
//   - approximate: the gateway answers differently and the named route's fidelity note
//     (gateway.Routes, the README's table) declares it;
//   - not applicable: nothing in a gateway can honour or break it (the reason is given);
//   - open: not yet traced (the tests fail while any row is open).
//
// SPEC.md is generated from the table (go test ./tests/spec -update) and checked to be
// current. The walk (`make conformance`, SPEC_WALK=1) runs every named test with one
// `go test -run` per package and prints the counts of rows by status.
//
// The statements' own tests (statements_test.go) go through the gateway's real HTTP
// routes in front of the NerdGraph simulator; each row says whether its evidence is the
// simulator alone or a published source.
package spec
