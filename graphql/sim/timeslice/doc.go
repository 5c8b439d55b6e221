// Package timeslice generates the simulator's APM metric data: deterministic raw
// timeslices (count, total, totalExclusive, min, max, sumOfSquares) per application,
// instance, metric name and minute, and a Source that serves them to the NRQL engine
// as Metric rows. The same seed always gives the same numbers.
package timeslice
