package randomized

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/randfill"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// MaxBodyBytes is Cluster API's bound on request and response bodies (20 MiB); every generated body stays under it.
const MaxBodyBytes = 20 << 20

// Case is one generated request of a hook.
type Case struct {
	Hook string
	// Name is "random-<index>" or the name of a large case (see LargeCases).
	Name string
	// Request has kind/apiVersion set like Cluster API's runtime client sets them.
	Request runtime.Object
}

var catalog = func() *runtimecatalog.Catalog {
	c := runtimecatalog.New()
	if err := runtimehooksv1.AddToCatalog(c); err != nil {
		panic(err)
	}
	return c
}()

// Large cases: valid requests with many or big values, one each per hook that has the field.
const (
	// LargeLabels: the Cluster (Machine, MachineSet; for the topology mutation hooks the builtin variable's
	// cluster metadata and a template) carries 1,100 labels.
	LargeLabels = "large-labels-1100"
	// LargeAnnotations: 2,000 annotations, about 220 KB: inside Kubernetes' 256 KiB total annotation size.
	LargeAnnotations = "large-annotations-2000"
	// LargeSettings: 300 settings.
	LargeSettings = "large-settings-300"
	// LargeSettingValue: one setting whose value is 100 KiB.
	LargeSettingValue = "large-setting-value-100KiB"
	// LargeVariables: GeneratePatches/ValidateTopology with 1,000 Cluster variables (the CRD's maximum of
	// spec.topology.variables), so 1,001 global variables once Cluster API appends `builtin`; the first template
	// also carries 1,000 overrides plus `builtin`.
	LargeVariables = "large-variables-1000"
	// LargeTopologyVariables: a Cluster whose spec.topology.variables holds 1,000 variables (the CRD's maximum).
	LargeTopologyVariables = "large-topology-variables-1000"
	// LargeUpgradePlan: controlPlaneUpgrades and workersUpgrades of 100 steps each.
	LargeUpgradePlan = "large-upgrade-plan-100"
)

// LargeCases lists the large cases that apply to a hook, in a fixed order.
func LargeCases(hook string) []string {
	var out []string
	objects := hasCluster(hook) || hook == "CanUpdateMachine" || hook == "CanUpdateMachineSet" || hook == "UpdateMachine" || isTopology(hook)
	if objects {
		out = append(out, LargeLabels, LargeAnnotations)
	}
	if hook != "Discovery" {
		out = append(out, LargeSettings, LargeSettingValue)
	}
	if isTopology(hook) {
		out = append(out, LargeVariables)
	}
	if hasCluster(hook) {
		out = append(out, LargeTopologyVariables)
	}
	if hasPlan(hook) {
		out = append(out, LargeUpgradePlan)
	}
	return out
}

func hasCluster(hook string) bool {
	switch hook {
	case "BeforeClusterCreate", "AfterControlPlaneInitialized", "BeforeClusterUpgrade", "BeforeControlPlaneUpgrade",
		"AfterControlPlaneUpgrade", "BeforeWorkersUpgrade", "AfterWorkersUpgrade", "AfterClusterUpgrade",
		"BeforeClusterDelete", "GenerateUpgradePlan":
		return true
	}
	return false
}

func hasPlan(hook string) bool {
	switch hook {
	case "BeforeClusterUpgrade", "BeforeControlPlaneUpgrade", "AfterControlPlaneUpgrade", "BeforeWorkersUpgrade", "AfterWorkersUpgrade":
		return true
	}
	return false
}

func isTopology(hook string) bool { return hook == "GeneratePatches" || hook == "ValidateTopology" }

// Requests returns perHook random requests of the hook (named random-000, random-001, ...) followed by its large
// cases. Each request depends only on (seed, hook, case name), so filtering hooks does not change the others.
func Requests(hook string, seed int64, perHook int) ([]Case, error) {
	var out []Case
	for i := 0; i < perHook; i++ {
		name := fmt.Sprintf("random-%03d", i)
		req, err := Request(hook, seed, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Case{Hook: hook, Name: name, Request: req})
	}
	for _, name := range LargeCases(hook) {
		req, err := Request(hook, seed, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Case{Hook: hook, Name: name, Request: req})
	}
	return out, nil
}

