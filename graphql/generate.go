package graphql

//go:generate go tool genqlient genqlient.yaml
