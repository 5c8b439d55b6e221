package configs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	yamlv3 "gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// manifest is one YAML document of a folder `kubectl apply -f` reads.
type manifest struct {
	file, kind, name string
	obj              any
}

// kubeObject returns a new value of a kind the manifests use, decoded strictly into the API types.
func kubeObject(kind string) any {
	switch kind {
	case "Deployment":
		return &appsv1.Deployment{}
	case "Service":
		return &corev1.Service{}
	case "ConfigMap":
		return &corev1.ConfigMap{}
	case "Secret":
		return &corev1.Secret{}
	case "HorizontalPodAutoscaler":
		return &autoscalingv2.HorizontalPodAutoscaler{}
	case "PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}
	}
	return nil
}

// kustomization is the part of kustomization.yaml the manifests use: resources only
// (files and folders), so the structural render below is what kustomize renders.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
}

// render returns the objects `kubectl apply -k dir` applies: dir's kustomization's
// resources, folders rendered in turn. Where kubectl is installed, its own render
// (kubectl kustomize) must name the same objects.
func render(t *testing.T, dir string) []manifest {
	t.Helper()
	out := renderResources(t, dir)
	if _, err := exec.LookPath("kubectl"); err != nil {
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := exec.CommandContext(ctx, "kubectl", "kustomize", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl kustomize %s: %v\n%s", dir, err, b)
	}
	var want, got []string
	for _, m := range out {
		want = append(want, m.kind+"/"+m.name)
	}
	for _, m := range decodeDocuments(t, dir+" (kubectl kustomize)", b) {
		got = append(got, m.kind+"/"+m.name)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Errorf("%s: kubectl kustomize renders %v, the structural render %v", dir, got, want)
	}
	return out
}

func renderResources(t *testing.T, dir string) []manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var k kustomization
	if err := yaml.UnmarshalStrict(b, &k); err != nil {
		t.Fatalf("%s/kustomization.yaml: %v (the manifests use resources only)", dir, err)
	}
	if k.Kind != "Kustomization" || len(k.Resources) == 0 {
		t.Fatalf("%s/kustomization.yaml: kind %q with %d resources", dir, k.Kind, len(k.Resources))
	}
	var out []manifest
	for _, r := range k.Resources {
		path := filepath.Join(dir, r)
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			out = append(out, renderResources(t, path)...)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, decodeDocuments(t, path, b)...)
	}
	return out
}

// decodeDocuments decodes every YAML document of b strictly into the API types.
func decodeDocuments(t *testing.T, file string, b []byte) []manifest {
	t.Helper()
	var out []manifest
	dec := yamlv3.NewDecoder(bytes.NewReader(b))
	for i := 0; ; i++ {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s document %d: %v", file, i, err)
		}
		if doc == nil {
			continue
		}
		kind, _ := doc["kind"].(string)
		meta, _ := doc["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		if api, _ := doc["apiVersion"].(string); api == "" || kind == "" || name == "" {
			t.Errorf("%s document %d: apiVersion, kind and metadata.name are required", file, i)
			continue
		}
		obj := kubeObject(kind)
		if obj == nil {
			t.Errorf("%s: kind %s is not one the manifests use", file, kind)
			continue
		}
		js, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(js, obj); err != nil {
			t.Errorf("%s %s %s: %v", file, kind, name, err)
			continue
		}
		out = append(out, manifest{file: file, kind: kind, name: name, obj: obj})
	}
	return out
}

// dockerTags returns the image tags the Makefile's docker target builds, and the
// runtime base image of the Dockerfile.
func dockerTags(t *testing.T) (tags []string, runtime string) {
	t.Helper()
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	recipe := regexp.MustCompile(`(?ms)^docker:[^\n]*\n((?:\t[^\n]*\n)+)`).FindSubmatch(mk)
	if recipe == nil {
		t.Fatal("Makefile: no docker target")
	}
	for _, m := range regexp.MustCompile(`-t\s+(\S+)`).FindAllSubmatch(recipe[1], -1) {
		tag := string(m[1])
		for _, v := range regexp.MustCompile(`\$\((\w+)\)`).FindAllStringSubmatch(tag, -1) {
			if def := regexp.MustCompile(`(?m)^` + v[1] + `\s*\?=\s*(\S+)\s*$`).FindSubmatch(mk); def != nil && v[1] != "VERSION" {
				tag = strings.ReplaceAll(tag, v[0], string(def[1]))
			}
		}
		tags = append(tags, tag)
	}
	df, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllSubmatch(df, -1)
	if len(froms) == 0 {
		t.Fatal("Dockerfile: no FROM")
	}
	return tags, string(froms[len(froms)-1][1])
}

