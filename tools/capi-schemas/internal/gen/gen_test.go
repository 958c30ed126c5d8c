package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// committed is the generated file, relative to this package's directory.
var committed = filepath.Join("..", "..", "..", "..", "hooks", "v1alpha1", "definitions.json")

const regenerate = "run `bin=$(tools/build.sh capi-schemas) && \"$bin/schemas\" -o hooks/v1alpha1/definitions.json` " +
	"from the repository root (tools/build.sh capi-schemas builds the command and prints its directory as its last line)"

// generated runs the generator once for all tests of the package.
var generated = sync.OnceValues(func() ([]byte, error) { return Generate() })

func generatedDoc(t *testing.T) map[string]any {
	t.Helper()
	raw, err := generated()
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("decoding the generated document: %v", err)
	}
	return doc
}

func TestCommittedFileIsUpToDate(t *testing.T) {
	raw, err := generated()
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	have, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("hooks/v1alpha1/definitions.json: %v; %s", err, regenerate)
	}
	if !bytes.Equal(have, raw) {
		t.Fatalf("hooks/v1alpha1/definitions.json is stale: %s\nfirst difference: %s", regenerate, firstDifference(have, raw))
	}
}

func firstDifference(have, want []byte) string {
	h, w := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(h), len(w)) {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return fmt.Sprintf("line %d: committed %q, generated %q", i+1, hl, wl)
		}
	}
	return "none"
}

