// Package translate turns typed v2 requests into genqlient NerdGraph calls and their
// answers into v2 models (restv2), one file per REST resource. It also owns the
// pure helpers those translations share: the entity GUID codec, surrogate ids, the
// entity-search and NRQL quoting builders (the only place query text is assembled),
// health mapping and unit conversions. It knows nothing of net/http.
package translate
