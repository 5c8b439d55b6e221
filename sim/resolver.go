package sim

import (
	"context"

	"github.com/v2bridge/v2bridge/sim/internal/exec"
	"github.com/v2bridge/v2bridge/sim/model"
)

// resolver implements exec.ResolverRoot by hand (gqlgen.yml generates no resolver
// code). One small type per GraphQL object with resolver fields; they all read the
// world snapshot and caller of the request from the context.
type resolver struct{ s *Server }

var _ exec.ResolverRoot = (*resolver)(nil)

func (r *resolver) RootQueryType() exec.RootQueryTypeResolver       { return queryResolver{r} }
func (r *resolver) RootMutationType() exec.RootMutationTypeResolver { return mutationResolver{r} }
func (r *resolver) Actor() exec.ActorResolver                       { return actorResolver{r} }
func (r *resolver) Account() exec.AccountResolver                   { return accountResolver{r} }
func (r *resolver) ApiAccessActorStitchedFields() exec.ApiAccessActorStitchedFieldsResolver {
	return apiAccessResolver{r}
}
func (r *resolver) EntitySearch() exec.EntitySearchResolver { return entitySearchResolver{r} }
func (r *resolver) ApmApplicationEntity() exec.ApmApplicationEntityResolver {
	return apmApplicationResolver{r}
}
func (r *resolver) AiIssuesAccountStitchedFields() exec.AiIssuesAccountStitchedFieldsResolver {
	return issuesResolver{r}
}
func (r *resolver) AlertsAccountStitchedFields() exec.AlertsAccountStitchedFieldsResolver {
	return alertsResolver{r}
}
func (r *resolver) ApmApplicationEntityOutline() exec.ApmApplicationEntityOutlineResolver {
	return apmOutlineResolver{r}
}
func (r *resolver) BrowserApplicationEntity() exec.BrowserApplicationEntityResolver {
	return browserApplicationResolver{r}
}
func (r *resolver) AgentEnvironmentApplicationInstance() exec.AgentEnvironmentApplicationInstanceResolver {
	return instanceResolver{r}
}

type queryResolver struct{ *resolver }

// Actor is the caller; its fields read the caller from the context.
func (queryResolver) Actor(context.Context) (*model.Actor, error) { return &model.Actor{}, nil }

// mutationResolver answers the mutations (agentapps.go, alerts.go, conditionwrites.go,
// changetracking.go).
type mutationResolver struct{ *resolver }
