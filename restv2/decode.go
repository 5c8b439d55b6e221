package restv2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// DecodeJSON decodes a request body into v as REST v2's Rails parameter parser read it:
// a boolean field accepts true/false, the strings "true"/"false"/"1"/"0"/"t"/"f"/
// "on"/"off" (any case) and the numbers 1/0; a number field accepts a numeric string
// ("300"); a string field accepts a number or a boolean (kept as its JSON text). Unknown
// keys are ignored. The body is decoded plainly first; only a value of the wrong JSON
// type makes it cast the values by v's Go types and decode again. A value that cannot be
// cast is a *FieldError naming the field and the form it accepts; a body that is not
// JSON is json.Unmarshal's own error.
func DecodeJSON(body []byte, v any) error {
	err := json.Unmarshal(body, v)
	var te *json.UnmarshalTypeError
	if err == nil || !errors.As(err, &te) {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var raw any
	if d.Decode(&raw) != nil {
		return err
	}
	cast, ferr := castTo(raw, reflect.TypeOf(v), "")
	if ferr != nil {
		ferr.Err = te
		return ferr
	}
	b, merr := json.Marshal(cast)
	if merr != nil {
		return err
	}
	if err2 := json.Unmarshal(b, v); err2 != nil {
		return err
	}
	return nil
}

// FieldError is a body value DecodeJSON could not read as its field's type.
type FieldError struct {
	Field string // dotted JSON path, e.g. nrql_condition.enabled
	Want  string // the accepted form
	Got   string // the value sent, as JSON
	Err   *json.UnmarshalTypeError
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s must be %s, got %s", e.Field, e.Want, e.Got)
}

func (e *FieldError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// castTo returns raw (a UseNumber decode) with its scalars converted to what t's
// fields take.
func castTo(raw any, t reflect.Type, path string) (any, *FieldError) {
	for t.Kind() == reflect.Pointer {
		if t.Implements(unmarshalerType) {
			return raw, nil
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || raw == nil {
		return raw, nil
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := raw.(map[string]any)
		if !ok {
			return raw, nil
		}
		for k, val := range m {
			f, ok := fieldByJSONName(t, k)
			if !ok {
				continue
			}
			c, err := castTo(val, f.Type, join(path, k))
			if err != nil {
				return nil, err
			}
			m[k] = c
		}
		return m, nil
	case reflect.Map:
		m, ok := raw.(map[string]any)
		if !ok {
			return raw, nil
		}
		for k, val := range m {
			c, err := castTo(val, t.Elem(), join(path, k))
			if err != nil {
				return nil, err
			}
			m[k] = c
		}
		return m, nil
	case reflect.Slice, reflect.Array:
		a, ok := raw.([]any)
		if !ok {
			return raw, nil
		}
		for i, val := range a {
			c, err := castTo(val, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			a[i] = c
		}
		return a, nil
	case reflect.Bool:
		if b, ok := castBool(raw); ok {
			return b, nil
		}
		return nil, fieldError(path, `a boolean, true or false (also "true", "false", "1", "0", 1, 0)`, raw)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := castNumber(raw, true); ok {
			return n, nil
		}
		return nil, fieldError(path, `a whole number (also as a string, "300")`, raw)
	case reflect.Float32, reflect.Float64:
		if n, ok := castNumber(raw, false); ok {
			return n, nil
		}
		return nil, fieldError(path, `a number (also as a string, "0.5")`, raw)
	case reflect.String:
		switch r := raw.(type) {
		case json.Number:
			return r.String(), nil
		case bool:
			return strconv.FormatBool(r), nil
		case string:
			return r, nil
		}
		return nil, fieldError(path, "a string", raw)
	}
	return raw, nil
}

// castBool reads a boolean as Rails' ActiveModel::Type::Boolean did for its false
// values ("0", "f", "false", "off"); of the rest only the values naming true are
// taken, other strings are refused rather than read as true.
func castBool(raw any) (bool, bool) {
	switch r := raw.(type) {
	case bool:
		return r, true
	case json.Number:
		switch r.String() {
		case "1":
			return true, true
		case "0":
			return false, true
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(r)) {
		case "true", "t", "1", "on":
			return true, true
		case "false", "f", "0", "off":
			return false, true
		}
	}
	return false, false
}

func castNumber(raw any, whole bool) (json.Number, bool) {
	var s string
	switch r := raw.(type) {
	case json.Number:
		s = r.String()
	case string:
		s = strings.TrimSpace(r)
	default:
		return "", false
	}
	if whole {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return json.Number(s), true
		}
		// "300.0" is a whole number too.
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int64(f)) {
			return json.Number(strconv.FormatInt(int64(f), 10)), true
		}
		return "", false
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return "", false
	}
	return json.Number(s), true
}

func fieldError(path, want string, raw any) *FieldError {
	got, _ := json.Marshal(raw)
	return &FieldError{Field: path, Want: want, Got: string(got)}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// fieldByJSONName finds the field encoding/json would fill from key k (exact tag or
// name first, then case-insensitively, embedded structs included).
func fieldByJSONName(t reflect.Type, k string) (reflect.StructField, bool) {
	var fold reflect.StructField
	found := false
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if ef, ok := fieldByJSONName(et, k); ok {
					return ef, true
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == k {
			return f, true
		}
		if !found && strings.EqualFold(name, k) {
			fold, found = f, true
		}
	}
	return fold, found
}