func TestDocumentShape(t *testing.T) {
	doc := generatedDoc(t)
	defs := doc["definitions"].(map[string]any)

	hooks := doc["hooks"].([]any)
	var names []string
	for _, h := range hooks {
		h := h.(map[string]any)
		names = append(names, h["hook"].(string))
		for _, k := range []string{"request", "response"} {
			if _, ok := defs[h[k].(string)]; !ok {
				t.Errorf("hook %s: %s %s has no definition", h["hook"], k, h[k])
			}
		}
	}
	for _, want := range []string{"BeforeClusterCreate", "Discovery", "GeneratePatches", "DiscoverVariables", "UpdateMachine"} {
		if !slices.Contains(names, want) {
			t.Errorf("hook %s is missing from %v", want, names)
		}
	}
	if _, ok := defs[doc["builtins"].(string)]; !ok {
		t.Errorf("builtins %s has no definition", doc["builtins"])
	}

	// Every $ref resolves, and only appears as a bare {"$ref"}.
	for name, d := range defs {
		_ = walkMap(d.(map[string]any), func(n map[string]any) error {
			if ref, ok := n["$ref"].(string); ok {
				if len(n) != 1 {
					t.Errorf("%s: $ref %s has siblings %v", name, ref, n)
				}
				if _, ok := defs[strings.TrimPrefix(ref, refPrefix)]; !ok || !strings.HasPrefix(ref, refPrefix) {
					t.Errorf("%s: dangling $ref %s", name, ref)
				}
			}
			return nil
		})
	}

	objectMeta := defs["k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"].(map[string]any)
	props := objectMeta["properties"].(map[string]any)
	for _, p := range []string{"name", "generateName", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
		"deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields"} {
		if _, ok := props[p]; !ok {
			t.Errorf("ObjectMeta lacks %s", p)
		}
	}

	check := func(def, prop string, wantRequired, wantNullable bool) {
		t.Helper()
		d, ok := defs[def].(map[string]any)
		if !ok {
			t.Errorf("no definition %s", def)
			return
		}
		p, ok := d["properties"].(map[string]any)[prop].(map[string]any)
		if !ok {
			t.Errorf("%s has no property %s", def, prop)
			return
		}
		var required []string
		for _, r := range asList(d["required"]) {
			required = append(required, r.(string))
		}
		if got := slices.Contains(required, prop); got != wantRequired {
			t.Errorf("%s.%s: required %v, want %v", def, prop, got, wantRequired)
		}
		if got := p["nullable"] == true; got != wantNullable {
			t.Errorf("%s.%s: nullable %v, want %v (%v)", def, prop, got, wantNullable, p)
		}
	}
	const hooksPrefix = "sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1."
	const corePrefix = "sigs.k8s.io.cluster-api.api.core.v1beta2."
	check(hooksPrefix+"BeforeClusterCreateRequest", "cluster", true, false)
	check(hooksPrefix+"BeforeClusterCreateRequest", "settings", false, false)
	check(hooksPrefix+"BeforeClusterCreateRequest", "kind", false, false)
	check(hooksPrefix+"BeforeClusterCreateResponse", "retryAfterSeconds", true, false)
	check(hooksPrefix+"BeforeClusterCreateResponse", "status", true, false)
	check(hooksPrefix+"GeneratePatchesRequestItem", "object", true, true)
	check(hooksPrefix+"GeneratePatchesRequestItem", "variables", false, false)
	check(hooksPrefix+"GeneratePatchesRequest", "items", true, true)
	check(hooksPrefix+"Variable", "value", true, true)
	check(corePrefix+"Cluster", "metadata", true, false) // metav1.ObjectMeta `json:"metadata,omitempty"`: a struct
	check(corePrefix+"Cluster", "spec", false, false)    // omitzero
	check("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", "creationTimestamp", false, false)
	check("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", "deletionTimestamp", false, false)
	check("k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference", "uid", true, false)
	check("k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry", "time", false, false)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// committedTemplates is the generated templates document, relative to this package's directory.
var committedTemplates = filepath.Join("..", "..", "..", "..", "hooks", "v1alpha1", "templates.json")

func TestCommittedTemplatesAreUpToDate(t *testing.T) {
	raw, err := GenerateTemplates()
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	have, err := os.ReadFile(committedTemplates)
	regenerate := "run `bin=$(tools/build.sh capi-schemas) && \"$bin/schemas\" -set templates -o hooks/v1alpha1/templates.json` from the repository root"
	if err != nil {
		t.Fatalf("hooks/v1alpha1/templates.json: %v; %s", err, regenerate)
	}
	if !bytes.Equal(have, raw) {
		t.Fatalf("hooks/v1alpha1/templates.json is stale: %s\nfirst difference: %s", regenerate, firstDifference(have, raw))
	}
	var doc struct {
		Templates []struct {
			APIVersion, Kind, Definition string
		}
		Definitions map[string]map[string]any
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Templates) != len(TemplateKinds()) {
		t.Errorf("%d templates, want %d", len(doc.Templates), len(TemplateKinds()))
	}
	for _, k := range doc.Templates {
		def, ok := doc.Definitions[k.Definition]
		if !ok {
			t.Errorf("%s: no definition %s", k.Kind, k.Definition)
			continue
		}
		if _, ok := def["properties"].(map[string]any)["spec"]; !ok {
			t.Errorf("%s has no spec", k.Kind)
		}
	}
}

// committedCRDs is the generated CRDs document, relative to this package's directory.
var committedCRDs = filepath.Join("..", "..", "..", "..", "hooks", "v1alpha1", "crds.json")

func TestCommittedCRDsAreUpToDate(t *testing.T) {
	raw, err := GenerateCRDs()
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	have, err := os.ReadFile(committedCRDs)
	regenerate := "run `bin=$(tools/build.sh capi-schemas) && \"$bin/schemas\" -set crds -o hooks/v1alpha1/crds.json` from the repository root"
	if err != nil {
		t.Fatalf("hooks/v1alpha1/crds.json: %v; %s", err, regenerate)
	}
	if !bytes.Equal(have, raw) {
		t.Fatalf("hooks/v1alpha1/crds.json is stale: %s\nfirst difference: %s", regenerate, firstDifference(have, raw))
	}
	var doc struct {
		CRDs []struct{ APIVersion, Kind string } `json:"crds"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range doc.CRDs {
		kinds[c.Kind] = true
	}
	for _, want := range []string{"Cluster", "ClusterClass", "KubeadmControlPlaneTemplate", "KubeadmConfigTemplate", "DevClusterTemplate", "DevMachineTemplate"} {
		if !kinds[want] {
			t.Errorf("the CRDs document has no %s", want)
		}
	}
}