// Request returns one case of a hook: "random-<anything>" or a large case name.
func Request(hook string, seed int64, name string) (runtime.Object, error) {
	h, ok := samples.Lookup(hook)
	if !ok {
		return nil, fmt.Errorf("unknown hook %q", hook)
	}
	r := newRNG(seed, "request", hook, name)
	b := &builder{r: r, f: newFiller(r)}
	req := b.request(hook)
	if !strings.HasPrefix(name, "random-") {
		if err := b.enlarge(hook, name, req); err != nil {
			return nil, err
		}
	}
	gvk, err := catalog.Request(h.GVH())
	if err != nil {
		return nil, err
	}
	req.GetObjectKind().SetGroupVersionKind(gvk)
	return req, nil
}

// Marshal encodes a request like Cluster API's runtime client (encoding/json).
func Marshal(req runtime.Object) ([]byte, error) { return json.Marshal(req) }

type builder struct {
	r rng
	f *randfill.Filler
}

func (b *builder) settings() map[string]string {
	if b.r.chance(0.3) {
		return nil
	}
	n := b.r.between(1, 6)
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		key := b.r.pick("extensionConfigName", "defaultAllHandlersToBlocking", "region", b.r.variableName(), "example.com/"+b.r.labelName(), b.r.text(30))
		m[key] = b.r.text(80)
	}
	return m
}

func (b *builder) common() runtimehooksv1.CommonRequest {
	return runtimehooksv1.CommonRequest{Settings: b.settings()}
}

// cluster returns a Cluster like Cluster API's cleanupCluster sends it: TypeMeta set, no managedFields, no status,
// always a managed topology (the hooks are only called for those).
func (b *builder) cluster() clusterv1.Cluster {
	c := clusterv1.Cluster{TypeMeta: metav1.TypeMeta{Kind: "Cluster", APIVersion: clusterv1.GroupVersion.String()}}
	b.f.Fill(&c.ObjectMeta)
	b.f.Fill(&c.Spec)
	if b.r.chance(0.5) {
		c.Labels = mergeMaps(c.Labels, map[string]string{"cluster.x-k8s.io/cluster-name": c.Name, "topology.cluster.x-k8s.io/owned": ""})
	}
	return c
}

// upgradingCluster returns a Cluster in the middle of an upgrade with its plan: topology.version is the target.
func (b *builder) upgradingCluster() (c clusterv1.Cluster, from string, steps []string) {
	c = b.cluster()
	from, steps = b.plan()
	c.Spec.Topology.Version = steps[len(steps)-1]
	return c, from, steps
}

// plan returns a current version and the remaining upgrade steps (strictly increasing, one per minor).
func (b *builder) plan() (from string, steps []string) {
	minor := b.r.between(26, 32)
	return fmt.Sprintf("v1.%d.%d", minor, b.r.between(0, 9)), versions(minor, b.r.between(1, 4))
}

func stepInfos(versions []string) []runtimehooksv1.UpgradeStepInfo {
	if len(versions) == 0 {
		return nil
	}
	out := make([]runtimehooksv1.UpgradeStepInfo, 0, len(versions))
	for _, v := range versions {
		out = append(out, runtimehooksv1.UpgradeStepInfo{Version: v})
	}
	return out
}

// workersPlan: the workers follow the control plane steps, sometimes skipping some (never the target).
func (b *builder) workersPlan(cp []string) []string {
	var out []string
	for i, v := range cp {
		if i == len(cp)-1 || b.r.chance(0.6) {
			out = append(out, v)
		}
	}
	return out
}

// cleanedMeta is random metadata as Cluster API's cleanup functions keep it: name, namespace, labels, annotations.
func (b *builder) cleanedMeta() metav1.ObjectMeta {
	var meta metav1.ObjectMeta
	b.f.Fill(&meta)
	return metav1.ObjectMeta{Name: meta.Name, Namespace: meta.Namespace, Labels: meta.Labels, Annotations: meta.Annotations}
}

