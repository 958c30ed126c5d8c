package randomized

import (
	"math/rand"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// nilChance is the probability that an optional pointer, slice or map is left unset.
const nilChance = 0.25

// Groups of the objects Cluster API references.
const (
	infraGroup     = "infrastructure.cluster.x-k8s.io"
	bootstrapGroup = "bootstrap.cluster.x-k8s.io"
	cpGroup        = "controlplane.cluster.x-k8s.io"
)

// newFiller returns a randfill.Filler drawing from r whose custom functions keep Cluster API objects valid
// (CRD OpenAPI markers and the webhooks' rules). Struct functions fill with FillNoCustom (nested values still
// go through their own custom functions) and then fix the fields that carry constraints.
//
// Note on randfill semantics: a custom function for *T also fills fields of type T; a function for **T fills
// fields of type *T (and may leave them nil). Named string types (enums) each have their own function.
func newFiller(r rng) *randfill.Filler {
	return randfill.New().RandSource(sourceOf(r)).NilChance(nilChance).NumElements(1, 3).MaxDepth(40).Funcs(
		// Primitives: every plain string is a DNS-1123 label unless a struct function says otherwise (a label
		// satisfies the name, kind, condition type and qualified name patterns of the CRDs); integers are small and
		// non-negative (every int32 of the Cluster API CRDs with a minimum has minimum 0 or 1).
		func(s *string, c randfill.Continue) { *s = g(c).dnsLabel(20) },
		func(s **string, c randfill.Continue) {
			if c.Float64() < nilChance {
				*s = nil
				return
			}
			v := g(c).dnsLabel(20)
			*s = &v
		},
		func(i *int32, c randfill.Continue) { *i = c.Int31n(1000) },
		func(i **int32, c randfill.Continue) {
			if c.Float64() < nilChance {
				*i = nil
				return
			}
			v := c.Int31n(1000)
			*i = &v
		},
		func(i *int64, c randfill.Continue) { *i = c.Int63n(100000) },
		func(i **int64, c randfill.Continue) {
			if c.Float64() < nilChance {
				*i = nil
				return
			}
			v := c.Int63n(100000)
			*i = &v
		},
		// Every map[string]string of these types is labels, annotations, selectors or settings: by default a
		// label map (struct functions replace annotations and settings).
		func(m *map[string]string, c randfill.Continue) { *m = g(c).labels(0, 6) },
		func(t *metav1.Time, c randfill.Continue) { *t = g(c).time() },
		func(t *metav1.TypeMeta, _ randfill.Continue) { *t = metav1.TypeMeta{} }, // set explicitly, like Cluster API
		func(u *types.UID, c randfill.Continue) { *u = g(c).uuid() },
		func(x *intstr.IntOrString, c randfill.Continue) { *x = g(c).intOrPercent() },
		func(j *apiextensionsv1.JSON, c randfill.Continue) { j.Raw = mustJSON(g(c).value()) },
		func(x *runtime.RawExtension, c randfill.Continue) {
			r := g(c)
			*x = runtime.RawExtension{Raw: mustJSON(r.cleanedObject(infraGroup+"/v1beta2", r.kind("Machine"), r.dnsSubdomain(63), r.dnsLabel(63)))}
		},

		// Enums (CRD enum markers).
		func(p *clusterv1.ConditionPolarity, c randfill.Continue) {
			*p = clusterv1.ConditionPolarity(g(c).pick(string(clusterv1.PositivePolarityCondition), string(clusterv1.NegativePolarityCondition)))
		},
		func(p *clusterv1.MachineTaintPropagation, c randfill.Continue) {
			*p = clusterv1.MachineTaintPropagation(g(c).pick(string(clusterv1.MachineTaintPropagationAlways), string(clusterv1.MachineTaintPropagationOnInitialization)))
		},
		func(e *corev1.TaintEffect, c randfill.Continue) {
			*e = corev1.TaintEffect(g(c).pick(string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)))
		},
		func(t *corev1.NodeConditionType, c randfill.Continue) {
			*t = corev1.NodeConditionType(g(c).pick("Ready", "MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable"))
		},
		func(s *corev1.ConditionStatus, c randfill.Continue) {
			*s = corev1.ConditionStatus(g(c).pick("True", "False", "Unknown"))
		},
		func(s *metav1.ConditionStatus, c randfill.Continue) {
			*s = metav1.ConditionStatus(g(c).pick("True", "False", "Unknown"))
		},
		func(o *clusterv1.MachineSetDeletionOrder, c randfill.Continue) {
			*o = clusterv1.MachineSetDeletionOrder(g(c).pick("Random", "Newest", "Oldest"))
		},
		func(t *clusterv1.MachineDeploymentRolloutStrategyType, c randfill.Continue) {
			*t = clusterv1.MachineDeploymentRolloutStrategyType(g(c).pick("RollingUpdate", "OnDelete"))
		},
		func(o *metav1.LabelSelectorOperator, c randfill.Continue) {
			*o = metav1.LabelSelectorOperator(g(c).pick("In", "NotIn", "Exists", "DoesNotExist"))
		},

		// Kubernetes object metadata as the API server stores it (Cluster API sends no managedFields).
		func(m *metav1.ObjectMeta, c randfill.Continue) { *m = g(c).objectMeta() },
		func(s *metav1.LabelSelector, c randfill.Continue) {
			r := g(c)
			*s = metav1.LabelSelector{MatchLabels: r.labels(1, 4)}
			for n := r.Intn(3); n > 0; n-- {
				req := metav1.LabelSelectorRequirement{Key: r.qualifiedName(), Operator: metav1.LabelSelectorOperator(r.pick("In", "NotIn", "Exists", "DoesNotExist"))}
				if req.Operator == metav1.LabelSelectorOpIn || req.Operator == metav1.LabelSelectorOpNotIn {
					for k := r.between(1, 3); k > 0; k-- {
						req.Values = append(req.Values, r.labelName())
					}
				}
				s.MatchExpressions = append(s.MatchExpressions, req)
			}
		},

		// cluster.x-k8s.io/v1beta2 structs with constraints.
		func(m *clusterv1.ObjectMeta, c randfill.Continue) {
			r := g(c)
			*m = clusterv1.ObjectMeta{Labels: r.maybeLabels(0, 4), Annotations: r.maybeAnnotations(0, 3)}
		},
		func(x *clusterv1.ContractVersionedObjectReference, c randfill.Continue) {
			r := g(c)
			*x = clusterv1.ContractVersionedObjectReference{Kind: r.kind("Cluster"), Name: r.dnsSubdomain(80), APIGroup: infraGroup}
		},
		func(x *clusterv1.ClusterSpec, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.ControlPlaneRef = clusterv1.ContractVersionedObjectReference{Kind: r.pick("KubeadmControlPlane", "TalosControlPlane", "K3sControlPlane"), Name: r.dnsSubdomain(80), APIGroup: cpGroup}
			x.InfrastructureRef = clusterv1.ContractVersionedObjectReference{Kind: r.kind("Cluster"), Name: r.dnsSubdomain(80), APIGroup: infraGroup}
			x.AvailabilityGates = uniqueBy(x.AvailabilityGates, func(a clusterv1.ClusterAvailabilityGate) string { return a.ConditionType })
		},
		func(x *clusterv1.ClusterAvailabilityGate, c randfill.Continue) {
			c.FillNoCustom(x)
			x.ConditionType = g(c).conditionType()
		},
		func(x *clusterv1.MachineReadinessGate, c randfill.Continue) {
			c.FillNoCustom(x)
			x.ConditionType = g(c).conditionType()
		},
		func(x *clusterv1.ClusterNetwork, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.APIServerPort = int32(r.pickInt(0, 443, 6443, 8443, r.between(1, 65535)))
			x.ServiceDomain = r.pick("", "cluster.local", r.dnsSubdomain(60))
		},
		func(x *clusterv1.NetworkRanges, c randfill.Continue) {
			r := g(c)
			*x = clusterv1.NetworkRanges{}
			for n := r.between(1, 3); n > 0; n-- {
				x.CIDRBlocks = append(x.CIDRBlocks, r.cidr())
			}
		},
		func(x *clusterv1.APIEndpoint, c randfill.Continue) {
			r := g(c)
			*x = clusterv1.APIEndpoint{Host: r.pick(r.ip(), r.dnsSubdomain(100)), Port: int32(r.pickInt(443, 6443, r.between(1, 65535)))}
		},
		func(x *clusterv1.Topology, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.Version = r.version()
			x.ClassRef = clusterv1.ClusterClassRef{Name: r.dnsSubdomain(60)}
			if r.chance(0.5) {
				x.ClassRef.Namespace = r.dnsLabel(63)
			}
			x.Variables = uniqueBy(x.Variables, func(v clusterv1.ClusterVariable) string { return v.Name })
			x.Workers.MachineDeployments = uniqueBy(x.Workers.MachineDeployments, func(v clusterv1.MachineDeploymentTopology) string { return v.Name })
			x.Workers.MachinePools = uniqueBy(x.Workers.MachinePools, func(v clusterv1.MachinePoolTopology) string { return v.Name })
		},
		func(x *clusterv1.ClusterVariable, c randfill.Continue) {
			r := g(c)
			*x = clusterv1.ClusterVariable{Name: r.variableName(), Value: apiextensionsv1.JSON{Raw: mustJSON(r.value())}}
		},
		func(x *clusterv1.ControlPlaneTopology, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Taints = uniqueTaints(x.Taints)
			x.ReadinessGates = uniqueGates(x.ReadinessGates)
			x.Variables.Overrides = uniqueBy(x.Variables.Overrides, func(v clusterv1.ClusterVariable) string { return v.Name })
		},
		func(x *clusterv1.MachineDeploymentTopology, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Taints = uniqueTaints(x.Taints)
			x.ReadinessGates = uniqueGates(x.ReadinessGates)
			x.Variables.Overrides = uniqueBy(x.Variables.Overrides, func(v clusterv1.ClusterVariable) string { return v.Name })
		},
		func(x *clusterv1.MachinePoolTopology, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Taints = uniqueTaints(x.Taints)
			x.Variables.Overrides = uniqueBy(x.Variables.Overrides, func(v clusterv1.ClusterVariable) string { return v.Name })
		},
		func(x *clusterv1.MachineDeploymentTopologyRolloutStrategy, c randfill.Continue) {
			c.FillNoCustom(x)
			if x.Type == clusterv1.OnDeleteMachineDeploymentStrategyType {
				x.RollingUpdate = clusterv1.MachineDeploymentTopologyRolloutStrategyRollingUpdate{}
			}
		},
		func(x *clusterv1.ControlPlaneTopologyHealthCheckRemediationTriggerIf, c randfill.Continue) {
			*x = clusterv1.ControlPlaneTopologyHealthCheckRemediationTriggerIf{}
			x.UnhealthyInRange, x.UnhealthyLessThanOrEqualTo = g(c).remediationTrigger()
		},
		func(x *clusterv1.MachineDeploymentTopologyHealthCheckRemediationTriggerIf, c randfill.Continue) {
			*x = clusterv1.MachineDeploymentTopologyHealthCheckRemediationTriggerIf{}
			x.UnhealthyInRange, x.UnhealthyLessThanOrEqualTo = g(c).remediationTrigger()
		},
		func(x *clusterv1.MachineHealthCheckRemediationTemplateReference, c randfill.Continue) {
			r := g(c)
			*x = clusterv1.MachineHealthCheckRemediationTemplateReference{Kind: r.kind("RemediationTemplate"), Name: r.dnsSubdomain(80), APIVersion: infraGroup + "/v1beta2"}
		},
		func(x *clusterv1.UnhealthyNodeCondition, c randfill.Continue) {
			c.FillNoCustom(x)
			x.TimeoutSeconds = ptr(c.Int31n(3600))
		},
		func(x *clusterv1.UnhealthyMachineCondition, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.Type = r.pick("EtcdMemberHealthy", "NodeHealthy", "APIServerPodHealthy", "example.com/"+r.labelName())
			x.TimeoutSeconds = ptr(c.Int31n(3600))
		},
		func(x *clusterv1.MachineTaint, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.Key = r.qualifiedName()
			x.Value = r.labelValue()
		},
		func(x *clusterv1.MachineSpec, c randfill.Continue) {
			r := g(c)
			c.FillNoCustom(x)
			x.ClusterName = r.dnsLabel(63)
			x.Version = r.version()
			x.InfrastructureRef = clusterv1.ContractVersionedObjectReference{Kind: r.kind("Machine"), Name: r.dnsSubdomain(80), APIGroup: infraGroup}
			x.Bootstrap.ConfigRef = clusterv1.ContractVersionedObjectReference{Kind: r.pick("KubeadmConfig", "TalosConfig"), Name: r.dnsSubdomain(80), APIGroup: bootstrapGroup}
			if r.chance(0.2) {
				x.Bootstrap.ConfigRef = clusterv1.ContractVersionedObjectReference{}
				x.Bootstrap.DataSecretName = ptr(r.dnsSubdomain(80))
			}
			if r.chance(0.5) {
				x.ProviderID = "docker:////" + r.dnsLabel(40)
			} else {
				x.ProviderID = ""
			}
			x.Taints = uniqueTaints(x.Taints)
			x.ReadinessGates = uniqueGates(x.ReadinessGates)
		},
		func(x *clusterv1.MachineNamingSpec, c randfill.Continue) {
			*x = clusterv1.MachineNamingSpec{Template: g(c).pick("{{ .machineSet.name }}-{{ .random }}", "{{ .cluster.name }}-worker-{{ .random }}")}
		},

		// Builtin variables.
		func(x *runtimehooksv1.ObjectMeta, c randfill.Continue) {
			r := g(c)
			*x = runtimehooksv1.ObjectMeta{Labels: r.maybeLabels(0, 4), Annotations: r.maybeAnnotations(0, 3)}
		},
		func(x *runtimehooksv1.ClusterNetworkBuiltins, c randfill.Continue) {
			r := g(c)
			*x = runtimehooksv1.ClusterNetworkBuiltins{ServiceDomain: ptr("cluster.local"), Services: []string{r.cidr()}, Pods: []string{r.cidr(), r.cidr()}}
		},
		func(x *runtimehooksv1.ClusterTopologyBuiltins, c randfill.Continue) {
			r := g(c)
			class, ns := r.dnsSubdomain(60), r.dnsLabel(63)
			*x = runtimehooksv1.ClusterTopologyBuiltins{Version: r.version(), ClassRef: runtimehooksv1.ClusterTopologyClusterClassRefBuiltins{Name: class, Namespace: ns}, Class: class, ClassNamespace: ns}
		},
		func(x *runtimehooksv1.ControlPlaneBuiltins, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Version = g(c).version()
		},
		func(x *runtimehooksv1.MachineDeploymentBuiltins, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Version = g(c).version()
		},
		func(x *runtimehooksv1.MachinePoolBuiltins, c randfill.Continue) {
			c.FillNoCustom(x)
			x.Version = g(c).version()
		},
	)
}

