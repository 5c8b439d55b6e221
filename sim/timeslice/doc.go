// Package timeslice generates the simulator's APM metric data: deterministic raw
// timeslices (count, total, totalExclusive, min, max, sumOfSquares) per application,
// instance, metric name and minute, and a Source that serves them to the NRQL engine
// as Metric rows. Segment metrics also come as copies scoped to each transaction (a
// scope attribute; unscoped rows have none), as NRDB holds them; realAgentId is a
// string attribute. The same seed always gives the same numbers.
package timeslice