// machine returns a Machine like Cluster API's cleanupMachine: TypeMeta, name, namespace, labels, annotations, spec.
func (b *builder) machine() clusterv1.Machine {
	m := clusterv1.Machine{
		TypeMeta:   metav1.TypeMeta{Kind: "Machine", APIVersion: clusterv1.GroupVersion.String()},
		ObjectMeta: b.cleanedMeta(),
	}
	b.f.Fill(&m.Spec)
	m.Labels = mergeMaps(m.Labels, map[string]string{"cluster.x-k8s.io/cluster-name": m.Spec.ClusterName})
	return m
}

// machineSet returns a MachineSet like Cluster API's cleanupMachineSet; its selector matches its template.
func (b *builder) machineSet() clusterv1.MachineSet {
	ms := clusterv1.MachineSet{
		TypeMeta:   metav1.TypeMeta{Kind: "MachineSet", APIVersion: clusterv1.GroupVersion.String()},
		ObjectMeta: b.cleanedMeta(),
	}
	b.f.Fill(&ms.Spec)
	cluster := ms.Spec.ClusterName
	ms.Spec.Template.Spec.ClusterName = cluster
	selector := mergeMaps(ms.Spec.Selector.MatchLabels, map[string]string{"cluster.x-k8s.io/cluster-name": cluster})
	ms.Spec.Selector = metav1.LabelSelector{MatchLabels: selector}
	if b.r.chance(0.3) {
		key := "example.com/" + b.r.labelName()
		ms.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: key, Operator: metav1.LabelSelectorOpExists}}
		selector = mergeMaps(selector, map[string]string{key: b.r.labelValue()})
	}
	ms.Spec.Template.Labels = mergeMaps(ms.Spec.Template.Labels, selector)
	ms.Labels = mergeMaps(ms.Labels, map[string]string{"cluster.x-k8s.io/cluster-name": cluster})
	return ms
}

func (b *builder) object(apiVersion, kind, name, namespace string) runtime.RawExtension {
	return runtime.RawExtension{Raw: mustJSON(b.r.cleanedObject(apiVersion, kind, name, namespace))}
}

func (b *builder) template(apiVersion, kind, name, namespace string) map[string]any {
	obj := b.r.cleanedObject(apiVersion, kind, name, namespace)
	obj["spec"] = map[string]any{"template": map[string]any{"spec": b.r.jsonObject(3)}}
	return obj
}

// builtin returns the `builtin` variable with the given parts filled (Cluster API puts the cluster part in the
// global variables and the control plane / machine deployment / machine pool part in a template's variables).
func (b *builder) builtin(part string) runtimehooksv1.Variable {
	var v runtimehooksv1.Builtins
	switch part {
	case "cluster":
		v.Cluster = &runtimehooksv1.ClusterBuiltins{}
		b.f.Fill(v.Cluster)
		v.Cluster.Topology = &runtimehooksv1.ClusterTopologyBuiltins{}
		b.f.Fill(v.Cluster.Topology)
	case "controlPlane":
		v.ControlPlane = &runtimehooksv1.ControlPlaneBuiltins{}
		b.f.Fill(v.ControlPlane)
	case "machineDeployment":
		v.MachineDeployment = &runtimehooksv1.MachineDeploymentBuiltins{}
		b.f.Fill(v.MachineDeployment)
	case "machinePool":
		v.MachinePool = &runtimehooksv1.MachinePoolBuiltins{}
		b.f.Fill(v.MachinePool)
	}
	return runtimehooksv1.Variable{Name: runtimehooksv1.BuiltinsName, Value: apiextensionsv1.JSON{Raw: mustJSON(v)}}
}

// userVariables returns n variables with unique names and random JSON values.
func (b *builder) userVariables(n int) []runtimehooksv1.Variable {
	var out []runtimehooksv1.Variable
	seen := map[string]bool{}
	for len(out) < n {
		name := b.r.variableName()
		if seen[name] {
			name += itoa(len(out))
		}
		seen[name] = true
		out = append(out, runtimehooksv1.Variable{Name: name, Value: apiextensionsv1.JSON{Raw: mustJSON(b.r.value())}})
	}
	return out
}

