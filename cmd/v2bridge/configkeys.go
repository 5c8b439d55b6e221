package main

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// scalarKey is one scalar key of the configuration file, nested ones included
// (cache.entity_ttl), with the environment variable that sets it.
type scalarKey struct {
	path  string // cache.entity_ttl
	env   string // V2BRIDGE_CACHE_ENTITY_TTL
	index []int  // the field's index path in fileConfig
	typ   reflect.Type
}

// scalarKeys lists every scalar key of fileConfig in file order; lists and maps (keys,
// routes, compare.ignore, compare.routes) have no variable.
func scalarKeys() []scalarKey {
	var out []scalarKey
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := yamlName(f)
			if name == "" {
				continue
			}
			idx := append(append([]int{}, index...), i)
			switch {
			case envSettable(f.Type):
				path := prefix + name
				out = append(out, scalarKey{path: path, env: envName(path), index: idx, typ: f.Type})
			case f.Type.Kind() == reflect.Struct:
				walk(f.Type, prefix+name+".", idx)
			}
		}
	}
	walk(reflect.TypeOf(fileConfig{}), "", nil)
	return out
}

// yamlName is the field's key in the file ("" when it has none).
func yamlName(f reflect.StructField) string {
	name := strings.Split(f.Tag.Get("yaml"), ",")[0]
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// envName is the variable that sets the configuration key at path.
func envName(path string) string {
	return "V2BRIDGE_" + strings.ToUpper(strings.ReplaceAll(path, ".", "_"))
}

func envSettable(t reflect.Type) bool {
	if t == reflect.TypeOf(time.Duration(0)) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
		return true
	}
	return false
}

func envKind(t reflect.Type) string {
	if t == reflect.TypeOf(time.Duration(0)) {
		return "duration, e.g. 30s"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	}
	return "string"
}

// applyEnv overrides scalar settings with their V2BRIDGE_* environment variables
// (V2BRIDGE_LISTEN, V2BRIDGE_CACHE_ENTITY_TTL, ...): flags > environment > file >
// defaults. Every variable that does not parse is listed.
func (c *fileConfig) applyEnv(getenv func(string) string) error {
	v := reflect.ValueOf(c).Elem()
	var errs []error
	for _, k := range scalarKeys() {
		val := strings.TrimSpace(getenv(k.env)) // as YAML reads a plain value
		if val == "" {
			continue
		}
		f := v.FieldByIndex(k.index)
		var err error
		switch {
		case k.typ == reflect.TypeOf(time.Duration(0)):
			var d time.Duration
			d, err = time.ParseDuration(val)
			f.SetInt(int64(d))
		case k.typ.Kind() == reflect.String:
			f.SetString(val)
		case k.typ.Kind() == reflect.Bool:
			var b bool
			b, err = strconv.ParseBool(val)
			f.SetBool(b)
		case k.typ.Kind() == reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(val, 64)
			f.SetFloat(x)
		default:
			var n int64
			n, err = strconv.ParseInt(val, 10, 64)
			f.SetInt(n)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s (%s): %q is not a %s", k.path, k.env, val, envKind(k.typ)))
		}
	}
	return errors.Join(errs...)
}

// memoryLimitEnv is the container's memory limit in bytes (memlimit.go), the one
// V2BRIDGE_* variable that sets no configuration key.
const memoryLimitEnv = "V2BRIDGE_MEMORY_LIMIT"

// unknownEnv lists the V2BRIDGE_* variables of environ ("NAME=value" entries) that
// v2bridge does not read: neither a configuration key's, nor one the file names
// (user_key_env, password_env, ...), nor V2BRIDGE_MEMORY_LIMIT. Each names the nearest
// variable it could have meant.
func (c fileConfig) unknownEnv(environ []string) error {
	known := map[string]bool{}
	var names []string
	for _, k := range scalarKeys() {
		known[k.env] = true
		names = append(names, k.env)
	}
	known[memoryLimitEnv] = true
	names = append(names, memoryLimitEnv)
	for _, k := range c.Keys {
		known[k.UserKeyEnv] = true
	}
	known[c.Store.UsernameEnv], known[c.Store.PasswordEnv], known[c.Report.AdminTokenEnv] = true, true, true
	var errs []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "V2BRIDGE_") || known[name] {
			continue
		}
		errs = append(errs, fmt.Errorf("%s: v2bridge reads no such variable%s", name, didYouMean(name, names)))
	}
	return errors.Join(errs...)
}

// keyProblemsError lists the keys of a configuration file that are not configuration
// keys and the values of the wrong type, each naming its key and the fix; the rest of
// the file was read.
type keyProblemsError struct{ problems []string }

func (e *keyProblemsError) Error() string { return strings.Join(e.problems, "\n") }

