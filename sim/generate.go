package sim

//go:generate go tool gqlgen generate --config gqlgen.yml