// holder is a template of a topology: who references it, from which field, and its kind.
type holder struct {
	apiVersion, kind, fieldPath, templateKind, builtin string
}

var holders = []holder{
	{"cluster.x-k8s.io/v1beta2", "Cluster", "spec.infrastructureRef", "ClusterTemplate", ""},
	{"cluster.x-k8s.io/v1beta2", "Cluster", "spec.controlPlaneRef", "ControlPlaneTemplate", "controlPlane"},
	{cpGroup + "/v1beta2", "KubeadmControlPlane", "spec.machineTemplate.spec.infrastructureRef", "MachineTemplate", "controlPlane"},
	{"cluster.x-k8s.io/v1beta2", "MachineDeployment", "spec.template.spec.bootstrap.configRef", "ConfigTemplate", "machineDeployment"},
	{"cluster.x-k8s.io/v1beta2", "MachineDeployment", "spec.template.spec.infrastructureRef", "MachineTemplate", "machineDeployment"},
	{"cluster.x-k8s.io/v1beta2", "MachinePool", "spec.template.spec.bootstrap.configRef", "ConfigTemplate", "machinePool"},
	{"cluster.x-k8s.io/v1beta2", "MachinePool", "spec.template.spec.infrastructureRef", "MachinePoolTemplate", "machinePool"},
}

type topologyItem struct {
	holder    runtimehooksv1.HolderReference
	object    runtime.RawExtension
	variables []runtimehooksv1.Variable
}

// topology returns global variables and templates like Cluster API's patch engine sends them: user variables
// first, then `builtin`.
func (b *builder) topology() ([]runtimehooksv1.Variable, []topologyItem) {
	global := append(b.userVariables(b.r.between(0, 5)), b.builtin("cluster"))
	namespace := b.r.dnsLabel(63)
	var items []topologyItem
	for n := b.r.between(1, 7); n > 0; n-- {
		h := holders[b.r.Intn(len(holders))]
		group := infraGroup
		switch h.templateKind {
		case "ControlPlaneTemplate":
			group = cpGroup
		case "ConfigTemplate":
			group = bootstrapGroup
		}
		kind := b.r.kind(h.templateKind)
		if h.templateKind == "ControlPlaneTemplate" || h.templateKind == "ConfigTemplate" {
			kind = "Kubeadm" + h.templateKind
		}
		item := topologyItem{
			holder: runtimehooksv1.HolderReference{
				APIVersion: h.apiVersion, Kind: h.kind, Namespace: namespace, Name: b.r.dnsSubdomain(80), FieldPath: h.fieldPath,
			},
			object: runtime.RawExtension{Raw: mustJSON(b.template(group+"/v1beta2", kind, b.r.dnsSubdomain(80), namespace))},
		}
		if h.builtin != "" {
			item.variables = append(b.userVariables(b.r.between(0, 3)), b.builtin(h.builtin))
		}
		items = append(items, item)
	}
	return global, items
}

