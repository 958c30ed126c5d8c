package gen

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	// Keeps sigs.k8s.io/cluster-api (the module shipping the CRD yaml files compared
	// against below) in go.mod, go.sum and the module cache.
	_ "sigs.k8s.io/cluster-api/util/contract"
)

// capiModuleDir is the module cache directory of sigs.k8s.io/cluster-api.
func capiModuleDir(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-json", "sigs.k8s.io/cluster-api")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m -json sigs.k8s.io/cluster-api: %v", err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go list -m -json sigs.k8s.io/cluster-api: %v", err)
	}
	if mod.Dir == "" {
		t.Fatalf("sigs.k8s.io/cluster-api %s is not in the module cache; run `go mod download sigs.k8s.io/cluster-api` in tools/capi-schemas", mod.Version)
	}
	return mod.Dir
}

// crdSchema returns the openAPIV3Schema of the given version of a CRD file.
func crdSchema(t *testing.T, file, version string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				}
			}
		}
	}
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Schema.OpenAPIV3Schema
		}
	}
	t.Fatalf("%s has no version %s", file, version)
	return nil
}

// TestAgainstClusterAPICRDs compares each Cluster API kind in the document with the
// v1beta2 schema of the CRD that Cluster API ships for it.
func TestAgainstClusterAPICRDs(t *testing.T) {
	doc := generatedDoc(t)
	defs := doc["definitions"].(map[string]any)
	bases := filepath.Join(capiModuleDir(t), "core", "config", "crd", "bases")
	for _, kind := range []struct{ file, def string }{
		{"cluster.x-k8s.io_clusters.yaml", "Cluster"},
		{"cluster.x-k8s.io_clusterclasses.yaml", "ClusterClass"},
		{"cluster.x-k8s.io_machines.yaml", "Machine"},
		{"cluster.x-k8s.io_machinesets.yaml", "MachineSet"},
		{"cluster.x-k8s.io_machinedeployments.yaml", "MachineDeployment"},
		{"cluster.x-k8s.io_machinepools.yaml", "MachinePool"},
	} {
		t.Run(kind.def, func(t *testing.T) {
			name := "sigs.k8s.io.cluster-api.api.core.v1beta2." + kind.def
			def, ok := defs[name].(map[string]any)
			if !ok {
				t.Fatalf("no definition %s", name)
			}
			c := &comparison{defs: defs}
			c.compare("", crdSchema(t, filepath.Join(bases, kind.file), "v1beta2"), def)
			if len(c.diffs) > 0 {
				t.Errorf("definition %s differs from %s (v1beta2) at %d paths:\n  %s",
					name, kind.file, len(c.diffs), strings.Join(c.diffs, "\n  "))
			}
			t.Logf("compared %d schema nodes of %s with %s", c.nodes, name, kind.file)
			if c.nodes < 50 {
				t.Errorf("only %d schema nodes compared", c.nodes)
			}
		})
	}
}

type comparison struct {
	defs  map[string]any
	diffs []string
	nodes int
}

func (c *comparison) errorf(path, format string, args ...any) {
	if path == "" {
		path = "."
	}
	c.diffs = append(c.diffs, path+": "+fmt.Sprintf(format, args...))
}

// deref resolves a {"$ref"} or {"allOf": [{"$ref"}], field keywords...} node into one merged schema.
func (c *comparison) deref(n map[string]any) map[string]any {
	out := map[string]any{}
	var ref string
	if r, ok := n["$ref"].(string); ok {
		ref = r
	} else if all, ok := n["allOf"].([]any); ok && len(all) == 1 {
		if r, ok := all[0].(map[string]any)["$ref"].(string); ok {
			ref = r
		}
	}
	if ref != "" {
		maps.Copy(out, c.deref(c.defs[strings.TrimPrefix(ref, refPrefix)].(map[string]any)))
	}
	for k, v := range n {
		if k == "$ref" || (k == "allOf" && ref != "") {
			continue
		}
		out[k] = v
	}
	return out
}

