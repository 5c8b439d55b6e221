package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// Every command the usage lists answers `help COMMAND`, `COMMAND --help` and
// `COMMAND -h` with its help on standard output and succeeds, and its synopsis names
// every flag it parses.
func TestHelpCoversEveryCommandOfTheUsage(t *testing.T) {
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  v2bridge ([a-z-]+)( check)?`).FindAllStringSubmatch(usage, -1) {
		names[m[1]+m[2]] = true
	}
	if len(names) < 8 {
		t.Fatalf("the usage lists only %v", names)
	}
	for name := range names {
		c, ok := commands()[name]
		if !ok {
			t.Errorf("the usage lists %q, which has no help", name)
			continue
		}
		words := strings.Fields(name)
		for _, args := range [][]string{append([]string{"help"}, words...), append(append([]string{}, words...), "--help"),
			append(append([]string{}, words...), "-h")} {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), args, strings.NewReader(""), &out, &errOut); err != nil {
				t.Errorf("%s: %v (stderr %q)", strings.Join(args, " "), err, errOut.String())
			} else if !strings.HasPrefix(out.String(), "usage: v2bridge "+name) {
				t.Errorf("%s printed %q", strings.Join(args, " "), out.String())
			}
		}
		if c.flags != nil {
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			c.flags(fs)
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(c.synopsis, "--"+f.Name) {
					t.Errorf("%s: the synopsis %q does not name --%s", name, c.synopsis, f.Name)
				}
			})
		}
	}
	if !strings.Contains(usage, "v2bridge sim     [--listen 127.0.0.1:4000] [--scale") {
		t.Error("the usage's sim line does not mention --scale")
	}
}

// Unknown keys of the file are listed all at once, each with its line, its full path
// and the nearest valid key of its level, together with the values of the wrong type
// (in the configuration's words) and what validate finds.
func TestUnknownKeysNameTheNearest(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
		not        []string
	}{
		{"top level", "upstraem: us\n", []string{"line 1: upstraem: not a configuration key (did you mean upstream?)"}, nil},
		{"nested", "cache:\n  entity_tll: 5m\n", []string{"line 2: cache.entity_tll: not a configuration key (did you mean entity_ttl?)"}, nil},
		{"in a list item", "keys:\n  - sha256: " + strings.Repeat("ab", 32) + "\n    user_key_evn: X\n",
			[]string{"keys[0].user_key_evn: not a configuration key (did you mean user_key_env?)", "keys[0]: set user_key_env or user_key_file"}, nil},
		{"in a map value", "compare:\n  routes:\n    applications.show:\n      tolerence: 0.1\n",
			[]string{"compare.routes.applications.show.tolerence: not a configuration key (did you mean tolerance?)"}, nil},
		{"nothing near", "zzzzzzzz: 1\n", []string{"zzzzzzzz: not a configuration key"}, []string{"did you mean"}},
		{"every problem at once", "listen: nope\nupstraem: us\nrequest_timeout: soon\nrate_limit_per_minute: many\nstore: 5\nlog_levle: debug\n",
			[]string{"upstraem", "log_levle: not a configuration key (did you mean log_level?)", "line 3: request_timeout: `soon` is not a duration",
				"line 4: rate_limit_per_minute: `many` is not a whole number", "line 5: store: `5` is not a mapping of keys", "listen:"},
			[]string{"main.", "time.Duration", "int64", "cannot unmarshal"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := loadEffective(path, nil, nil)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(err.Error(), n) {
					t.Errorf("error has %q:\n%v", n, err)
				}
			}
		})
	}
}

// Every scalar key of the file, nested ones included, is set by its V2BRIDGE_ variable
// (dots become underscores), and none is left without one.
func TestEveryScalarKeyHasAVariable(t *testing.T) {
	var leaves []string
	var walk func(typ reflect.Type, prefix string)
	walk = func(typ reflect.Type, prefix string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			key := strings.Split(f.Tag.Get("yaml"), ",")[0]
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type, prefix+key+".")
			case reflect.Map, reflect.Slice, reflect.Pointer:
			default:
				leaves = append(leaves, prefix+key)
			}
		}
	}
	walk(reflect.TypeOf(fileConfig{}), "")
	listed := map[string]bool{}
	for _, line := range configEnv() {
		listed[strings.Split(line, "\t")[0]] = true
	}
	for _, k := range leaves {
		if !listed["V2BRIDGE_"+strings.ToUpper(strings.ReplaceAll(k, ".", "_"))] {
			t.Errorf("%s has no V2BRIDGE_ variable", k)
		}
	}
	if len(listed) != len(leaves) {
		t.Errorf("%d variables for %d scalar keys", len(listed), len(leaves))
	}
	for _, tc := range []struct {
		env, value string
		got        func(c fileConfig) any
		want       any
	}{
		{"V2BRIDGE_CACHE_ENTITY_TTL", "2m", func(c fileConfig) any { return c.Cache.EntityTTL }, 2 * time.Minute},
		{"V2BRIDGE_STORE_SHARED_CACHE", "true", func(c fileConfig) any { return c.Store.SharedCache }, true},
		{"V2BRIDGE_COMPARE_TOLERANCE", "0.25", func(c fileConfig) any { return c.Compare.Tolerance }, 0.25},
		{"V2BRIDGE_REPORT_MAX_CALLERS", "12", func(c fileConfig) any { return c.Report.MaxCallers }, 12},
		{"V2BRIDGE_STORE_URL", "redis://valkey:6379/0", func(c fileConfig) any { return c.Store.URL }, "redis://valkey:6379/0"},
		{"V2BRIDGE_LISTEN", "127.0.0.1:9", func(c fileConfig) any { return c.Listen }, "127.0.0.1:9"},
	} {
		cfg := defaultConfig()
		if err := cfg.applyEnv(func(k string) string {
			if k == tc.env {
				return tc.value
			}
			return ""
		}); err != nil {
			t.Errorf("%s: %v", tc.env, err)
		}
		if got := tc.got(cfg); got != tc.want {
			t.Errorf("%s=%s: got %v, want %v", tc.env, tc.value, got, tc.want)
		}
	}
	cfg := defaultConfig()
	err := cfg.applyEnv(func(k string) string {
		return map[string]string{"V2BRIDGE_CACHE_ENTITY_TTL": "soon", "V2BRIDGE_COMPARE_TOLERANCE": "half"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "cache.entity_ttl (V2BRIDGE_CACHE_ENTITY_TTL)") ||
		!strings.Contains(err.Error(), "compare.tolerance (V2BRIDGE_COMPARE_TOLERANCE)") {
		t.Errorf("every unparsable variable is not listed: %v", err)
	}
}

// A V2BRIDGE_ variable v2bridge does not read is a problem naming the nearest one,
// listed by config check and logged as a warning by serve (which still starts); the
// variables the file names (user_key_env, password_env, admin_token_env) and
// V2BRIDGE_MEMORY_LIMIT are read.
func TestUnknownVariablesAreProblems(t *testing.T) {
	file := "keys:\n  - sha256: " + strings.Repeat("ab", 32) + "\n    user_key_env: V2BRIDGE_USER_KEY_TEAM_A\n" +
		"store:\n  url: redis://valkey:6379\n  password_env: V2BRIDGE_STORE_PASSWORD\nreport:\n  admin_token_env: V2BRIDGE_REPORT_TOKEN\n"
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	named := []string{"V2BRIDGE_USER_KEY_TEAM_A=NRAK-X", "V2BRIDGE_STORE_PASSWORD=pw", "V2BRIDGE_REPORT_TOKEN=t", "V2BRIDGE_MEMORY_LIMIT=268435456", "HOME=/root"}
	for _, tc := range []struct {
		name    string
		environ []string
		want    []string // "" entries: no error
	}{
		{"only variables v2bridge reads", named, nil},
		{"misspelled", append([]string{"V2BRIDGE_LISTN=:9", "V2BRIDGE_CACHE_ENTITY_TLL=1m"}, named...),
			[]string{"V2BRIDGE_LISTN: v2bridge reads no such variable (did you mean V2BRIDGE_LISTEN?)",
				"V2BRIDGE_CACHE_ENTITY_TLL: v2bridge reads no such variable (did you mean V2BRIDGE_CACHE_ENTITY_TTL?)"}},
		{"nothing near", append([]string{"V2BRIDGE_SOMETHING_ELSE_ENTIRELY=1"}, named...), []string{"V2BRIDGE_SOMETHING_ELSE_ENTIRELY: v2bridge reads no such variable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := loadEffective(path, tc.environ, nil)
			err = errors.Join(err, cfg.unknownEnv(tc.environ))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
	var out, errOut bytes.Buffer
	t.Setenv("V2BRIDGE_UPSTRAEM", "eu")
	err := run(context.Background(), []string{"config", "check", path}, strings.NewReader(""), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "V2BRIDGE_UPSTRAEM: v2bridge reads no such variable (did you mean V2BRIDGE_UPSTREAM?)") {
		t.Errorf("config check: %v", err)
	}
	srv := startServe(t, "upstream: "+demoUpstream(t).URL+sim.Path+"\n")
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if logs := srv.logs.String(); !strings.Contains(logs, "environment variables v2bridge does not read") || !strings.Contains(logs, "V2BRIDGE_UPSTRAEM") {
		t.Errorf("serve did not warn about V2BRIDGE_UPSTRAEM:\n%s", logs)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"listen", "listen", 0}, {"listn", "listen", 1}, {"upstraem", "upstream", 1}, {"abc", "", 3}, {"kitten", "sitting", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
