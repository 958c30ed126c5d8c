package randomized

import (
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// Sizes of the large cases.
const (
	manyLabels            = 1100
	manyAnnotations       = 2000
	annotationValueLength = 80
	manySettings          = 300
	bigSettingBytes       = 100 << 10
	manyVariables         = 1000
	longPlan              = 100
)

// manyLabelsMap returns n distinct valid labels (prefixed keys, values of up to 63 characters).
func (r rng) manyLabelsMap(n int) map[string]string {
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		m[fmt.Sprintf("l%d.example.com/label-%04d", i%7, i)] = fmt.Sprintf("value-%04d-%s", i, r.from(alnum, 8))
	}
	return m
}

// manyAnnotationsMap returns n annotations of about 112 bytes each (key + value): 2,000 of them are about 220 KB,
// inside the API server's 256 KiB limit on the total size of an object's annotations.
func (r rng) manyAnnotationsMap(n int) map[string]string {
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		m[fmt.Sprintf("annotations.example.com/note-%04d", i)] = r.from(alnumMix+" .,:-", annotationValueLength)
	}
	return m
}

// metas returns the metadata of the typed objects a request embeds (Cluster, Machines, MachineSets).
func metas(req runtime.Object) []*metav1.ObjectMeta {
	switch x := req.(type) {
	case *runtimehooksv1.BeforeClusterCreateRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.AfterControlPlaneInitializedRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.BeforeClusterUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.BeforeControlPlaneUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.AfterControlPlaneUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.BeforeWorkersUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.AfterWorkersUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.AfterClusterUpgradeRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.BeforeClusterDeleteRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.GenerateUpgradePlanRequest:
		return []*metav1.ObjectMeta{&x.Cluster.ObjectMeta}
	case *runtimehooksv1.CanUpdateMachineRequest:
		return []*metav1.ObjectMeta{&x.Current.Machine.ObjectMeta, &x.Desired.Machine.ObjectMeta}
	case *runtimehooksv1.UpdateMachineRequest:
		return []*metav1.ObjectMeta{&x.Desired.Machine.ObjectMeta}
	case *runtimehooksv1.CanUpdateMachineSetRequest:
		return []*metav1.ObjectMeta{&x.Current.MachineSet.ObjectMeta, &x.Desired.MachineSet.ObjectMeta}
	}
	return nil
}

// clusterOf returns the Cluster of a request, if it has one.
func clusterOf(req runtime.Object) *clusterv1.Cluster {
	switch x := req.(type) {
	case *runtimehooksv1.BeforeClusterCreateRequest:
		return &x.Cluster
	case *runtimehooksv1.AfterControlPlaneInitializedRequest:
		return &x.Cluster
	case *runtimehooksv1.BeforeClusterUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.BeforeControlPlaneUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.AfterControlPlaneUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.BeforeWorkersUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.AfterWorkersUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.AfterClusterUpgradeRequest:
		return &x.Cluster
	case *runtimehooksv1.BeforeClusterDeleteRequest:
		return &x.Cluster
	case *runtimehooksv1.GenerateUpgradePlanRequest:
		return &x.Cluster
	}
	return nil
}

// topologyOf returns the global variables and the items (object, variables) of a topology mutation request.
func topologyOf(req runtime.Object) (*[]runtimehooksv1.Variable, []*runtime.RawExtension, []*[]runtimehooksv1.Variable) {
	var objects []*runtime.RawExtension
	var itemVariables []*[]runtimehooksv1.Variable
	switch x := req.(type) {
	case *runtimehooksv1.GeneratePatchesRequest:
		for i := range x.Items {
			objects = append(objects, &x.Items[i].Object)
			itemVariables = append(itemVariables, &x.Items[i].Variables)
		}
		return &x.Variables, objects, itemVariables
	case *runtimehooksv1.ValidateTopologyRequest:
		for _, it := range x.Items {
			objects = append(objects, &it.Object)
			itemVariables = append(itemVariables, &it.Variables)
		}
		return &x.Variables, objects, itemVariables
	}
	return nil, nil, nil
}

// setTemplateMeta sets labels or annotations in the metadata of a raw template object.
func setTemplateMeta(obj *runtime.RawExtension, field string, values map[string]string) error {
	var m map[string]any
	if err := json.Unmarshal(obj.Raw, &m); err != nil {
		return err
	}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[field] = values
	m["metadata"] = meta
	obj.Raw = mustJSON(m)
	return nil
}