// compared recursively rather than by value, or not at all.
var structural = map[string]bool{
	"properties": true, "items": true, "additionalProperties": true,
	"required": true, "x-kubebuilder-required": true,
	"nullable": true, // ours records the Go encoding (see "conventions"); the CRDs don't use it
}

func (c *comparison) compare(path string, crd, ours map[string]any) {
	c.nodes++
	ours = c.deref(ours)
	keys := map[string]bool{}
	for k := range crd {
		keys[k] = true
	}
	for k := range ours {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if structural[k] {
			continue
		}
		cv, cok := crd[k]
		ov, ook := ours[k]
		switch {
		case !ook:
			c.errorf(path, "%s is %s in the CRD, missing in ours", k, short(cv))
		case !cok:
			c.errorf(path, "%s is %s in ours, missing in the CRD", k, short(ov))
		case !reflect.DeepEqual(cv, ov):
			c.errorf(path, "%s is %s in the CRD, %s in ours", k, short(cv), short(ov))
		}
	}

	if cr, or := stringSet(crd["required"]), stringSet(ours["x-kubebuilder-required"]); !slices.Equal(cr, or) {
		c.errorf(path, "required is %v in the CRD, x-kubebuilder-required is %v in ours", cr, or)
	}

	cp, _ := crd["properties"].(map[string]any)
	op, _ := ours["properties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(cp)) {
		sub := path + "." + p
		if path == "" && p == "metadata" {
			// The CRD holds {type: object}; ours is the full ObjectMeta.
			continue
		}
		o, ok := op[p].(map[string]any)
		if !ok {
			c.errorf(sub, "property missing in ours")
			continue
		}
		c.compare(sub, cp[p].(map[string]any), o)
	}
	for _, p := range slices.Sorted(maps.Keys(op)) {
		if _, ok := cp[p]; !ok {
			c.errorf(path+"."+p, "property missing in the CRD")
		}
	}

	for _, k := range []string{"items", "additionalProperties"} {
		cs, cok := crd[k].(map[string]any)
		osch, ook := ours[k].(map[string]any)
		switch {
		case cok && ook:
			c.compare(path+"."+k, cs, osch)
		case !reflect.DeepEqual(crd[k], ours[k]):
			c.errorf(path, "%s is %s in the CRD, %s in ours", k, short(crd[k]), short(ours[k]))
		}
	}
}

func stringSet(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		out = append(out, e.(string))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// TestComparisonReportsDrift makes sure the comparison above is not vacuous.
func TestComparisonReportsDrift(t *testing.T) {
	crd := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a": map[string]any{"type": "string", "maxLength": float64(3)},
			"b": map[string]any{"type": "string"},
			"d": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"x", "y"}}},
		},
		"required": []any{"a", "b"},
	}
	defs := map[string]any{
		"X": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"a": map[string]any{"allOf": []any{map[string]any{"$ref": refPrefix + "S"}}, "maxLength": float64(4)},
				"c": map[string]any{"type": "string"},
				"d": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"x"}}},
			},
			"required":               []any{"a", "c"},
			"x-kubebuilder-required": []any{"a"},
		},
		"S": map[string]any{"type": "string"},
	}
	c := &comparison{defs: defs}
	c.compare("", crd, defs["X"].(map[string]any))
	want := []string{
		`.: required is [a b] in the CRD, x-kubebuilder-required is [a] in ours`,
		`.a: maxLength is 3 in the CRD, 4 in ours`,
		`.b: property missing in ours`,
		`.d.items: enum is ["x","y"] in the CRD, ["x"] in ours`,
		`.c: property missing in the CRD`,
	}
	if !slices.Equal(c.diffs, want) {
		t.Errorf("diffs:\n  %s\nwant:\n  %s", strings.Join(c.diffs, "\n  "), strings.Join(want, "\n  "))
	}
}