// `kubectl apply -k` of each kustomization starts pods on a cluster as it is: every
// Secret and ConfigMap a pod needs is rendered with it, marked optional, or one the
// kustomization's comment tells the operator to create (never rendered by the base or
// fleet: a re-apply would put a placeholder back over the real key; only the example
// renders them); the gateway's image is a pinned tag `make docker` builds; the probes
// ask the gateway's health endpoints on a port the container declares; no lifecycle
// hook runs a program the distroless image lacks; the report's token comes from a Secret.
func TestKubernetesKustomizationsApplyAsTheyAre(t *testing.T) {
	tags, runtime := dockerTags(t)
	for _, tc := range []struct {
		dir      string
		operator []string // Secrets the operator creates (named in the kustomization's comment)
	}{
		{filepath.Join("k8s", "base"), []string{"v2bridge-keys"}},
		{filepath.Join("k8s", "fleet"), []string{"v2bridge-keys", "v2bridge-store"}},
		{filepath.Join("k8s", "example"), nil},
	} {
		applied := render(t, tc.dir)
		secrets, configMaps := map[string]map[string]bool{}, map[string]map[string]bool{}
		labels := map[string]map[string]string{} // deployment → pod labels
		comment, err := os.ReadFile(filepath.Join(tc.dir, "kustomization.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tc.operator {
			secrets[name] = nil // any key
			if !strings.Contains(string(comment), name) && !strings.Contains(string(mustReadBase(t)), name) {
				t.Errorf("%s: the kustomization does not tell the operator to create Secret %s", tc.dir, name)
			}
		}
		for _, m := range applied {
			switch o := m.obj.(type) {
			case *corev1.Secret:
				if tc.operator != nil {
					t.Errorf("%s renders Secret %s: every re-apply would overwrite the real one", tc.dir, m.name)
				}
				keys := map[string]bool{}
				for k := range o.StringData {
					keys[k] = true
				}
				for k := range o.Data {
					keys[k] = true
				}
				secrets[m.name] = keys
			case *corev1.ConfigMap:
				keys := map[string]bool{}
				for k := range o.Data {
					keys[k] = true
				}
				configMaps[m.name] = keys
			case *appsv1.Deployment:
				labels[m.name] = o.Spec.Template.Labels
			}
		}
		reportToken := false
		for _, m := range applied {
			switch o := m.obj.(type) {
			case *appsv1.Deployment:
				checkPodSpec(t, tc.dir, m, o.Spec.Template.Spec, secrets, configMaps, tags, runtime)
				for _, e := range o.Spec.Template.Spec.Containers[0].Env {
					if e.Name == "V2BRIDGE_REPORT_TOKEN" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
						reportToken = true
					}
				}
			case *corev1.Service:
				if !selects(labels, o.Spec.Selector) {
					t.Errorf("%s: service %s selects no deployment's pods", tc.dir, m.name)
				}
			case *corev1.ConfigMap:
				if m.name == "v2bridge" && !strings.Contains(o.Data["v2bridge.yaml"], "admin_token_env: V2BRIDGE_REPORT_TOKEN") {
					t.Errorf("%s: the ConfigMap sets no report token, so the usage report is off", tc.dir)
				}
			}
		}
		if !reportToken {
			t.Errorf("%s: V2BRIDGE_REPORT_TOKEN does not come from a Secret", tc.dir)
		}
	}
}

