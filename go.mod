module github.com/v2bridge/v2bridge

go 1.26.8

tool (
	github.com/99designs/gqlgen
	github.com/Khan/genqlient
)

require (
	github.com/99designs/gqlgen v0.17.85 // indirect
	github.com/Khan/genqlient v0.8.1 // indirect
	github.com/agnivade/levenshtein v1.2.1 // indirect
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/alexflint/go-arg v1.5.1 // indirect
	github.com/alexflint/go-scalar v1.2.0 // indirect
	github.com/bmatcuk/doublestar/v4 v4.6.1 // indirect
	github.com/goccy/go-yaml v1.19.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/patrickmn/go-cache v2.1.0+incompatible // indirect
	github.com/sosodev/duration v1.3.1 // indirect
	github.com/urfave/cli/v3 v3.6.1 // indirect
	github.com/vektah/gqlparser/v2 v2.5.31 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	go.uber.org/zap v1.27.0 // indirect
	golang.org/x/mod v0.31.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.32.0 // indirect
	golang.org/x/tools v0.40.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
