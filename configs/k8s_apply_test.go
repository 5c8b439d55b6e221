package configs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

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

// readFolder decodes every document of the .yaml, .yml and .json files directly in dir
// (not its sub-folders), as `kubectl apply -f dir` reads them.
func readFolder(t *testing.T, dir string) []manifest {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []manifest
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
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
				t.Errorf("%s: kind %s is not one the manifests use (kubectl apply -f reads every file of the folder)", file, kind)
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
		tags = append(tags, string(m[1]))
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

// `kubectl apply -f configs/k8s/` and then `kubectl apply -f configs/k8s/fleet/` start
// pods on a cluster as they are: every Secret and ConfigMap a pod needs is in the
// folders applied so far or marked optional, the gateway's image is one `make docker`
// tags, the probes ask the gateway's health endpoints on a port the container declares,
// and no lifecycle hook runs a program the distroless image lacks.
func TestKubernetesFoldersApplyAsTheyAre(t *testing.T) {
	tags, runtime := dockerTags(t)
	var applied []manifest
	for _, dir := range []string{"k8s", filepath.Join("k8s", "fleet")} {
		applied = append(applied, readFolder(t, dir)...)
		secrets, configMaps := map[string]map[string]bool{}, map[string]map[string]bool{}
		labels := map[string]map[string]string{} // deployment → pod labels
		for _, m := range applied {
			switch o := m.obj.(type) {
			case *corev1.Secret:
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
		for _, m := range applied {
			switch o := m.obj.(type) {
			case *appsv1.Deployment:
				checkPodSpec(t, dir, m, o.Spec.Template.Spec, secrets, configMaps, tags, runtime)
			case *corev1.Service:
				if !selects(labels, o.Spec.Selector) {
					t.Errorf("%s: service %s selects no deployment's pods", dir, m.name)
				}
			}
		}
	}
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
		case key != "" && !keys[key]:
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
			if !slices.Contains(tags, c.Image) {
				t.Errorf("%s: image %s is not a tag `make docker` builds (%s)", where, c.Image, strings.Join(tags, ", "))
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
	b, err := os.ReadFile(filepath.Join("k8s", "deployment.yaml"))
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
