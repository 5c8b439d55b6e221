package restv2

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type decodeTarget struct {
	Cond *struct {
		Enabled  *bool    `json:"enabled"`
		Limit    *int64   `json:"limit"`
		Apdex    *float64 `json:"apdex"`
		Name     *string  `json:"name"`
		Tags     []bool   `json:"tags"`
		Settings struct {
			RUM bool `json:"enable_real_user_monitoring"`
		} `json:"settings"`
	} `json:"cond"`
}

func TestDecodeJSONCastsAsRailsDid(t *testing.T) {
	cases := []struct {
		body    string
		enabled bool
		limit   int64
		apdex   float64
		name    string
	}{
		{`{"cond":{"enabled":true,"limit":300,"apdex":0.5,"name":"a"}}`, true, 300, 0.5, "a"},
		{`{"cond":{"enabled":"true","limit":"300","apdex":"0.5","name":7}}`, true, 300, 0.5, "7"},
		{`{"cond":{"enabled":"false","limit":"300.0","apdex":"7","name":"x"}}`, false, 300, 7, "x"},
		{`{"cond":{"enabled":"1","limit":1,"apdex":1,"name":"x"}}`, true, 1, 1, "x"},
		{`{"cond":{"enabled":"0","limit":1,"apdex":1,"name":"x"}}`, false, 1, 1, "x"},
		{`{"cond":{"enabled":1,"limit":1,"apdex":1,"name":"x"}}`, true, 1, 1, "x"},
		{`{"cond":{"enabled":0,"limit":1,"apdex":1,"name":"x"}}`, false, 1, 1, "x"},
		{`{"cond":{"enabled":"t","limit":1,"apdex":1,"name":"x"}}`, true, 1, 1, "x"},
		{`{"cond":{"enabled":"f","limit":1,"apdex":1,"name":"x"}}`, false, 1, 1, "x"},
		{`{"cond":{"enabled":"on","limit":1,"apdex":1,"name":"x"}}`, true, 1, 1, "x"},
		{`{"cond":{"enabled":"OFF","limit":1,"apdex":1,"name":"x","unknown":{"k":1}}}`, false, 1, 1, "x"},
		{`{"cond":{"enabled":true,"limit":1,"apdex":1,"name":true}}`, true, 1, 1, "true"},
	}
	for _, c := range cases {
		var v decodeTarget
		if err := DecodeJSON([]byte(c.body), &v); err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		if *v.Cond.Enabled != c.enabled || *v.Cond.Limit != c.limit || *v.Cond.Apdex != c.apdex || *v.Cond.Name != c.name {
			t.Errorf("%s: got enabled=%v limit=%v apdex=%v name=%q", c.body, *v.Cond.Enabled, *v.Cond.Limit, *v.Cond.Apdex, *v.Cond.Name)
		}
	}
}

func TestDecodeJSONCastsNestedSlicesAndStructs(t *testing.T) {
	var v decodeTarget
	if err := DecodeJSON([]byte(`{"cond":{"tags":["1","false",true],"settings":{"enable_real_user_monitoring":"true"}}}`), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cond.Tags) != 3 || !v.Cond.Tags[0] || v.Cond.Tags[1] || !v.Cond.Tags[2] || !v.Cond.Settings.RUM {
		t.Fatalf("got %+v", v.Cond)
	}
}

func TestDecodeJSONNamesTheFieldItStillRefuses(t *testing.T) {
	cases := []struct{ body, field, want string }{
		{`{"cond":{"enabled":"maybe"}}`, "cond.enabled", "true or false"},
		{`{"cond":{"limit":"three"}}`, "cond.limit", "whole number"},
		{`{"cond":{"limit":"1.5"}}`, "cond.limit", "whole number"},
		{`{"cond":{"apdex":"fast"}}`, "cond.apdex", "a number"},
		{`{"cond":{"name":{"a":1}}}`, "cond.name", "a string"},
		{`{"cond":{"tags":[true,"x"]}}`, "cond.tags[1]", "true or false"},
	}
	for _, c := range cases {
		var v decodeTarget
		err := DecodeJSON([]byte(c.body), &v)
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a FieldError", c.body, err)
			continue
		}
		if fe.Field != c.field || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: got %q (field %q)", c.body, err, fe.Field)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Errorf("%s: the original type error is not wrapped", c.body)
		}
	}
}

func TestDecodeJSONReturnsSyntaxErrorsAsIs(t *testing.T) {
	var v decodeTarget
	err := DecodeJSON([]byte(`{"cond":`), &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) && err.Error() != "unexpected end of JSON input" {
		t.Fatalf("got %v", err)
	}
}

type customText struct{ s string }

func (c *customText) UnmarshalJSON(b []byte) error { c.s = string(b); return nil }

func TestDecodeJSONLeavesCustomUnmarshalersAlone(t *testing.T) {
	var v struct {
		T customText `json:"t"`
		B bool       `json:"b"`
	}
	if err := DecodeJSON([]byte(`{"t":5,"b":"true"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.T.s != "5" || !v.B {
		t.Fatalf("got %+v", v)
	}
}
