package clientcompat

import (
	"strings"
	"testing"

	"github.com/newrelic/newrelic-client-go/v2/pkg/apm"

	"github.com/v2bridge/v2bridge/tests/harness"
)

func TestDeployments(t *testing.T) {
	c, env := client(t, harness.Key1)
	d, err := c.CreateDeployment(app, apm.Deployment{Revision: "v1.2.3", Changelog: "fixes", Description: "release", User: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if d.ID == 0 || d.Revision != "v1.2.3" || d.Links.ApplicationID != app {
		t.Fatalf("CreateDeployment = %+v", d)
	}
	list, err := c.ListDeployments(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != d.ID || list[0].Changelog != "fixes" || list[0].User != "ci" {
		t.Fatalf("ListDeployments = %+v", list)
	}
	_, err = c.DeleteDeployment(app, d.ID)
	if err == nil || !strings.Contains(err.Error(), "immutable") && !strings.Contains(err.Error(), "501") {
		t.Fatalf("DeleteDeployment error = %v, want the 501", err)
	}
	if env.Sim.RequestsByOperation()["DeploymentCreateEvent"] != 1 {
		t.Fatal("one create, not one mutation")
	}
}

func TestUpdateAndDeleteApplication(t *testing.T) {
	c, _ := client(t, harness.Key1)
	got, err := c.UpdateApplication(app, apm.UpdateApplicationParams{Name: "Renamed by client-go",
		Settings: apm.ApplicationSettings{AppApdexThreshold: 0.3}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Renamed by client-go" || got.Settings.AppApdexThreshold != 0.3 {
		t.Fatalf("UpdateApplication = %+v", got)
	}
	const silent = 439883550 // not reporting
	deleted, err := c.DeleteApplication(silent)
	if err != nil {
		t.Fatal(err)
	}
	if deleted.ID != silent {
		t.Fatalf("DeleteApplication = %+v", deleted)
	}
	if _, err := c.DeleteApplication(app); err == nil {
		t.Fatal("deleting a reporting application succeeded")
	}
}
