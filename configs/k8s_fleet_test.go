package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The optional fleet store (fleet/valkey.yaml) decodes strictly into a Deployment and a
// Service; the Service's selector matches the pods, the password comes from a
// Secret, nothing is persisted, and the fleet's store.url points at it.
func TestKubernetesFleetStore(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("k8s", "fleet", "valkey.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := bytes.Split(b, []byte("\n---\n"))
	if len(docs) != 2 {
		t.Fatalf("valkey.yaml: %d documents, want a Deployment and a Service", len(docs))
	}
	var dep appsv1.Deployment
	var svc corev1.Service
	if err := yaml.UnmarshalStrict(docs[0], &dep); err != nil {
		t.Fatalf("valkey.yaml deployment: %v", err)
	}
	if err := yaml.UnmarshalStrict(docs[1], &svc); err != nil {
		t.Fatalf("valkey.yaml service: %v", err)
	}
	for k, v := range svc.Spec.Selector {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("service selector %s=%s does not match the pods", k, v)
		}
	}
	c := dep.Spec.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	if !strings.Contains(args, "--requirepass $(VALKEY_PASSWORD)") || !strings.Contains(args, `--appendonly no`) {
		t.Errorf("valkey args: %s", args)
	}
	if len(c.Env) == 0 || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.SecretKeyRef == nil {
		t.Error("the valkey password must come from a Secret")
	}
	if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
		t.Error("valkey: root filesystem must be read-only")
	}
	cm, err := os.ReadFile(filepath.Join("k8s", "fleet", "store-url.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cm), "redis://"+svc.Name+":6379") {
		t.Errorf("fleet/store-url.yaml's store.url does not name the service %s", svc.Name)
	}
}
