package main

import (
	"strings"
	"testing"
	"time"
)

// The store keys are checked by config check, each problem naming its key; a URL
// holding a password is refused (config check prints the configuration).
func TestStoreConfigCheck(t *testing.T) {
	env := map[string]string{"STORE_PW": "secret"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name string
		s    storeConfig
		want string // "" = valid
	}{
		{"unset", storeConfig{Timeout: time.Second}, ""},
		{"redis", storeConfig{URL: "redis://valkey:6379/0", Timeout: time.Second}, ""},
		{"rediss with env password", storeConfig{URL: "rediss://user@valkey:6380", PasswordEnv: "STORE_PW", Timeout: time.Second}, ""},
		{"password in the URL", storeConfig{URL: "redis://user:hunter2@valkey:6379", Timeout: time.Second}, "store.url: holds a password"},
		{"other scheme", storeConfig{URL: "http://valkey:6379", Timeout: time.Second}, "store.url:"},
		{"no host", storeConfig{URL: "redis://", Timeout: time.Second}, "store.url:"},
		{"missing env", storeConfig{URL: "redis://valkey:6379", PasswordEnv: "NOPE", Timeout: time.Second}, "store.password_env: environment variable NOPE"},
		{"no timeout", storeConfig{}, "store.timeout: must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.check(getenv)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("the error repeats the password: %v", err)
			}
		})
	}
}
