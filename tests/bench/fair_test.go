package main

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// transportSettings lists an http.Transport's exported settings: comparable values as
// they are, functions and pointers only as set or unset (two constructors never share
// closures). Adding a setting to graphql.NewTransport adds it here without a change.
func transportSettings(t *http.Transport) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(t).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Func, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			out[f.Name] = !fv.IsNil()
		default:
			out[f.Name] = fv.Interface()
		}
	}
	return out
}

func settingsDiff(a, b map[string]any) []string {
	var diff []string
	for k, v := range a {
		if !reflect.DeepEqual(v, b[k]) {
			diff = append(diff, k)
		}
	}
	return diff
}

// TestProxyTransportMatchesGateway keeps the ReverseProxy baseline fair: its transport
// has every setting of the gateway's NerdGraph transport (idle pool, timeouts, dialer),
// and a handicapped one (http.DefaultTransport's 2 idle connections per host) is told
// apart.
func TestProxyTransportMatchesGateway(t *testing.T) {
	target, _ := url.Parse("http://127.0.0.1:1")
	tests := []struct {
		name     string
		proxy    http.RoundTripper
		wantSame bool
	}{
		{"baseline proxy", newProxy(target).Transport, true},
		{"default transport", http.DefaultTransport, false},
		{"idle pool of 2", func() http.RoundTripper { t := ng.NewTransport(); t.MaxIdleConnsPerHost = 2; return t }(), false},
	}
	gateway := transportSettings(ng.NewTransport())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, ok := tt.proxy.(*http.Transport)
			if !ok {
				t.Fatalf("proxy transport is %T, want *http.Transport", tt.proxy)
			}
			diff := settingsDiff(gateway, transportSettings(tr))
			if same := len(diff) == 0; same != tt.wantSame {
				t.Fatalf("same settings = %v, want %v (differing: %s)", same, tt.wantSame, strings.Join(diff, ", "))
			}
		})
	}
}
