package configs

import (
	"os"
	"path/filepath"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"
)

// The deployment survives bad days: a preStop sleep keeps the pod
// answering while its endpoint is removed, the grace period covers that sleep plus the
// 30 s graceful shutdown of in-flight requests, the Go memory limit follows the
// container's, and readiness is the replica's own /readyz.
func TestKubernetesBadDays(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("k8s", "base", "deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var dep appsv1.Deployment
	if err := yaml.UnmarshalStrict(b, &dep); err != nil {
		t.Fatal(err)
	}
	spec := dep.Spec.Template.Spec
	c := spec.Containers[0]
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil || c.Lifecycle.PreStop.Sleep.Seconds < 5 {
		t.Fatal("deployment: want a preStop sleep of at least 5 s")
	}
	sleep := c.Lifecycle.PreStop.Sleep.Seconds
	if spec.TerminationGracePeriodSeconds == nil || *spec.TerminationGracePeriodSeconds < sleep+30 {
		t.Errorf("deployment: terminationGracePeriodSeconds must cover the preStop sleep (%d s) plus the 30 s shutdown", sleep)
	}
	if c.Resources.Limits.Memory().IsZero() {
		t.Fatal("deployment: no memory limit")
	}
	found := false
	for _, e := range c.Env {
		if e.Name == "V2BRIDGE_MEMORY_LIMIT" {
			found = e.ValueFrom != nil && e.ValueFrom.ResourceFieldRef != nil &&
				e.ValueFrom.ResourceFieldRef.Resource == "limits.memory" && e.ValueFrom.ResourceFieldRef.Divisor.String() == "1"
		}
	}
	if !found {
		t.Error("deployment: V2BRIDGE_MEMORY_LIMIT must come from limits.memory in bytes (divisor 1)")
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("deployment: readiness must be /readyz (the replica's own state, not NerdGraph's)")
	}
}
