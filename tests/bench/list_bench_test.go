package main

import "testing"

// The list page of 200 in XML: the same NerdGraph answer and translation as
// BenchmarkGatewayApplicationsList, rendered by the XML encoder.
//
//	go test -run '^$' -bench 'GatewayApplicationsList' -benchmem -count 3 ./tests/bench
func BenchmarkGatewayApplicationsListXML(b *testing.B) { benchRoute(b, "/v2/applications.xml") }
