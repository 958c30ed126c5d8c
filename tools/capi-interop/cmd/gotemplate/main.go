// Command gotemplate evaluates Cluster API's inline patch templates with Cluster API's own code, for the TypeScript
// engine in src/gotemplate to be compared with. It reads one JSON object per line on stdin:
//
//	{"template": "...", "variables": {"name": <JSON>, ...}, "mode": "render" | "value" | "enabled"}
//
// and prints one JSON line per case, in order:
//
//   - render: text/template with sprig.HermeticTxtFuncMap(), parsed as "tpl" and executed over the data Cluster API
//     builds from the variables (their JSON decoded into interface{}): {"output": "..."} or {"error": "..."};
//   - value: inline.NewGenerator(patch).Generate on a one-item request whose patch adds valueFrom.template:
//     {"value": <JSON>} (the value of the produced JSON patch operation) or {"error": "..."} (Generate's error);
//   - enabled: the same with the template as the patch's enabledIf and a constant value: {"enabled": bool} or
//     {"error": "..."}.
//
// A panic that escapes the code under test is reported as {"panic": "..."}. Exit code 0 once stdin is read, 1 when a
// line is not JSON or output fails.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/cluster-api/core/reconcilers/topology/cluster/patches/inline"
)

// Case is one input line.
type Case struct {
	Template  string                          `json:"template"`
	Variables map[string]apiextensionsv1.JSON `json:"variables"`
	Mode      string                          `json:"mode"`
}

// Result is one output line; exactly one field is set.
type Result struct {
	Output  *string          `json:"output,omitempty"`
	Value   *json.RawMessage `json:"value,omitempty"`
	Enabled *bool            `json:"enabled,omitempty"`
	Error   *string          `json:"error,omitempty"`
	Panic   *string          `json:"panic,omitempty"`
}

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

func run(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(line, &c); err != nil {
			fmt.Fprintln(stderr, "gotemplate: bad input line:", err)
			return 1
		}
		// Each answer is flushed at once: a case that crashes the process (a fatal error, not a panic) must not take
		// the answers before it along.
		if err := enc.Encode(evaluate(c)); err != nil {
			fmt.Fprintln(stderr, "gotemplate:", err)
			return 1
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintln(stderr, "gotemplate:", err)
			return 1
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(stderr, "gotemplate:", err)
		return 1
	}
	return 0
}

func evaluate(c Case) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprint(p)
			res = Result{Panic: &msg}
		}
	}()
	switch c.Mode {
	case "render":
		return render(c)
	case "value", "enabled":
		return generate(c)
	default:
		msg := fmt.Sprintf("unknown mode %q", c.Mode)
		return Result{Error: &msg}
	}
}

func errorResult(err error) Result {
	msg := err.Error()
	return Result{Error: &msg}
}

// render is text/template as renderValueTemplate runs it, without the YAML step and the error wrapping.
func render(c Case) Result {
	tpl, err := template.New("tpl").Funcs(sprig.HermeticTxtFuncMap()).Parse(c.Template)
	if err != nil {
		return errorResult(err)
	}
	// calculateTemplateData: the variables' JSON decoded into Go's generic types.
	raw, err := json.Marshal(c.Variables)
	if err != nil {
		return errorResult(err)
	}
	data := map[string]interface{}{}
	if err := json.Unmarshal(raw, &data); err != nil {
		return errorResult(err)
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, data); err != nil {
		return errorResult(err)
	}
	out := buf.String()
	return Result{Output: &out}
}

const (
	templateAPIVersion = "infrastructure.cluster.x-k8s.io/v1beta1"
	templateKind       = "DockerClusterTemplate"
)

// generate runs Cluster API's inline patch generator on one InfrastructureClusterTemplate item whose one matching
// patch definition adds a value at /spec/template/spec/value.
func generate(c Case) Result {
	object := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": templateAPIVersion,
		"kind":       templateKind,
		"metadata":   map[string]interface{}{"name": "infra-cluster-template", "namespace": "default"},
		"spec":       map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{}}},
	}}
	req := &runtimehooksv1.GeneratePatchesRequest{
		Items: []runtimehooksv1.GeneratePatchesRequestItem{{
			UID:             "item-uid",
			HolderReference: runtimehooksv1.HolderReference{APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: "default", Name: "cluster", FieldPath: "spec.infrastructureRef"},
			Object:          runtime.RawExtension{Object: object},
		}},
	}
	for name, value := range c.Variables {
		req.Variables = append(req.Variables, runtimehooksv1.Variable{Name: name, Value: value})
	}
	jsonPatch := clusterv1.JSONPatch{Op: "add", Path: "/spec/template/spec/value"}
	patch := &clusterv1.ClusterClassPatch{Name: "patch"}
	if c.Mode == "value" {
		jsonPatch.ValueFrom = &clusterv1.JSONPatchValue{Template: c.Template}
	} else {
		jsonPatch.Value = &apiextensionsv1.JSON{Raw: []byte(`"enabled"`)}
		patch.EnabledIf = c.Template
	}
	patch.Definitions = []clusterv1.PatchDefinition{{
		Selector:    clusterv1.PatchSelector{APIVersion: templateAPIVersion, Kind: templateKind, MatchResources: clusterv1.PatchSelectorMatch{InfrastructureCluster: ptr.To(true)}},
		JSONPatches: []clusterv1.JSONPatch{jsonPatch},
	}}
	resp, err := inline.NewGenerator(patch).Generate(context.Background(), object, req)
	if err != nil {
		return errorResult(err)
	}
	if c.Mode == "enabled" {
		enabled := len(resp.Items) > 0
		return Result{Enabled: &enabled}
	}
	if len(resp.Items) != 1 {
		return errorResult(fmt.Errorf("gotemplate: expected one response item, got %d", len(resp.Items)))
	}
	var ops []struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(resp.Items[0].Patch, &ops); err != nil || len(ops) != 1 {
		return errorResult(fmt.Errorf("gotemplate: unexpected patch %s (%v)", resp.Items[0].Patch, err))
	}
	value := ops[0].Value
	if value == nil {
		value = json.RawMessage("null")
	}
	return Result{Value: &value}
}