func mustReadBase(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("k8s", "base", "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func selects(pods map[string]map[string]string, selector map[string]string) bool {
	for _, l := range pods {
		ok := len(selector) > 0
		for k, v := range selector {
			ok = ok && l[k] == v
		}
		if ok {
			return true
		}
	}
	return false
}

func checkPodSpec(t *testing.T, dir string, m manifest, spec corev1.PodSpec, secrets, configMaps map[string]map[string]bool, tags []string, runtime string) {
	t.Helper()
	where := dir + ": " + m.kind + " " + m.name
	need := func(what string, defined map[string]map[string]bool, name, key string, optional *bool) {
		if optional != nil && *optional {
			return
		}
		keys, ok := defined[name]
		switch {
		case !ok:
			t.Errorf("%s needs %s %s, which is neither applied with it nor optional", where, what, name)
		case key != "" && keys != nil && !keys[key]:
			t.Errorf("%s needs key %s of %s %s, which it lacks", where, key, what, name)
		}
	}
	for _, v := range spec.Volumes {
		if s := v.Secret; s != nil {
			need("Secret", secrets, s.SecretName, "", s.Optional)
		}
		if c := v.ConfigMap; c != nil {
			need("ConfigMap", configMaps, c.Name, "", c.Optional)
		}
	}
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil {
				need("Secret", secrets, r.Name, r.Key, r.Optional)
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil {
				need("ConfigMap", configMaps, r.Name, r.Key, r.Optional)
			}
		}
		for _, e := range c.EnvFrom {
			if r := e.SecretRef; r != nil {
				need("Secret", secrets, r.Name, "", r.Optional)
			}
			if r := e.ConfigMapRef; r != nil {
				need("ConfigMap", configMaps, r.Name, "", r.Optional)
			}
		}
		ports := map[string]bool{}
		for _, p := range c.Ports {
			ports[p.Name] = true
		}
		gateway := strings.HasPrefix(c.Image, "v2bridge:") || c.Image == "v2bridge"
		if gateway {
			if !slices.Contains(tags, c.Image) || strings.HasSuffix(c.Image, ":latest") || !strings.Contains(c.Image, ":") {
				t.Errorf("%s: image %s is not a pinned tag `make docker` builds (%s)", where, c.Image, strings.Join(tags, ", "))
			}
		} else if i := strings.LastIndex(c.Image, ":"); i < 0 || c.Image[i+1:] == "latest" {
			t.Errorf("%s: image %s has no pinned tag", where, c.Image)
		}
		for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
			if p == nil {
				continue
			}
			if h := p.HTTPGet; h != nil {
				if gateway && h.Path != "/healthz" && h.Path != "/readyz" {
					t.Errorf("%s: probe path %s is not /healthz or /readyz", where, h.Path)
				}
				if h.Port.StrVal != "" && !ports[h.Port.StrVal] {
					t.Errorf("%s: probe port %s is not a port of the container", where, h.Port.StrVal)
				}
			}
			if s := p.TCPSocket; s != nil && s.Port.StrVal != "" && !ports[s.Port.StrVal] {
				t.Errorf("%s: probe port %s is not a port of the container", where, s.Port.StrVal)
			}
		}
		if gateway && c.Lifecycle != nil {
			for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PreStop, c.Lifecycle.PostStart} {
				if h != nil && h.Exec != nil && strings.Contains(runtime, "distroless") &&
					(len(h.Exec.Command) == 0 || h.Exec.Command[0] != "/v2bridge") {
					t.Errorf("%s: lifecycle hook runs %v, but the image (%s) holds only /v2bridge", where, h.Exec.Command, runtime)
				}
			}
		}
	}
}

// The sleep action of preStop needs Kubernetes 1.30 or later; the deployment says so
// where it uses it.
func TestKubernetesPreStopStatesItsVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("k8s", "base", "deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var dep appsv1.Deployment
	if err := yaml.UnmarshalStrict(b, &dep); err != nil {
		t.Fatal(err)
	}
	c := dep.Spec.Template.Spec.Containers[0]
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil &&
		!strings.Contains(string(b), "Kubernetes 1.30 or later") {
		t.Error("deployment.yaml uses the preStop sleep action without saying it needs Kubernetes 1.30 or later")
	}
}
