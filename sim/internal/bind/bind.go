// Package bind holds the few hand-written Go types that gqlgen binds GraphQL types to
// (see ../../gqlgen.yml) because the simulator must carry state from one resolver to the
// resolvers of the object's fields.
package bind

// EntitySearch is the GraphQL EntitySearch object. Count and Query are plain fields;
// results, types and counts are resolvers that read State.
type EntitySearch struct {
	// Count is the total number of matching entities.
	Count int
	// Query is the query string that was run.
	Query string
	// State is the simulator's evaluated search (matches, sort order, cursor
	// fingerprint); only package sim reads it.
	State any
}

// AlertsAccount is the GraphQL AlertsAccountStitchedFields object of one account; its
// fields are resolvers that read AccountID.
type AlertsAccount struct {
	AccountID int
}

// AiIssuesAccount is the GraphQL AiIssuesAccountStitchedFields object of one account.
type AiIssuesAccount struct {
	AccountID int
}
