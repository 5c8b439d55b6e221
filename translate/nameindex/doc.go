// Package nameindex keeps the accounts' name indexes: each APM application's REST id,
// name, language and reporting, per caller and account, which serve REST v2's
// filter[name] and filter[language] on a large account. It holds the indexes' state
// (index.go), their partitioned read from NerdGraph (read.go), their stored form in a
// fleet's store (store.go), their background refresh, and the edits writes make to
// them (edits.go). The translator asks it (Lookup); it never imports the translator.
package nameindex
