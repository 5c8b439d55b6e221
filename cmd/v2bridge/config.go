package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"gopkg.in/yaml.v3"
)

// fileConfig is the YAML configuration (configs/v2bridge.yaml documents every key).
type fileConfig struct {
	Listen           string        `yaml:"listen"`
	Upstream         string        `yaml:"upstream"`
	PublicURL        string        `yaml:"public_url"`
	DefaultAccountID int64         `yaml:"default_account_id"`
	RequestTimeout   time.Duration `yaml:"request_timeout"`
	UpstreamTimeout  time.Duration `yaml:"upstream_timeout"`
	LogLevel         string        `yaml:"log_level"`
}

func defaultConfig() fileConfig {
	return fileConfig{
		Listen:          ":8080",
		Upstream:        "us",
		RequestTimeout:  60 * time.Second,
		UpstreamTimeout: 30 * time.Second,
		LogLevel:        "info",
	}
}

// loadConfig reads path over the defaults; unknown keys and bad values are errors
// naming the key.
func loadConfig(path string) (fileConfig, error) {
	cfg := defaultConfig()
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, cfg.validate()
}

func (c fileConfig) validate() error {
	var errs []error
	if c.Listen == "" {
		errs = append(errs, errors.New("listen: must not be empty"))
	}
	if c.DefaultAccountID < 0 {
		errs = append(errs, errors.New("default_account_id: must be positive"))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("request_timeout: must be positive"))
	}
	if c.UpstreamTimeout <= 0 {
		errs = append(errs, errors.New("upstream_timeout: must be positive"))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log_level: %q is not debug, info, warn or error", c.LogLevel))
	}
	return errors.Join(errs...)
}