// g wraps the filler's random source (every draw goes through it, so a seed reproduces the value).
func g(c randfill.Continue) rng { return rng{c.Rand} }

// sourceOf hands the rng's own source to randfill; both then draw from one deterministic stream.
func sourceOf(r rng) rand.Source { return rngSource{r} }

type rngSource struct{ r rng }

func (s rngSource) Int63() int64    { return s.r.Int63() }
func (s rngSource) Seed(seed int64) { s.r.Seed(seed) }

func ptr[T any](v T) *T { return &v }

func uniqueBy[T any, K comparable](in []T, key func(T) K) []T {
	if in == nil {
		return nil
	}
	seen := map[K]bool{}
	out := in[:0]
	for _, v := range in {
		if k := key(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

func uniqueTaints(in []clusterv1.MachineTaint) []clusterv1.MachineTaint {
	return uniqueBy(in, func(t clusterv1.MachineTaint) string { return t.Key + "\x00" + string(t.Effect) })
}

func uniqueGates(in []clusterv1.MachineReadinessGate) []clusterv1.MachineReadinessGate {
	return uniqueBy(in, func(t clusterv1.MachineReadinessGate) string { return t.ConditionType })
}

// labels returns a label map of min..max entries (nil when empty).
func (r rng) labels(min, max int) map[string]string {
	n := r.between(min, max)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		m[r.qualifiedName()] = r.labelValue()
	}
	return m
}

func (r rng) maybeLabels(min, max int) map[string]string {
	if r.chance(nilChance) {
		return nil
	}
	return r.labels(min, max)
}

// annotations returns an annotation map: qualified-name keys, free text values.
func (r rng) annotations(min, max int) map[string]string {
	n := r.between(min, max)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		m[r.qualifiedName()] = r.text(120)
	}
	return m
}

func (r rng) maybeAnnotations(min, max int) map[string]string {
	if r.chance(nilChance) {
		return nil
	}
	return r.annotations(min, max)
}

func (r rng) conditionType() string {
	if r.chance(0.5) {
		return r.pick("APIServerPodHealthy", "ExternalDNSReady", "NetworkReady", "EtcdPodHealthy")
	}
	return r.qualifiedName()
}

func (r rng) variableName() string {
	return r.fieldName() + r.from(lower, 2)
}

func (r rng) unhealthyRange() string {
	a := r.Intn(5)
	return "[" + itoa(a) + "-" + itoa(a+r.between(1, 5)) + "]"
}

// remediationTrigger is one of the two exclusive conditions of a remediation trigger: a range of unhealthy
// machines, or a most-unhealthy count or percentage.
func (r rng) remediationTrigger() (inRange string, lessThanOrEqualTo *intstr.IntOrString) {
	if r.chance(0.5) {
		return r.unhealthyRange(), nil
	}
	v := r.intOrPercent()
	return "", &v
}

func (r rng) intOrPercent() intstr.IntOrString {
	if r.chance(0.5) {
		return intstr.FromInt32(int32(r.Intn(10)))
	}
	return intstr.FromString(itoa(r.between(0, 100)) + "%")
}

// objectMeta returns full Kubernetes object metadata as the API server stores it, without managedFields (Cluster
// API drops them) and without deletion fields (set by the requests that need them).
func (r rng) objectMeta() metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		Name:              r.dnsLabel(63),
		Namespace:         r.dnsLabel(63),
		UID:               r.uuid(),
		ResourceVersion:   itoa(r.between(1, 99999999)),
		Generation:        int64(r.between(1, 40)),
		CreationTimestamp: r.time(),
		Labels:            r.maybeLabels(1, 8),
		Annotations:       r.maybeAnnotations(1, 5),
	}
	if r.chance(0.2) {
		m.GenerateName = m.Name[:min(len(m.Name), 20)] + "-"
	}
	if r.chance(0.6) {
		m.Finalizers = []string{"cluster.cluster.x-k8s.io"}
		if r.chance(0.3) {
			m.Finalizers = append(m.Finalizers, "example.com/"+r.dnsLabel(30))
		}
	}
	if r.chance(0.2) {
		m.OwnerReferences = []metav1.OwnerReference{{
			APIVersion: "cluster.x-k8s.io/v1beta2", Kind: "ClusterClass", Name: r.dnsSubdomain(60), UID: r.uuid(),
			Controller: ptr(r.chance(0.5)), BlockOwnerDeletion: ptr(true),
		}}
	}
	return m
}

// cleanedObject returns an object shaped like Cluster API's cleanupUnstructured output or a template
// (apiVersion, kind, metadata {name, namespace, labels, annotations}, spec).
func (r rng) cleanedObject(apiVersion, kind, name, namespace string) map[string]any {
	meta := map[string]any{"name": name, "namespace": namespace}
	if l := r.maybeLabels(1, 4); l != nil {
		meta["labels"] = l
	}
	if a := r.maybeAnnotations(1, 3); a != nil {
		meta["annotations"] = a
	}
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta, "spec": r.jsonObject(3)}
}
