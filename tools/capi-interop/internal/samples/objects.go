package samples

import (
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
)

// Identity of the sample Cluster every request refers to.
const (
	ClusterName      = "capi-interop"
	ClusterNamespace = "default"
	ClusterUID       = types.UID("4a1c5a8e-6f0b-4a57-9d2b-7a0e2f3c1b01")
	ClusterClassName = "quick-start"

	// FromVersion and ToVersion describe the sample upgrade.
	FromVersion        = "v1.31.6"
	ToVersion          = "v1.33.0"
	FromWorkersVersion = "v1.30.10"

	infraGroup     = "infrastructure.cluster.x-k8s.io"
	bootstrapGroup = "bootstrap.cluster.x-k8s.io"
	cpGroup        = "controlplane.cluster.x-k8s.io"
	infraAPI       = infraGroup + "/v1beta2"
	bootstrapAPI   = bootstrapGroup + "/v1beta2"
	cpAPI          = cpGroup + "/v1beta2"
)

func ptr[T any](v T) *T { return &v }

// timestamp returns a deterministic metav1.Time in the form metav1.Time.UnmarshalJSON produces
// (second precision, local location), so that round trips are lossless.
func timestamp(hour int) metav1.Time {
	return metav1.NewTime(time.Date(2026, time.March, 14, hour, 15, 9, 0, time.UTC).Local())
}

// mustJSON marshals v compactly (the form encoding/json hands back to RawExtension / JSON on decode).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("samples: cannot marshal %T: %v", v, err))
	}
	return b
}

func jsonValue(v any) apiextensionsv1.JSON { return apiextensionsv1.JSON{Raw: mustJSON(v)} }

func rawObject(v any) runtime.RawExtension { return runtime.RawExtension{Raw: mustJSON(v)} }

// Settings returns the settings map sent with every sample request (as merged by CAPI's client from
// ExtensionConfig spec.settings and the request's own settings).
func Settings() map[string]string {
	return map[string]string{
		"extensionConfigName":          "capi-interop",
		"defaultAllHandlersToBlocking": "false",
	}
}

func intOrString(v string) *intstr.IntOrString {
	x := intstr.Parse(v)
	return &x
}

func clusterLabels() map[string]string {
	return map[string]string{
		"cluster.x-k8s.io/cluster-name":   ClusterName,
		"topology.cluster.x-k8s.io/owned": "",
		"environment":                     "interop",
	}
}

