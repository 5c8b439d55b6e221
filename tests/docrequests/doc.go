// Package docrequests sends requests built exactly as New Relic's REST v2 documentation
// and known scripts send them (form bodies on GET, raw and encoded brackets, repeated
// and comma filter[ids], '+' offsets arriving as spaces, Python datetime strings,
// duplicated query keys, both key headers) and checks the gateway understands each.
package docrequests
