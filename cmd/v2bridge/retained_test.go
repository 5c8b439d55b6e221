package main

import (
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

// retained_alerts defaults to passthrough when rest_upstream is set (the shipped
// default), translate otherwise; anything else is a configuration error.
func TestRetainedAlerts(t *testing.T) {
	for _, tc := range []struct {
		retained, rest string
		want           gateway.Mode
		err            bool
	}{
		{"", "us", gateway.ModePassthrough, false},
		{"", "", gateway.ModeTranslate, false},
		{"translate", "us", gateway.ModeTranslate, false},
		{"passthrough", "", gateway.ModePassthrough, false},
		{"compare", "us", "", true},
	} {
		c := defaultConfig()
		c.RetainedAlerts, c.RESTUpstream = tc.retained, tc.rest
		got, err := c.retainedAlerts()
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("retained_alerts %q, rest_upstream %q: %q, %v", tc.retained, tc.rest, got, err)
		}
	}
	if defaultConfig().RESTUpstream == "" {
		t.Fatal("rest_upstream has no default: retained_alerts would default to translate")
	}
}