// request returns a random request of the hook (TypeMeta unset).
func (b *builder) request(hook string) runtime.Object {
	switch hook {
	case "Discovery":
		return &runtimehooksv1.DiscoveryRequest{}
	case "BeforeClusterCreate":
		c := b.cluster()
		// Called before the topology is created: no references and no endpoint yet.
		c.Spec.InfrastructureRef, c.Spec.ControlPlaneRef, c.Spec.ControlPlaneEndpoint = clusterv1.ContractVersionedObjectReference{}, clusterv1.ContractVersionedObjectReference{}, clusterv1.APIEndpoint{}
		c.Generation = 1
		return &runtimehooksv1.BeforeClusterCreateRequest{CommonRequest: b.common(), Cluster: c}
	case "AfterControlPlaneInitialized":
		return &runtimehooksv1.AfterControlPlaneInitializedRequest{CommonRequest: b.common(), Cluster: b.cluster()}
	case "BeforeClusterUpgrade":
		c, from, steps := b.upgradingCluster()
		return &runtimehooksv1.BeforeClusterUpgradeRequest{
			CommonRequest: b.common(), Cluster: c, FromKubernetesVersion: from, ToKubernetesVersion: steps[len(steps)-1],
			ControlPlaneUpgrades: stepInfos(steps), WorkersUpgrades: stepInfos(b.workersPlan(steps)),
		}
	case "BeforeControlPlaneUpgrade":
		c, from, steps := b.upgradingCluster()
		return &runtimehooksv1.BeforeControlPlaneUpgradeRequest{
			CommonRequest: b.common(), Cluster: c, FromKubernetesVersion: from, ToKubernetesVersion: steps[0],
			ControlPlaneUpgrades: stepInfos(steps), WorkersUpgrades: stepInfos(b.workersPlan(steps)),
		}
	case "AfterControlPlaneUpgrade":
		c, _, steps := b.upgradingCluster()
		return &runtimehooksv1.AfterControlPlaneUpgradeRequest{
			CommonRequest: b.common(), Cluster: c, KubernetesVersion: steps[0],
			ControlPlaneUpgrades: stepInfos(steps[1:]), WorkersUpgrades: stepInfos(b.workersPlan(steps)),
		}
	case "BeforeWorkersUpgrade":
		c, from, steps := b.upgradingCluster()
		return &runtimehooksv1.BeforeWorkersUpgradeRequest{
			CommonRequest: b.common(), Cluster: c, FromKubernetesVersion: from, ToKubernetesVersion: steps[0],
			ControlPlaneUpgrades: stepInfos(steps[1:]), WorkersUpgrades: stepInfos(steps),
		}
	case "AfterWorkersUpgrade":
		c, _, steps := b.upgradingCluster()
		return &runtimehooksv1.AfterWorkersUpgradeRequest{
			CommonRequest: b.common(), Cluster: c, KubernetesVersion: steps[0],
			ControlPlaneUpgrades: stepInfos(steps[1:]), WorkersUpgrades: stepInfos(steps[1:]),
		}
	case "AfterClusterUpgrade":
		c := b.cluster()
		return &runtimehooksv1.AfterClusterUpgradeRequest{CommonRequest: b.common(), Cluster: c, KubernetesVersion: c.Spec.Topology.Version}
	case "BeforeClusterDelete":
		c := b.cluster()
		// Deletion was requested: the API server keeps the object while finalizers remain.
		deleted := metav1.NewTime(c.CreationTimestamp.Add(time.Duration(b.r.between(60, 90*24*3600)) * time.Second))
		c.DeletionTimestamp, c.DeletionGracePeriodSeconds = &deleted, ptr(int64(0))
		c.Finalizers = append([]string{"cluster.cluster.x-k8s.io"}, c.Finalizers...)
		c.Finalizers = uniqueBy(c.Finalizers, func(s string) string { return s })
		return &runtimehooksv1.BeforeClusterDeleteRequest{CommonRequest: b.common(), Cluster: c}
	case "GeneratePatches":
		global, items := b.topology()
		req := &runtimehooksv1.GeneratePatchesRequest{CommonRequest: b.common(), Variables: global}
		seen := map[types.UID]bool{}
		for _, it := range items {
			uid := b.r.uuid()
			for seen[uid] {
				uid = b.r.uuid()
			}
			seen[uid] = true
			req.Items = append(req.Items, runtimehooksv1.GeneratePatchesRequestItem{UID: uid, HolderReference: it.holder, Object: it.object, Variables: it.variables})
		}
		return req
	case "ValidateTopology":
		global, items := b.topology()
		req := &runtimehooksv1.ValidateTopologyRequest{CommonRequest: b.common(), Variables: global}
		for _, it := range items {
			req.Items = append(req.Items, &runtimehooksv1.ValidateTopologyRequestItem{HolderReference: it.holder, Object: it.object, Variables: it.variables})
		}
		return req
	case "DiscoverVariables":
		return &runtimehooksv1.DiscoverVariablesRequest{CommonRequest: b.common()}
	case "CanUpdateMachine":
		current, desired := b.machinePair()
		return &runtimehooksv1.CanUpdateMachineRequest{
			CommonRequest: b.common(),
			Current:       runtimehooksv1.CanUpdateMachineRequestObjects{Machine: current, InfrastructureMachine: b.infraMachine(current), BootstrapConfig: b.bootstrapConfig(current)},
			Desired:       runtimehooksv1.CanUpdateMachineRequestObjects{Machine: desired, InfrastructureMachine: b.infraMachine(desired), BootstrapConfig: b.bootstrapConfig(desired)},
		}
	case "CanUpdateMachineSet":
		current := b.machineSet()
		desired := *current.DeepCopy()
		desired.Spec.Template.Spec.Version = b.r.version()
		req := &runtimehooksv1.CanUpdateMachineSetRequest{
			CommonRequest: b.common(),
			Current:       runtimehooksv1.CanUpdateMachineSetRequestObjects{MachineSet: current, InfrastructureMachineTemplate: b.machineSetTemplate(current, "infra")},
			Desired:       runtimehooksv1.CanUpdateMachineSetRequestObjects{MachineSet: desired, InfrastructureMachineTemplate: b.machineSetTemplate(desired, "infra")},
		}
		// The bootstrap config templates are optional (a MachineSet may use a data secret).
		if current.Spec.Template.Spec.Bootstrap.ConfigRef.IsDefined() {
			req.Current.BootstrapConfigTemplate = b.machineSetTemplate(current, "bootstrap")
			req.Desired.BootstrapConfigTemplate = b.machineSetTemplate(desired, "bootstrap")
		}
		return req
	case "UpdateMachine":
		_, desired := b.machinePair()
		return &runtimehooksv1.UpdateMachineRequest{
			CommonRequest: b.common(),
			Desired:       runtimehooksv1.UpdateMachineRequestObjects{Machine: desired, InfrastructureMachine: b.infraMachine(desired), BootstrapConfig: b.bootstrapConfig(desired)},
		}
	case "GenerateUpgradePlan":
		c := b.cluster()
		from, steps := b.plan()
		to := steps[len(steps)-1]
		c.Spec.Topology.Version = to
		workers := from
		if b.r.chance(0.4) {
			workers = fmt.Sprintf("v1.%d.%d", b.r.between(22, 25), b.r.between(0, 9))
		}
		req := &runtimehooksv1.GenerateUpgradePlanRequest{CommonRequest: b.common(), Cluster: c, FromControlPlaneKubernetesVersion: from, ToKubernetesVersion: to}
		if b.r.chance(0.8) {
			req.FromWorkersKubernetesVersion = workers
		}
		return req
	}
	panic("randomized: no request builder for hook " + hook)
}