// keyProblems walks the file's YAML against the configuration's type and lists every key
// it does not know, with its line and the nearest key of the same level, and every value
// that does not fit its key's type, with the form the key takes.
func keyProblems(doc *yaml.Node) error {
	var problems []string
	mistyped := func(n *yaml.Node, path string, t reflect.Type) {
		value := n.Value
		switch n.Kind {
		case yaml.MappingNode:
			value = "a mapping"
		case yaml.SequenceNode:
			value = "a list"
		default:
			value = "`" + value + "`"
		}
		problems = append(problems, fmt.Sprintf("line %d: %s: %s is not %s", n.Line, strings.TrimSuffix(path, "."), value, valueForm(t)))
	}
	var walk func(n *yaml.Node, t reflect.Type, path string)
	walk = func(n *yaml.Node, t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return // an empty value keeps the default
		}
		switch {
		case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
			fields := map[string]reflect.StructField{}
			var names []string
			for i := 0; i < t.NumField(); i++ {
				if name := yamlName(t.Field(i)); name != "" {
					fields[name] = t.Field(i)
					names = append(names, name)
				}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				f, ok := fields[k.Value]
				if !ok {
					problems = append(problems, fmt.Sprintf("line %d: %s%s: not a configuration key%s", k.Line, path, k.Value, didYouMean(k.Value, names)))
					continue
				}
				walk(v, f.Type, path+k.Value+".")
			}
		case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], t.Elem(), path+n.Content[i].Value+".")
			}
		case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
			for i, item := range n.Content {
				walk(item, t.Elem(), fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i))
			}
		case t.Kind() == reflect.Struct || t.Kind() == reflect.Map || t.Kind() == reflect.Slice || n.Kind != yaml.ScalarNode:
			mistyped(n, path, t)
		default:
			if err := n.Decode(reflect.New(t).Interface()); err != nil {
				mistyped(n, path, t)
			}
		}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		walk(doc.Content[0], reflect.TypeOf(fileConfig{}), "")
	}
	if len(problems) == 0 {
		return nil
	}
	return &keyProblemsError{problems: problems}
}

// valueForm is what a key of type t takes, in the configuration's words, with an example.
func valueForm(t reflect.Type) string {
	if t == reflect.TypeOf(time.Duration(0)) {
		return "a duration: write it with a unit, such as 5s, 500ms or 2m"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number, such as 10"
	case reflect.Float64:
		return "a number, such as 0.05"
	case reflect.String:
		return "a single value (quote it if it holds a colon or starts with a symbol)"
	case reflect.Map:
		return "a mapping: indented `name: value` lines under the key"
	case reflect.Slice:
		return "a list: `[a, b]` or indented `- item` lines under the key"
	}
	return "a mapping of keys: indented `key: value` lines under the key"
}

// didYouMean is " (did you mean X?)" for the candidate nearest to s, or "" when none
// is near (more than a third of s's letters, at least two, would have to change).
func didYouMean(s string, candidates []string) string {
	best, bestD := "", max(2, len(s)/3)+1
	sorted := append([]string{}, candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the Levenshtein distance of a and b, counting an exchange of two
// neighbouring letters as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// loadEffective is the configuration serve runs with: the file at path over the
// defaults, then the V2BRIDGE_* variables of environ, then flags (override may be nil),
// validated. Every problem is listed at once: unknown keys, values that do not parse,
// and what validate finds. Variables v2bridge does not read are unknownEnv's: config
// check lists them as problems, serve logs them as warnings.
func loadEffective(path string, environ []string, override func(*fileConfig)) (fileConfig, error) {
	cfg, err := loadConfig(path)
	var unknown *keyProblemsError
	var mistyped *yaml.TypeError
	isUnknown, isMistyped := errors.As(err, &unknown), errors.As(err, &mistyped)
	if err != nil && !isUnknown && !isMistyped {
		return cfg, err
	}
	if err != nil { // the file's own problems, without the "config FILE:" prefix
		err = nil
		if unknown != nil {
			err = unknown
		}
		if mistyped != nil {
			err = errors.Join(err, typeProblems(mistyped))
		}
	}
	getenv := envLookup(environ)
	errs := []error{err, cfg.applyEnv(getenv)}
	if override != nil {
		override(&cfg)
	}
	cfg.normalise() // normalise.go
	errs = append(errs, cfg.validate(getenv), cfg.Compare.checkRouteNames())
	return cfg, errors.Join(errs...)
}

// envLookup is os.Getenv over environ ("NAME=value" entries; the last one wins).
func envLookup(environ []string) func(string) string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// typeProblems restates yaml's type errors in the configuration's words: a duration, an
// integer, true or false, a mapping, a list, instead of Go type names.
func typeProblems(e *yaml.TypeError) error {
	words := strings.NewReplacer("into time.Duration", "into a duration (e.g. 30s)", "into int64", "into an integer",
		"into int", "into an integer", "into float64", "into a number", "into bool", "into true or false",
		"into string", "into a string", "into map[string]string", "into a mapping", "into []string", "into a list")
	errs := make([]error, 0, len(e.Errors))
	for _, m := range e.Errors {
		m = words.Replace(m)
		if i := strings.Index(m, " into main."); i >= 0 {
			m = m[:i] + " into a mapping of keys"
		} else if i := strings.Index(m, " into []main."); i >= 0 {
			m = m[:i] + " into a list"
		}
		errs = append(errs, errors.New(m))
	}
	return errors.Join(errs...)
}
