// Package walk runs one set of topology mutations with Cluster API's own toolkit (exp/runtime/topologymutation's
// WalkTemplates and variable getters), reads variables with its getters, and applies GeneratePatches answers to a
// request's templates the way Cluster API's patch engine does. test/interop/topology.test.ts writes the same
// mutations with runtime-sdk/topology and compares (test/helpers/topology-mutations.ts): change one, change both.
package walk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	bootstrapv1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta2"
	controlplanev1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/cluster-api/exp/runtime/topologymutation"
	infrav1 "sigs.k8s.io/cluster-api/test/infrastructure/docker/api/v1beta2"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
)

// VersionLabel is the label the mutations put on DevMachineTemplates' machines.
const VersionLabel = "example.com/kubernetes-version"

// GeneratePatches answers a request with WalkTemplates and the mutations, in the given patch format.
func GeneratePatches(req *runtimehooksv1.GeneratePatchesRequest, format runtimehooksv1.PatchType) *runtimehooksv1.GeneratePatchesResponse {
	decoder := serializer.NewCodecFactory(randomized.TopologyScheme()).UniversalDeserializer()
	resp := &runtimehooksv1.GeneratePatchesResponse{}
	topologymutation.WalkTemplates(context.Background(), decoder, req, resp, mutate, topologymutation.PatchFormat{Format: format})
	return resp
}

// optional reads a variable with a getter; not found is the zero value, any other error is returned.
func optional[T any](get func(map[string]apiextensionsv1.JSON, string) (T, error), vars map[string]apiextensionsv1.JSON, name string) (T, bool, error) {
	v, err := get(vars, name)
	if topologymutation.IsNotFoundError(err) {
		var zero T
		return zero, false, nil
	}
	return v, err == nil, err
}

type file struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// version is the Kubernetes version of the control plane, MachineDeployment or MachinePool of a template.
func version(vars map[string]apiextensionsv1.JSON) (string, bool, error) {
	for _, path := range []string{"builtin.controlPlane.version", "builtin.machineDeployment.version", "builtin.machinePool.version"} {
		v, ok, err := optional(topologymutation.GetStringVariable, vars, path)
		if err != nil || ok {
			return v, ok, err
		}
	}
	return "", false, nil
}

func setArg(args []bootstrapv1.Arg, name, value string) []bootstrapv1.Arg {
	var out []bootstrapv1.Arg
	for _, a := range args {
		if a.Name != name {
			out = append(out, a)
		}
	}
	return append(out, bootstrapv1.Arg{Name: name, Value: &value})
}

// mutate adds, replaces and removes fields, list items and map keys (with "/" and "~"), and creates nested objects,
// from the variables; DevClusterTemplates are left unchanged.
func mutate(_ context.Context, obj runtime.Object, vars map[string]apiextensionsv1.JSON, holder runtimehooksv1.HolderReference) error {
	content, hasContent, err := optional(topologymutation.GetStringVariable, vars, randomized.ContentVariable)
	if err != nil {
		return err
	}
	flag, _, err := optional(topologymutation.GetBoolVariable, vars, randomized.FlagVariable)
	if err != nil {
		return err
	}
	v, hasVersion, err := version(vars)
	if err != nil {
		return err
	}
	switch o := obj.(type) {
	case *controlplanev1.KubeadmControlPlaneTemplate:
		spec := &o.Spec.Template.Spec.KubeadmConfigSpec
		var files []file
		if err := topologymutation.GetObjectVariableInto(vars, randomized.FilesVariable, &files); err != nil && !topologymutation.IsNotFoundError(err) {
			return err
		}
		for _, f := range files {
			spec.Files = append(spec.Files, bootstrapv1.File{Path: f.Path, Content: f.Content, Owner: "root:root"})
		}
		if hasVersion {
			if o.Annotations == nil {
				o.Annotations = map[string]string{}
			}
			o.Annotations["example.com/cp~version"] = v
		}
		if flag {
			spec.PreKubeadmCommands = nil
		} else if hasContent && len(spec.PreKubeadmCommands) > 0 {
			spec.PreKubeadmCommands[0] = content
		}
		spec.ClusterConfiguration.APIServer.ExtraArgs = append(spec.ClusterConfiguration.APIServer.ExtraArgs, bootstrapv1.Arg{Name: "v", Value: new("2")})
	case *bootstrapv1.KubeadmConfigTemplate:
		spec := &o.Spec.Template.Spec
		if hasContent {
			if o.Labels == nil {
				o.Labels = map[string]string{}
			}
			o.Labels["a/b~c"] = content
		}
		var commands []string
		if err := topologymutation.GetObjectVariableInto(vars, randomized.CommandsVariable, &commands); err != nil && !topologymutation.IsNotFoundError(err) {
			return err
		}
		spec.PreKubeadmCommands = append(spec.PreKubeadmCommands, commands...)
		if hasVersion {
			nr := &spec.JoinConfiguration.NodeRegistration
			nr.KubeletExtraArgs = setArg(nr.KubeletExtraArgs, "node-labels", "version="+strings.ReplaceAll(v, "+", "_"))
		}
	case *infrav1.DevMachineTemplate:
		if hasVersion {
			if o.Spec.Template.ObjectMeta.Labels == nil {
				o.Spec.Template.ObjectMeta.Labels = map[string]string{}
			}
			o.Spec.Template.ObjectMeta.Labels[VersionLabel] = v
		}
		if flag {
			o.Spec.Template.Spec.ProviderID = ""
		}
	case *infrav1.DevMachinePoolTemplate:
		if o.Spec.Template.ObjectMeta.Annotations == nil {
			o.Spec.Template.ObjectMeta.Annotations = map[string]string{}
		}
		o.Spec.Template.ObjectMeta.Annotations["example.com/holder"] = holder.Name
		delete(o.Spec.Template.ObjectMeta.Labels, "cluster.x-k8s.io/cluster-name")
	case *infrav1.DevClusterTemplate:
	default:
		return fmt.Errorf("unexpected %T", obj)
	}
	return nil
}

