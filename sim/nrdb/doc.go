// Package nrdb is the simulator's NRQL engine: a participle grammar for the subset of
// NRQL the gateway emits, and an evaluator over a Source of event rows (aggregates with
// NRQL's timeslice semantics, filter(), rate(), FACET, TIMESERIES, SINCE/UNTIL, LIMIT).
// Results come back in NerdGraph's row shape. Anything outside the subset is a
// *SyntaxError, never a silent wrong answer.
package nrdb