// Cluster returns the sample core v1beta2 Cluster in the shape CAPI sends it (cleanupCluster: no
// managedFields, no status, no last-applied/conversion annotations).
func Cluster() clusterv1.Cluster {
	return clusterv1.Cluster{
		TypeMeta: metav1.TypeMeta{Kind: "Cluster", APIVersion: clusterv1.GroupVersion.String()},
		ObjectMeta: metav1.ObjectMeta{
			Name:              ClusterName,
			Namespace:         ClusterNamespace,
			UID:               ClusterUID,
			ResourceVersion:   "48213",
			Generation:        3,
			CreationTimestamp: timestamp(8),
			Labels:            clusterLabels(),
			Annotations: map[string]string{
				"capi-interop.example.com/owner":   "team-runtime",
				"capi-interop.example.com/purpose": "wire-fixtures",
			},
			Finalizers: []string{"cluster.cluster.x-k8s.io"},
		},
		Spec: clusterv1.ClusterSpec{
			Paused: ptr(false),
			ClusterNetwork: clusterv1.ClusterNetwork{
				APIServerPort: 6443,
				Services:      clusterv1.NetworkRanges{CIDRBlocks: []string{"10.128.0.0/12"}},
				Pods:          clusterv1.NetworkRanges{CIDRBlocks: []string{"192.168.0.0/16", "fd00:100:96::/48"}},
				ServiceDomain: "cluster.local",
			},
			ControlPlaneEndpoint: clusterv1.APIEndpoint{Host: "172.18.0.3", Port: 6443},
			ControlPlaneRef: clusterv1.ContractVersionedObjectReference{
				Kind: "KubeadmControlPlane", Name: ClusterName + "-x7k2p", APIGroup: cpGroup,
			},
			InfrastructureRef: clusterv1.ContractVersionedObjectReference{
				Kind: "DockerCluster", Name: ClusterName + "-q9v4d", APIGroup: infraGroup,
			},
			Topology: clusterv1.Topology{
				ClassRef: clusterv1.ClusterClassRef{Name: ClusterClassName, Namespace: ClusterNamespace},
				Version:  ToVersion,
				ControlPlane: clusterv1.ControlPlaneTopology{
					Metadata: clusterv1.ObjectMeta{
						Labels:      map[string]string{"tier": "control-plane"},
						Annotations: map[string]string{"capi-interop.example.com/cp": "true"},
					},
					Replicas: ptr(int32(3)),
					Rollout:  clusterv1.ControlPlaneTopologyRolloutSpec{After: timestamp(20)},
					HealthCheck: clusterv1.ControlPlaneTopologyHealthCheck{
						Enabled: ptr(true),
						Checks: clusterv1.ControlPlaneTopologyHealthCheckChecks{
							NodeStartupTimeoutSeconds: ptr(int32(600)),
							UnhealthyNodeConditions: []clusterv1.UnhealthyNodeCondition{
								{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, TimeoutSeconds: ptr(int32(300))},
								{Type: corev1.NodeReady, Status: corev1.ConditionFalse, TimeoutSeconds: ptr(int32(300))},
							},
							UnhealthyMachineConditions: []clusterv1.UnhealthyMachineCondition{
								{Type: "EtcdMemberHealthy", Status: metav1.ConditionFalse, TimeoutSeconds: ptr(int32(120))},
							},
						},
						Remediation: clusterv1.ControlPlaneTopologyHealthCheckRemediation{
							TriggerIf: clusterv1.ControlPlaneTopologyHealthCheckRemediationTriggerIf{
								UnhealthyLessThanOrEqualTo: intOrString("1"),
								UnhealthyInRange:           "[1-2]",
							},
							TemplateRef: clusterv1.MachineHealthCheckRemediationTemplateReference{
								Kind: "DockerRemediationTemplate", Name: "cp-remediation", APIVersion: infraAPI,
							},
						},
					},
					Deletion: clusterv1.ControlPlaneTopologyMachineDeletionSpec{
						NodeDrainTimeoutSeconds:        ptr(int32(300)),
						NodeVolumeDetachTimeoutSeconds: ptr(int32(120)),
						NodeDeletionTimeoutSeconds:     ptr(int32(10)),
					},
					Taints: []clusterv1.MachineTaint{
						{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule, Propagation: clusterv1.MachineTaintPropagationOnInitialization},
					},
					ReadinessGates: []clusterv1.MachineReadinessGate{
						{ConditionType: "APIServerPodHealthy", Polarity: clusterv1.PositivePolarityCondition},
					},
					Variables: clusterv1.ControlPlaneVariables{
						Overrides: []clusterv1.ClusterVariable{{Name: "kubeadmControlPlaneMaxSurge", Value: jsonValue("1")}},
					},
				},
				Workers: clusterv1.WorkersTopology{
					MachineDeployments: []clusterv1.MachineDeploymentTopology{{
						Metadata: clusterv1.ObjectMeta{
							Labels:      map[string]string{"tier": "worker"},
							Annotations: map[string]string{"capi-interop.example.com/md": "md-0"},
						},
						Class:         "default-worker",
						Name:          "md-0",
						FailureDomain: "fd-1",
						Replicas:      ptr(int32(2)),
						HealthCheck: clusterv1.MachineDeploymentTopologyHealthCheck{
							Enabled: ptr(true),
							Checks: clusterv1.MachineDeploymentTopologyHealthCheckChecks{
								NodeStartupTimeoutSeconds: ptr(int32(900)),
								UnhealthyNodeConditions: []clusterv1.UnhealthyNodeCondition{
									{Type: corev1.NodeReady, Status: corev1.ConditionFalse, TimeoutSeconds: ptr(int32(300))},
								},
								UnhealthyMachineConditions: []clusterv1.UnhealthyMachineCondition{
									{Type: "NodeHealthy", Status: metav1.ConditionUnknown, TimeoutSeconds: ptr(int32(600))},
								},
							},
							Remediation: clusterv1.MachineDeploymentTopologyHealthCheckRemediation{
								MaxInFlight: intOrString("50%"),
								TriggerIf: clusterv1.MachineDeploymentTopologyHealthCheckRemediationTriggerIf{
									UnhealthyLessThanOrEqualTo: intOrString("40%"),
									UnhealthyInRange:           "[1-3]",
								},
								TemplateRef: clusterv1.MachineHealthCheckRemediationTemplateReference{
									Kind: "DockerRemediationTemplate", Name: "md-remediation", APIVersion: infraAPI,
								},
							},
						},
						Deletion: clusterv1.MachineDeploymentTopologyMachineDeletionSpec{
							Order:                          clusterv1.OldestMachineSetDeletionOrder,
							NodeDrainTimeoutSeconds:        ptr(int32(600)),
							NodeVolumeDetachTimeoutSeconds: ptr(int32(300)),
							NodeDeletionTimeoutSeconds:     ptr(int32(15)),
						},
						Taints: []clusterv1.MachineTaint{
							{Key: "dedicated", Value: "interop", Effect: corev1.TaintEffectPreferNoSchedule, Propagation: clusterv1.MachineTaintPropagationAlways},
						},
						MinReadySeconds: ptr(int32(5)),
						ReadinessGates: []clusterv1.MachineReadinessGate{
							{ConditionType: "NetworkUnavailable", Polarity: clusterv1.NegativePolarityCondition},
						},
						Rollout: clusterv1.MachineDeploymentTopologyRolloutSpec{
							After: timestamp(21),
							Strategy: clusterv1.MachineDeploymentTopologyRolloutStrategy{
								Type: clusterv1.RollingUpdateMachineDeploymentStrategyType,
								RollingUpdate: clusterv1.MachineDeploymentTopologyRolloutStrategyRollingUpdate{
									MaxUnavailable: intOrString("0"),
									MaxSurge:       intOrString("25%"),
								},
							},
						},
						Variables: clusterv1.MachineDeploymentVariables{
							Overrides: []clusterv1.ClusterVariable{{Name: "workerImage", Value: jsonValue("kindest/node:" + ToVersion)}},
						},
					}},
					MachinePools: []clusterv1.MachinePoolTopology{{
						Metadata: clusterv1.ObjectMeta{
							Labels:      map[string]string{"tier": "pool"},
							Annotations: map[string]string{"capi-interop.example.com/mp": "mp-0"},
						},
						Class:          "default-pool",
						Name:           "mp-0",
						FailureDomains: []string{"fd-1", "fd-2"},
						Deletion: clusterv1.MachinePoolTopologyMachineDeletionSpec{
							NodeDrainTimeoutSeconds:        ptr(int32(300)),
							NodeVolumeDetachTimeoutSeconds: ptr(int32(300)),
							NodeDeletionTimeoutSeconds:     ptr(int32(10)),
						},
						Taints: []clusterv1.MachineTaint{
							{Key: "pool", Value: "mp-0", Effect: corev1.TaintEffectNoExecute, Propagation: clusterv1.MachineTaintPropagationAlways},
						},
						MinReadySeconds: ptr(int32(10)),
						Replicas:        ptr(int32(1)),
						Variables: clusterv1.MachinePoolVariables{
							Overrides: []clusterv1.ClusterVariable{{Name: "workerImage", Value: jsonValue("kindest/node:" + FromVersion)}},
						},
					}},
				},
				Variables: []clusterv1.ClusterVariable{
					{Name: "imageRepository", Value: jsonValue("registry.k8s.io")},
					{Name: "kubeadmControlPlaneMaxSurge", Value: jsonValue("0")},
					{Name: "files", Value: jsonValue([]map[string]string{{"path": "/etc/interop.conf", "content": "mode=interop"}})},
					{Name: "nodeLabels", Value: jsonValue(map[string]string{"zone": "a", "spot": "false", "weight": "3"})},
				},
			},
			AvailabilityGates: []clusterv1.ClusterAvailabilityGate{
				{ConditionType: "ExternalDNSReady", Polarity: clusterv1.PositivePolarityCondition},
			},
		},
	}
}