// setBuiltinClusterMeta sets the cluster labels or annotations in the global `builtin` variable (Cluster API copies
// the Cluster's labels and annotations there).
func setBuiltinClusterMeta(global []runtimehooksv1.Variable, field string, values map[string]string) error {
	for i := range global {
		if global[i].Name != runtimehooksv1.BuiltinsName {
			continue
		}
		var b runtimehooksv1.Builtins
		if err := json.Unmarshal(global[i].Value.Raw, &b); err != nil {
			return err
		}
		if b.Cluster == nil {
			b.Cluster = &runtimehooksv1.ClusterBuiltins{}
		}
		if b.Cluster.Metadata == nil {
			b.Cluster.Metadata = &runtimehooksv1.ObjectMeta{}
		}
		if field == "labels" {
			b.Cluster.Metadata.Labels = values
		} else {
			b.Cluster.Metadata.Annotations = values
		}
		global[i].Value = apiextensionsv1.JSON{Raw: mustJSON(b)}
	}
	return nil
}

// enlarge turns a random request into the named large case.
func (b *builder) enlarge(hook, name string, req runtime.Object) error {
	applies := false
	for _, n := range LargeCases(hook) {
		applies = applies || n == name
	}
	if !applies {
		return fmt.Errorf("case %q does not apply to hook %s (its large cases: %v)", name, hook, LargeCases(hook))
	}
	switch name {
	case LargeLabels, LargeAnnotations:
		field, values := "labels", b.r.manyLabelsMap(manyLabels)
		if name == LargeAnnotations {
			field, values = "annotations", b.r.manyAnnotationsMap(manyAnnotations)
		}
		for _, m := range metas(req) {
			if field == "labels" {
				m.Labels = values
			} else {
				m.Annotations = values
			}
		}
		if global, objects, _ := topologyOf(req); global != nil {
			if err := setBuiltinClusterMeta(*global, field, values); err != nil {
				return err
			}
			if err := setTemplateMeta(objects[0], field, values); err != nil {
				return err
			}
		}
	case LargeSettings, LargeSettingValue:
		settings := map[string]string{}
		if name == LargeSettings {
			for i := 0; i < manySettings; i++ {
				settings[fmt.Sprintf("setting-%03d", i)] = b.r.text(60)
			}
		} else {
			settings["extensionConfigName"] = "capi-interop"
			settings["bigSetting"] = longText(bigSettingBytes, b.r.dnsLabel(10))
		}
		req.(runtimehooksv1.RequestObject).SetSettings(settings)
	case LargeVariables:
		global, _, itemVariables := topologyOf(req)
		var builtin runtimehooksv1.Variable
		for _, v := range *global {
			if v.Name == runtimehooksv1.BuiltinsName {
				builtin = v
			}
		}
		*global = append(b.userVariables(manyVariables), builtin)
		first := *itemVariables[0]
		overrides := b.userVariables(manyVariables)
		for _, v := range first {
			if v.Name == runtimehooksv1.BuiltinsName {
				overrides = append(overrides, v)
			}
		}
		*itemVariables[0] = overrides
	case LargeTopologyVariables:
		c := clusterOf(req)
		c.Spec.Topology.Variables = nil
		for _, v := range b.userVariables(manyVariables) {
			c.Spec.Topology.Variables = append(c.Spec.Topology.Variables, clusterv1.ClusterVariable{Name: v.Name, Value: v.Value})
		}
	case LargeUpgradePlan:
		minor := b.r.between(20, 25)
		steps := stepInfos(versions(minor, longPlan))
		from := fmt.Sprintf("v1.%d.0", minor)
		to := steps[len(steps)-1].Version
		clusterOf(req).Spec.Topology.Version = to
		switch x := req.(type) {
		case *runtimehooksv1.BeforeClusterUpgradeRequest:
			x.FromKubernetesVersion, x.ToKubernetesVersion, x.ControlPlaneUpgrades, x.WorkersUpgrades = from, to, steps, steps
		case *runtimehooksv1.BeforeControlPlaneUpgradeRequest:
			x.FromKubernetesVersion, x.ToKubernetesVersion, x.ControlPlaneUpgrades, x.WorkersUpgrades = from, steps[0].Version, steps, steps
		case *runtimehooksv1.AfterControlPlaneUpgradeRequest:
			x.KubernetesVersion, x.ControlPlaneUpgrades, x.WorkersUpgrades = from, steps, steps
		case *runtimehooksv1.BeforeWorkersUpgradeRequest:
			x.FromKubernetesVersion, x.ToKubernetesVersion, x.ControlPlaneUpgrades, x.WorkersUpgrades = from, steps[0].Version, steps, steps
		case *runtimehooksv1.AfterWorkersUpgradeRequest:
			x.KubernetesVersion, x.ControlPlaneUpgrades, x.WorkersUpgrades = from, steps, steps
		}
	default:
		return fmt.Errorf("unknown case %q", name)
	}
	return nil
}
