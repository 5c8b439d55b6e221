// Package nrqlwhere parses the WHERE clause of an NRQL query and finds and edits the
// entity lists in it (`appId IN (...)`, `appName IN (...)`, `entity.guid IN (...)`),
// which is how an NRQL alert condition names the entities it watches. The query is
// tokenised by a real lexer (strings, backticks and parentheses are tokens, so text
// inside a literal is never mistaken for syntax) and the clause is parsed by a
// participle grammar; edits splice the original text at token offsets, so the rest of
// the query is kept byte for byte. The NRQL syntax followed is New Relic's reference:
// https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/ (WHERE, IN,
// LIKE, IS NULL, attribute names with backticks, comments). No maintained Go NRQL
// parser exists (the package registries and documentation searched on 2026-11-24 list
// only a Rust crate, nom_nrql), so the grammar is written here with participle, the
// parser generator the simulator's NRQL engine already uses.
package nrqlwhere