// machineSpec returns a Machine spec for the given Kubernetes version.
func machineSpec(name, version string) clusterv1.MachineSpec {
	return clusterv1.MachineSpec{
		ClusterName: ClusterName,
		Bootstrap: clusterv1.Bootstrap{
			ConfigRef:      clusterv1.ContractVersionedObjectReference{Kind: "KubeadmConfig", Name: name, APIGroup: bootstrapGroup},
			DataSecretName: ptr(name),
		},
		InfrastructureRef: clusterv1.ContractVersionedObjectReference{Kind: "DockerMachine", Name: name, APIGroup: infraGroup},
		Version:           version,
		ProviderID:        "docker:////" + name,
		FailureDomain:     "fd-1",
		MinReadySeconds:   ptr(int32(5)),
		ReadinessGates: []clusterv1.MachineReadinessGate{
			{ConditionType: "APIServerPodHealthy", Polarity: clusterv1.PositivePolarityCondition},
		},
		Deletion: clusterv1.MachineDeletionSpec{
			NodeDrainTimeoutSeconds:        ptr(int32(300)),
			NodeVolumeDetachTimeoutSeconds: ptr(int32(120)),
			NodeDeletionTimeoutSeconds:     ptr(int32(10)),
		},
		Taints: []clusterv1.MachineTaint{
			{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule, Propagation: clusterv1.MachineTaintPropagationOnInitialization},
		},
	}
}