// Result is the outcome of one getter: the value (JSON), not found, or another error.
type Result struct {
	Value    json.RawMessage `json:"value,omitempty"`
	NotFound bool            `json:"notFound,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// Lookup is what GetVariable, GetStringVariable and GetBoolVariable say about one path of one item's variables.
type Lookup struct {
	Item   int    `json:"item"`
	Path   string `json:"path"`
	Get    Result `json:"get"`
	String Result `json:"string"`
	Bool   Result `json:"bool"`
}

// pointerIndex is the index Cluster API's "array does not have index %d" prints: the address of an *int.
var pointerIndex = regexp.MustCompile(`array does not have index \d+`)

func result[T any](v T, err error, raw func(T) []byte) Result {
	switch {
	case topologymutation.IsNotFoundError(err):
		return Result{NotFound: true}
	case err != nil:
		return Result{Error: pointerIndex.ReplaceAllString(err.Error(), "array does not have index (an address)")}
	}
	b := raw(v)
	if len(b) == 0 {
		b = []byte("null") // a top-level null is an empty apiextensionsv1.JSON
	}
	return Result{Value: b}
}

func marshal[T any](v T) []byte { b, _ := json.Marshal(v); return b }

// Lookups reads every path from each item's variables, merged as WalkTemplates merges them.
func Lookups(req *runtimehooksv1.GeneratePatchesRequest, paths func(map[string]apiextensionsv1.JSON) []string) ([]Lookup, error) {
	global := topologymutation.ToMap(req.Variables)
	var out []Lookup
	for i, item := range req.Items {
		vars, err := topologymutation.MergeVariableMaps(global, topologymutation.ToMap(item.Variables))
		if err != nil {
			return nil, err
		}
		for _, path := range paths(vars) {
			value, err := topologymutation.GetVariable(vars, path)
			l := Lookup{Item: i, Path: path, Get: result(value, err, func(v *apiextensionsv1.JSON) []byte { return v.Raw })}
			s, err := topologymutation.GetStringVariable(vars, path)
			l.String = result(s, err, marshal[string])
			b, err := topologymutation.GetBoolVariable(vars, path)
			l.Bool = result(b, err, marshal[bool])
			out = append(out, l)
		}
	}
	return out, nil
}

// Apply applies the items of an answer to the request's templates as Cluster API's patch engine does
// (applyPatchToRequest: RFC 6902 with evanphx/json-patch, empty patches skipped; RFC 7386 merge patches) and
// returns every template, patched or not, in the request's order.
func Apply(req *runtimehooksv1.GeneratePatchesRequest, resp *runtimehooksv1.GeneratePatchesResponse) ([]json.RawMessage, error) {
	templates := make([]json.RawMessage, len(req.Items))
	index := map[string]int{}
	for i, item := range req.Items {
		templates[i] = item.Object.Raw
		index[string(item.UID)] = i
	}
	for _, p := range resp.Items {
		i, ok := index[string(p.UID)]
		if !ok {
			return nil, fmt.Errorf("no request item with uid %q", p.UID)
		}
		var patched []byte
		var err error
		switch p.PatchType {
		case runtimehooksv1.JSONPatchType:
			var ops jsonpatch.Patch
			if ops, err = jsonpatch.DecodePatch(p.Patch); err == nil && len(ops) > 0 {
				patched, err = ops.Apply(templates[i])
			}
		case runtimehooksv1.JSONMergePatchType:
			if len(p.Patch) > 0 && string(p.Patch) != "{}" {
				patched, err = jsonpatch.MergePatch(templates[i], p.Patch)
			}
		default:
			err = errors.New("unknown patch type " + string(p.PatchType))
		}
		if err != nil {
			return nil, fmt.Errorf("item %s: %w", p.UID, err)
		}
		if patched != nil {
			templates[i] = patched
		}
	}
	return templates, nil
}
