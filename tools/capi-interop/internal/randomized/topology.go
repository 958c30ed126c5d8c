package randomized

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/randfill"

	bootstrapv1 "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta2"
	controlplanev1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	infrav1 "sigs.k8s.io/cluster-api/test/infrastructure/docker/api/v1beta2"
)

// TopologyScheme knows the template kinds of TopologyRequest: Cluster API's kubeadm templates and the in-memory
// provider's Dev* templates (v1beta2).
func TopologyScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{controlplanev1.AddToScheme, bootstrapv1.AddToScheme, infrav1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return scheme
}

// topologyTemplate is one typed template kind of TopologyRequest, with the holders that reference it.
type topologyTemplate struct {
	newObject func() runtime.Object
	holders   []holder
}

var topologyTemplates = []topologyTemplate{
	{func() runtime.Object { return &controlplanev1.KubeadmControlPlaneTemplate{} }, []holder{holders[1]}},
	{func() runtime.Object { return &bootstrapv1.KubeadmConfigTemplate{} }, []holder{holders[3], holders[5]}},
	{func() runtime.Object { return &infrav1.DevClusterTemplate{} }, []holder{holders[0]}},
	{func() runtime.Object { return &infrav1.DevMachineTemplate{} }, []holder{holders[2], holders[4]}},
	{func() runtime.Object { return &infrav1.DevMachinePoolTemplate{} }, []holder{holders[6]}},
}

// The variables TopologyRequest sets for the mutations of internal/walk to read (besides random ones).
const (
	ContentVariable  = "content"
	FlagVariable     = "flag"
	FilesVariable    = "files"
	CommandsVariable = "commands"
	LabelsVariable   = "labels"
)

// TopologyRequest returns a GeneratePatches request like Cluster API's patch engine sends: templates of the kinds
// of TopologyScheme filled at random from their Go types (and sometimes one of a kind it does not know), global
// variables with the cluster builtins, each template's variables with its builtins and sometimes values overriding
// the global ones (or a second cluster part, to exercise the merge of builtin). Every template is as Go marshals
// it, so decoding and marshalling it again (what WalkTemplates does) changes nothing.
func TopologyRequest(seed int64, name string) (*runtimehooksv1.GeneratePatchesRequest, error) {
	r := newRNG(seed, "topology", name)
	b := &builder{r: r, f: newFiller(r).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(g(c).pick("1", "250m", "2Gi", "100Mi", "3"))
		},
		// Decoding checks a bootstrap token's form.
		func(token *bootstrapv1.BootstrapTokenString, c randfill.Continue) {
			*token = bootstrapv1.BootstrapTokenString{ID: g(c).from(alnum, 6), Secret: g(c).from(alnum, 16)}
		},
	)}
	namespace := b.r.dnsLabel(63)
	req := &runtimehooksv1.GeneratePatchesRequest{Variables: append(b.topologyVariables(), b.builtin("cluster"))}
	for n := b.r.between(1, 6); n > 0; n-- {
		kind := topologyTemplates[b.r.Intn(len(topologyTemplates))]
		h := kind.holders[b.r.Intn(len(kind.holders))]
		raw, err := b.typedTemplate(kind.newObject(), namespace)
		if err != nil {
			return nil, err
		}
		if b.r.chance(0.1) {
			raw = mustJSON(b.template(infraGroup+"/v1beta2", "AWSMachineTemplate", b.r.dnsSubdomain(80), namespace))
		}
		item := runtimehooksv1.GeneratePatchesRequestItem{
			UID:             b.r.uuid(),
			HolderReference: runtimehooksv1.HolderReference{APIVersion: h.apiVersion, Kind: h.kind, Namespace: namespace, Name: b.r.dnsSubdomain(80), FieldPath: h.fieldPath},
			Object:          runtime.RawExtension{Raw: raw},
		}
		if h.builtin != "" {
			item.Variables = append(item.Variables, b.builtin(h.builtin))
		}
		if b.r.chance(0.2) {
			item.Variables = append(item.Variables, b.builtin("cluster"))
		}
		if b.r.chance(0.5) {
			item.Variables = append(item.Variables, b.topologyVariables()...)
		}
		req.Items = append(req.Items, item)
	}
	req.SetGroupVersionKind(runtimehooksv1.GroupVersion.WithKind("GeneratePatchesRequest"))
	return req, nil
}

// typedTemplate fills a template of a known kind and returns it as Go marshals it after one decode (a filled value
// can marshal a null that decoding drops, as the API server would have pruned it).
func (b *builder) typedTemplate(obj runtime.Object, namespace string) ([]byte, error) {
	b.f.Fill(obj)
	meta := obj.(interface{ SetNamespace(string) })
	meta.SetNamespace(namespace)
	scheme := TopologyScheme()
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	decoded, _, err := serializer.NewCodecFactory(scheme).UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(decoded)
}

// topologyVariables returns the variables the mutations read, each present or not, of the right type or (rarely)
// not, with random ones around them.
func (b *builder) topologyVariables() []runtimehooksv1.Variable {
	var out []runtimehooksv1.Variable
	add := func(name string, value any) {
		out = append(out, runtimehooksv1.Variable{Name: name, Value: apiextensionsv1.JSON{Raw: mustJSON(value)}})
	}
	wrongType := func() bool { return b.r.chance(0.03) }
	if b.r.chance(0.7) {
		if wrongType() {
			add(ContentVariable, b.r.Intn(10))
		} else {
			add(ContentVariable, b.r.text(30))
		}
	}
	if b.r.chance(0.6) {
		if wrongType() {
			add(FlagVariable, "true")
		} else {
			add(FlagVariable, b.r.chance(0.5))
		}
	}
	if b.r.chance(0.6) {
		files := []map[string]any{}
		for n := b.r.Intn(3); n > 0; n-- {
			file := map[string]any{"path": "/etc/" + b.r.dnsLabel(20)}
			if b.r.chance(0.7) {
				file["content"] = b.r.text(40)
			}
			files = append(files, file)
		}
		if wrongType() {
			add(FilesVariable, "not a list")
		} else {
			add(FilesVariable, files)
		}
	}
	if b.r.chance(0.5) {
		commands := []string{}
		for n := b.r.Intn(3); n > 0; n-- {
			commands = append(commands, b.r.text(30))
		}
		add(CommandsVariable, commands)
	}
	if b.r.chance(0.5) {
		labels := map[string]any{}
		for _, key := range []string{"a/b", "c~d", "e.f", "~1", b.r.dnsLabel(10)} {
			if b.r.chance(0.6) {
				labels[key] = b.r.jsonValue(1)
			}
		}
		add(LabelsVariable, labels)
	}
	if b.r.chance(0.3) {
		add("count", b.r.Intn(2)) // GetBoolVariable reads the JSON numbers 0 and 1 as booleans
	}
	out = append(out, b.userVariables(b.r.between(0, 2))...)
	return out
}

// TopologyCaseName names the i-th case of a run.
func TopologyCaseName(i int) string { return fmt.Sprintf("topology-%03d", i) }