// MachineName is the name of the sample (control plane) Machine of the in-place hooks.
const MachineName = ClusterName + "-x7k2p-4hv8m"

// Machine returns a cleaned Machine (apiVersion, kind, metadata name/namespace/labels/annotations, spec),
// as sent by CAPI in CanUpdateMachine / UpdateMachine requests.
func Machine(version string) clusterv1.Machine {
	return clusterv1.Machine{
		TypeMeta: metav1.TypeMeta{Kind: "Machine", APIVersion: clusterv1.GroupVersion.String()},
		ObjectMeta: metav1.ObjectMeta{
			Name:      MachineName,
			Namespace: ClusterNamespace,
			Labels: map[string]string{
				"cluster.x-k8s.io/cluster-name":  ClusterName,
				"cluster.x-k8s.io/control-plane": "",
			},
			Annotations: map[string]string{"controlplane.cluster.x-k8s.io/kubeadm-cluster-configuration": "{}"},
		},
		Spec: machineSpec(MachineName, version),
	}
}

func objectMetadata(name string) map[string]any {
	return map[string]any{
		"name":        name,
		"namespace":   ClusterNamespace,
		"labels":      map[string]string{"cluster.x-k8s.io/cluster-name": ClusterName},
		"annotations": map[string]string{"cluster.x-k8s.io/cloned-from-name": name + "-template"},
	}
}

// DockerMachine returns a cleaned infrastructure machine.
func DockerMachine(version string) runtime.RawExtension {
	return rawObject(map[string]any{
		"apiVersion": infraAPI,
		"kind":       "DockerMachine",
		"metadata":   objectMetadata(MachineName),
		"spec": map[string]any{
			"customImage":      "kindest/node:" + version,
			"bootstrapTimeout": "3m0s",
			"providerID":       "docker:////" + MachineName,
			"extraMounts":      []map[string]any{{"containerPath": "/var/run/docker.sock", "hostPath": "/var/run/docker.sock"}},
		},
	})
}

// KubeadmConfig returns a cleaned bootstrap config.
func KubeadmConfig(etcdTag string) runtime.RawExtension {
	return rawObject(map[string]any{
		"apiVersion": bootstrapAPI,
		"kind":       "KubeadmConfig",
		"metadata":   objectMetadata(MachineName),
		"spec": map[string]any{
			"clusterConfiguration": map[string]any{
				"etcd": map[string]any{"local": map[string]any{"imageTag": etcdTag}},
			},
			"files": []map[string]any{{"path": "/etc/interop.conf", "content": "etcd=" + etcdTag, "permissions": "0644"}},
		},
	})
}