// machinePair returns the current Machine and the desired one (a new version, sometimes changed labels).
func (b *builder) machinePair() (clusterv1.Machine, clusterv1.Machine) {
	current := b.machine()
	desired := *current.DeepCopy()
	desired.Spec.Version = b.r.version()
	if b.r.chance(0.3) {
		desired.Labels = mergeMaps(desired.Labels, b.r.labels(1, 2))
	}
	return current, desired
}

func (b *builder) infraMachine(m clusterv1.Machine) runtime.RawExtension {
	return b.object(m.Spec.InfrastructureRef.APIGroup+"/v1beta2", m.Spec.InfrastructureRef.Kind, m.Spec.InfrastructureRef.Name, m.Namespace)
}

func (b *builder) bootstrapConfig(m clusterv1.Machine) runtime.RawExtension {
	ref := m.Spec.Bootstrap.ConfigRef
	if !ref.IsDefined() {
		ref = clusterv1.ContractVersionedObjectReference{Kind: "KubeadmConfig", Name: m.Name, APIGroup: bootstrapGroup}
	}
	return b.object(ref.APIGroup+"/v1beta2", ref.Kind, ref.Name, m.Namespace)
}

func (b *builder) machineSetTemplate(ms clusterv1.MachineSet, which string) runtime.RawExtension {
	ref := ms.Spec.Template.Spec.InfrastructureRef
	if which == "bootstrap" {
		ref = ms.Spec.Template.Spec.Bootstrap.ConfigRef
	}
	return runtime.RawExtension{Raw: mustJSON(b.template(ref.APIGroup+"/v1beta2", ref.Kind, ref.Name, ms.Namespace))}
}

func mergeMaps(a, b map[string]string) map[string]string {
	if a == nil && b == nil {
		return nil
	}
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
