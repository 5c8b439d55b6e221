package configs

import (
	"os"
	"path/filepath"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// The Kubernetes manifests decode strictly (unknown fields are errors) into the
// Kubernetes API types, and the deployment has what production needs.
func TestKubernetesManifests(t *testing.T) {
	var dep appsv1.Deployment
	objects := map[string]any{
		"base/deployment.yaml":        &dep,
		"base/service.yaml":           &corev1.Service{},
		"base/configmap.yaml":         &corev1.ConfigMap{},
		"example/secret.example.yaml": &corev1.Secret{},
		"base/hpa.yaml":               &autoscalingv2.HorizontalPodAutoscaler{},
		"base/pdb.yaml":               &policyv1.PodDisruptionBudget{},
	}
	for name, obj := range objects {
		b, err := os.ReadFile(filepath.Join("k8s", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(b, obj); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 {
		t.Error("deployment: want 2 replicas")
	}
	c := dep.Spec.Template.Spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Error("deployment: probes must use /readyz and /healthz")
	}
	if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
		t.Error("deployment: root filesystem must be read-only")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Error("deployment: resource requests missing")
	}
}
