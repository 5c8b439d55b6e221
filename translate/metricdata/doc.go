// Package metricdata is the pure part of GET .../metrics/data: REST v2's time window
// rules (ResolveWindow), the NRQL text of one chunk of names (NRQL), the value table
// that maps each REST value name to New Relic's published NRQL and its computation
// (Value, ServedValues, Defaults), and the answer document assembled from the
// decoded NRQL rows (Doc). It makes no NerdGraph calls and keeps no cache: package
// translate fetches the rows and caches the documents.
package metricdata
