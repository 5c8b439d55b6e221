// Package fieldsets holds, per REST v2 resource, the set of fields REST's published
// answers carried (testdata/fieldsets.json, each set with its evidence: docs-website
// examples, recorded answers in public clients' tests, the examples kept under
// tests/testdata/restv2), and walks every route's answer from the demo, JSON and XML,
// against it: a field REST sent is in every answer, with a value or null (an empty XML
// element), so none can silently disappear.
package fieldsets
