package graphql

// ChangeEvent is the change-tracking event DeploymentCreateEvent recorded (its
// `changeTrackingEvent` is bound to it). genqlient's generated types for that interface,
// and for its entity's, decode the event with encoding/json several times over (into raw
// messages, again for __typename, again for the concrete type); this struct receives
// the same selection in one pass of the response decoder. Nullable scalars stay
// pointers, as the generated types held them.
type ChangeEvent struct {
	Typename         string             `json:"__typename"`
	ChangeTrackingId string             `json:"changeTrackingId"`
	Timestamp        int64              `json:"timestamp"`
	User             *string            `json:"user"`
	Description      *string            `json:"description"`
	Category         string             `json:"category"`
	Type             string             `json:"type"`
	Entity           *ChangeEventEntity `json:"entity"`
	// Version, Changelog and Commit are a ChangeTrackingDeploymentEvent's.
	Version   *string `json:"version"`
	Changelog *string `json:"changelog"`
	Commit    *string `json:"commit"`
}

// ChangeEventEntity is the entity a change event was recorded on; ApplicationId is an
// APM application's (nil for any other entity).
type ChangeEventEntity struct {
	Typename      string `json:"__typename"`
	Guid          string `json:"guid"`
	ApplicationId *int   `json:"applicationId"`
}
