// Package tests holds v2bridge's end-to-end tests: the gateway and the NerdGraph
// simulator talking over real HTTP (httptest), never a mocked GraphQL client.
package tests