// MachineSetName is the name of the sample MachineSet of CanUpdateMachineSet.
const MachineSetName = ClusterName + "-md-0-9b2xk"

// MachineSet returns a cleaned MachineSet for the given version.
func MachineSet(version string) clusterv1.MachineSet {
	spec := machineSpec(MachineSetName, version)
	spec.ProviderID = ""
	spec.Bootstrap.DataSecretName = nil
	spec.Bootstrap.ConfigRef = clusterv1.ContractVersionedObjectReference{Kind: "KubeadmConfigTemplate", Name: MachineSetName, APIGroup: bootstrapGroup}
	spec.InfrastructureRef = clusterv1.ContractVersionedObjectReference{Kind: "DockerMachineTemplate", Name: MachineSetName, APIGroup: infraGroup}
	spec.Taints = []clusterv1.MachineTaint{{Key: "dedicated", Value: "interop", Effect: corev1.TaintEffectPreferNoSchedule, Propagation: clusterv1.MachineTaintPropagationAlways}}
	selector := map[string]string{
		"cluster.x-k8s.io/cluster-name":             ClusterName,
		"cluster.x-k8s.io/deployment-name":          ClusterName + "-md-0",
		"machine-template-hash":                     "2746193",
		"topology.cluster.x-k8s.io/deployment-name": "md-0",
	}
	return clusterv1.MachineSet{
		TypeMeta: metav1.TypeMeta{Kind: "MachineSet", APIVersion: clusterv1.GroupVersion.String()},
		ObjectMeta: metav1.ObjectMeta{
			Name:        MachineSetName,
			Namespace:   ClusterNamespace,
			Labels:      selector,
			Annotations: map[string]string{"machinedeployment.clusters.x-k8s.io/revision": "4"},
		},
		Spec: clusterv1.MachineSetSpec{
			ClusterName: ClusterName,
			Replicas:    ptr(int32(2)),
			Selector: metav1.LabelSelector{
				MatchLabels: selector,
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"worker"}},
				},
			},
			Template: clusterv1.MachineTemplateSpec{
				ObjectMeta: clusterv1.ObjectMeta{
					Labels:      map[string]string{"tier": "worker", "cluster.x-k8s.io/cluster-name": ClusterName},
					Annotations: map[string]string{"capi-interop.example.com/md": "md-0"},
				},
				Spec: spec,
			},
			MachineNaming: clusterv1.MachineNamingSpec{Template: "{{ .machineSet.name }}-{{ .random }}"},
			Deletion:      clusterv1.MachineSetDeletionSpec{Order: clusterv1.OldestMachineSetDeletionOrder},
		},
	}
}

// DockerMachineTemplate returns a cleaned infrastructure machine template.
func DockerMachineTemplate(version string) runtime.RawExtension {
	return rawObject(map[string]any{
		"apiVersion": infraAPI,
		"kind":       "DockerMachineTemplate",
		"metadata":   objectMetadata(MachineSetName),
		"spec": map[string]any{
			"template": map[string]any{"spec": map[string]any{"customImage": "kindest/node:" + version, "bootstrapTimeout": "3m0s"}},
		},
	})
}

// KubeadmConfigTemplate returns a cleaned bootstrap config template.
func KubeadmConfigTemplate(etcdTag string) runtime.RawExtension {
	return rawObject(map[string]any{
		"apiVersion": bootstrapAPI,
		"kind":       "KubeadmConfigTemplate",
		"metadata":   objectMetadata(MachineSetName),
		"spec": map[string]any{
			"template": map[string]any{"spec": map[string]any{
				"clusterConfiguration": map[string]any{"etcd": map[string]any{"local": map[string]any{"imageTag": etcdTag}}},
				"joinConfiguration":    map[string]any{"nodeRegistration": map[string]any{"kubeletExtraArgs": []map[string]string{{"name": "eviction-hard", "value": "nodefs.available<0%"}}}},
			}},
		},
	})
}
