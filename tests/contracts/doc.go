// Package contracts holds contract tests: NerdGraph answers published by New Relic (its
// documentation examples) and the JSON fixtures of its own Go client, served through the
// real graphql.Client and decoded by the generated genqlient types, then translated by
// the real translate code and rendered as the REST v2 body. Unlike the end-to-end tests,
// nothing here comes from the simulator: a recording is evidence of what NerdGraph
// answers, so a test fails when a field the gateway reads is missing, differently typed
// or differently scaled in what NerdGraph really sends.
//
// testdata/ holds the recordings (named Operation.source.json) and testdata/golden/ the v2
// bodies they translate to (refreshed with -update). README.md names the source of
// every recording (repository, path, commit, date read), the only normalizations
// applied (documented in recordedTransport), and the operations no public recording
// covers yet, with the recording that would settle each.
package contracts
