package samples

import (
	"encoding/json"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/types"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// Builtins returns the value of the `builtin` variable with every field set.
func Builtins() runtimehooksv1.Builtins {
	return runtimehooksv1.Builtins{
		Cluster: &runtimehooksv1.ClusterBuiltins{
			Name:      ClusterName,
			Namespace: ClusterNamespace,
			UID:       ClusterUID,
			Metadata: &runtimehooksv1.ObjectMeta{
				Labels:      clusterLabels(),
				Annotations: map[string]string{"capi-interop.example.com/owner": "team-runtime"},
			},
			Topology: &runtimehooksv1.ClusterTopologyBuiltins{
				Version:        ToVersion,
				ClassRef:       runtimehooksv1.ClusterTopologyClusterClassRefBuiltins{Name: ClusterClassName, Namespace: ClusterNamespace},
				Class:          ClusterClassName,
				ClassNamespace: ClusterNamespace,
			},
			Network: &runtimehooksv1.ClusterNetworkBuiltins{
				ServiceDomain: ptr("cluster.local"),
				Services:      []string{"10.128.0.0/12"},
				Pods:          []string{"192.168.0.0/16", "fd00:100:96::/48"},
			},
		},
		ControlPlane: &runtimehooksv1.ControlPlaneBuiltins{
			Version: ToVersion,
			Metadata: &runtimehooksv1.ObjectMeta{
				Labels:      map[string]string{"tier": "control-plane"},
				Annotations: map[string]string{"capi-interop.example.com/cp": "true"},
			},
			Name:     ClusterName + "-x7k2p",
			Replicas: ptr(int32(3)),
			MachineTemplate: &runtimehooksv1.ControlPlaneMachineTemplateBuiltins{
				InfrastructureRef: runtimehooksv1.ControlPlaneMachineTemplateInfrastructureRefBuiltins{Name: ClusterName + "-control-plane-m5sdz"},
			},
		},
		MachineDeployment: &runtimehooksv1.MachineDeploymentBuiltins{
			Version: ToVersion,
			Metadata: &runtimehooksv1.ObjectMeta{
				Labels:      map[string]string{"tier": "worker"},
				Annotations: map[string]string{"capi-interop.example.com/md": "md-0"},
			},
			Class:             "default-worker",
			Name:              ClusterName + "-md-0-wr8lj",
			TopologyName:      "md-0",
			Replicas:          ptr(int64(2)),
			Bootstrap:         &runtimehooksv1.MachineBootstrapBuiltins{ConfigRef: &runtimehooksv1.MachineBootstrapConfigRefBuiltins{Name: ClusterName + "-md-0-bootstrap-7fq2c"}},
			InfrastructureRef: &runtimehooksv1.MachineInfrastructureRefBuiltins{Name: ClusterName + "-md-0-infra-zk4bn"},
		},
		MachinePool: &runtimehooksv1.MachinePoolBuiltins{
			Version: FromVersion,
			Metadata: &runtimehooksv1.ObjectMeta{
				Labels:      map[string]string{"tier": "pool"},
				Annotations: map[string]string{"capi-interop.example.com/mp": "mp-0"},
			},
			Class:             "default-pool",
			Name:              ClusterName + "-mp-0-h2xcv",
			TopologyName:      "mp-0",
			Replicas:          ptr(int64(1)),
			Bootstrap:         &runtimehooksv1.MachineBootstrapBuiltins{ConfigRef: &runtimehooksv1.MachineBootstrapConfigRefBuiltins{Name: ClusterName + "-mp-0-bootstrap-b8t5p"}},
			InfrastructureRef: &runtimehooksv1.MachineInfrastructureRefBuiltins{Name: ClusterName + "-mp-0-infra-l3rw6"},
		},
	}
}

// builtinVariable builds the `builtin` variable; only the given parts of Builtins are kept, as CAPI does
// (global variables carry cluster, template variables carry controlPlane / machineDeployment / machinePool).
func builtinVariable(parts ...string) runtimehooksv1.Variable {
	all := Builtins()
	var b runtimehooksv1.Builtins
	for _, p := range parts {
		switch p {
		case "cluster":
			b.Cluster = all.Cluster
		case "controlPlane":
			b.ControlPlane = all.ControlPlane
		case "machineDeployment":
			b.MachineDeployment = all.MachineDeployment
		case "machinePool":
			b.MachinePool = all.MachinePool
		}
	}
	return runtimehooksv1.Variable{Name: runtimehooksv1.BuiltinsName, Value: jsonValue(b)}
}

func globalVariables() []runtimehooksv1.Variable {
	return []runtimehooksv1.Variable{
		builtinVariable("cluster"),
		{Name: "imageRepository", Value: jsonValue("registry.k8s.io")},
		{Name: "files", Value: jsonValue([]map[string]string{{"path": "/etc/interop.conf", "content": "mode=interop"}})},
		{Name: "nodeLabels", Value: jsonValue(map[string]string{"zone": "a", "spot": "false", "weight": "3"})},
	}
}

type templateItem struct {
	uid       types.UID
	holder    runtimehooksv1.HolderReference
	object    map[string]any
	variables []runtimehooksv1.Variable
}

func templateMeta(name string) map[string]any {
	return map[string]any{
		"name":        name,
		"namespace":   ClusterNamespace,
		"labels":      map[string]string{"cluster.x-k8s.io/cluster-name": ClusterName, "topology.cluster.x-k8s.io/owned": ""},
		"annotations": map[string]string{"capi-interop.example.com/template": "true"},
	}
}

// templateItems are the templates of the sample Cluster's topology, one per holder kind CAPI patches.
func templateItems() []templateItem {
	return []templateItem{
		{
			uid: "7091de79-e26c-4af5-8be3-071bc4b102c9",
			holder: runtimehooksv1.HolderReference{
				APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: ClusterNamespace, Name: ClusterName, FieldPath: "spec.infrastructureRef",
			},
			object: map[string]any{
				"apiVersion": infraAPI, "kind": "DockerClusterTemplate", "metadata": templateMeta(ClusterName + "-q9v4d"),
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
					"loadBalancer": map[string]any{"imageRepository": "kindest", "imageTag": "v20230510-486859a6"},
				}}},
			},
		},
		{
			uid: "1c5e4a7d-56b2-4a8f-9a44-0f8fbd5a2f6e",
			holder: runtimehooksv1.HolderReference{
				APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: ClusterNamespace, Name: ClusterName, FieldPath: "spec.controlPlaneRef",
			},
			object: map[string]any{
				"apiVersion": cpAPI, "kind": "KubeadmControlPlaneTemplate", "metadata": templateMeta(ClusterName + "-x7k2p"),
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
					"kubeadmConfigSpec": map[string]any{"clusterConfiguration": map[string]any{"imageRepository": "registry.k8s.io"}},
					"rollout":           map[string]any{"strategy": map[string]any{"rollingUpdate": map[string]any{"maxSurge": 1}}},
				}}},
			},
			variables: []runtimehooksv1.Variable{builtinVariable("controlPlane"), {Name: "kubeadmControlPlaneMaxSurge", Value: jsonValue("1")}},
		},
		{
			uid: "e3b0a9a4-2f1e-4c21-8d27-55b3f6d0c8a1",
			holder: runtimehooksv1.HolderReference{
				APIVersion: cpAPI, Kind: "KubeadmControlPlane", Namespace: ClusterNamespace, Name: ClusterName + "-x7k2p", FieldPath: "spec.machineTemplate.spec.infrastructureRef",
			},
			object: map[string]any{
				"apiVersion": infraAPI, "kind": "DockerMachineTemplate", "metadata": templateMeta(ClusterName + "-control-plane-m5sdz"),
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"customImage": "kindest/node:" + FromVersion}}},
			},
			variables: []runtimehooksv1.Variable{builtinVariable("controlPlane")},
		},
		{
			uid: "5f2d8c3b-9e47-4b6a-a1d0-3c7e9f1b2a48",
			holder: runtimehooksv1.HolderReference{
				APIVersion: clusterv1.GroupVersion.String(), Kind: "MachineDeployment", Namespace: ClusterNamespace, Name: ClusterName + "-md-0-wr8lj", FieldPath: "spec.template.spec.bootstrap.configRef",
			},
			object: map[string]any{
				"apiVersion": bootstrapAPI, "kind": "KubeadmConfigTemplate", "metadata": templateMeta(ClusterName + "-md-0-bootstrap-7fq2c"),
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
					"joinConfiguration": map[string]any{"nodeRegistration": map[string]any{"kubeletExtraArgs": []map[string]string{{"name": "v", "value": "2"}}}},
				}}},
			},
			variables: []runtimehooksv1.Variable{builtinVariable("machineDeployment"), {Name: "workerImage", Value: jsonValue("kindest/node:" + ToVersion)}},
		},
		{
			uid: "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
			holder: runtimehooksv1.HolderReference{
				APIVersion: clusterv1.GroupVersion.String(), Kind: "MachinePool", Namespace: ClusterNamespace, Name: ClusterName + "-mp-0-h2xcv", FieldPath: "spec.template.spec.infrastructureRef",
			},
			object: map[string]any{
				"apiVersion": infraAPI, "kind": "DockerMachinePoolTemplate", "metadata": templateMeta(ClusterName + "-mp-0-infra-l3rw6"),
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"template": map[string]any{"customImage": "kindest/node:" + FromVersion}}}},
			},
			variables: []runtimehooksv1.Variable{builtinVariable("machinePool")},
		},
	}
}

// GeneratePatchesRequest returns the sample request: global variables (incl. `builtin`) and one item per template.
func GeneratePatchesRequest() *runtimehooksv1.GeneratePatchesRequest {
	req := &runtimehooksv1.GeneratePatchesRequest{
		TypeMeta:      requestTypeMeta("GeneratePatches"),
		CommonRequest: runtimehooksv1.CommonRequest{Settings: Settings()},
		Variables:     globalVariables(),
	}
	for _, t := range templateItems() {
		req.Items = append(req.Items, runtimehooksv1.GeneratePatchesRequestItem{
			UID: t.uid, HolderReference: t.holder, Object: rawObject(t.object), Variables: t.variables,
		})
	}
	return req
}

// imageFromVariables returns the string value of a variable (template variables win over global ones).
func stringVariable(name string, lists ...[]runtimehooksv1.Variable) (string, bool) {
	value, found := "", false
	for _, vars := range lists {
		for _, v := range vars {
			if v.Name != name {
				continue
			}
			var s string
			if err := json.Unmarshal(v.Value.Raw, &s); err == nil {
				value, found = s, true
			}
		}
	}
	return value, found
}

func versionFromBuiltin(lists ...[]runtimehooksv1.Variable) string {
	version := ""
	for _, vars := range lists {
		for _, v := range vars {
			if v.Name != runtimehooksv1.BuiltinsName {
				continue
			}
			var b runtimehooksv1.Builtins
			if err := json.Unmarshal(v.Value.Raw, &b); err != nil {
				continue
			}
			switch {
			case b.ControlPlane != nil && b.ControlPlane.Version != "":
				version = b.ControlPlane.Version
			case b.MachineDeployment != nil && b.MachineDeployment.Version != "":
				version = b.MachineDeployment.Version
			case b.MachinePool != nil && b.MachinePool.Version != "":
				version = b.MachinePool.Version
			case b.Cluster != nil && b.Cluster.Topology != nil && version == "":
				version = b.Cluster.Topology.Version
			}
		}
	}
	if version == "" {
		version = ToVersion
	}
	return version
}

// PatchFor computes the deterministic patch the capi-interop extension returns for one template:
// a JSON Patch (RFC 6902) for every kind except DockerMachinePoolTemplate, which gets a JSON merge patch.
func PatchFor(object []byte, global, local []runtimehooksv1.Variable) (runtimehooksv1.PatchType, []byte) {
	var meta struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(object, &meta)
	version := versionFromBuiltin(global, local)
	repo, ok := stringVariable("imageRepository", global, local)
	if !ok {
		repo = "registry.k8s.io"
	}
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	switch meta.Kind {
	case "DockerClusterTemplate":
		return runtimehooksv1.JSONPatchType, mustJSON([]op{{"replace", "/spec/template/spec/loadBalancer/imageRepository", repo}})
	case "KubeadmControlPlaneTemplate":
		surge, _ := stringVariable("kubeadmControlPlaneMaxSurge", global, local)
		ops := []op{{"replace", "/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository", repo}}
		if surge != "" {
			ops = append(ops, op{"replace", "/spec/template/spec/rollout/strategy/rollingUpdate/maxSurge", surge})
		}
		return runtimehooksv1.JSONPatchType, mustJSON(ops)
	case "DockerMachineTemplate":
		return runtimehooksv1.JSONPatchType, mustJSON([]op{{"replace", "/spec/template/spec/customImage", "kindest/node:" + version}})
	case "KubeadmConfigTemplate":
		return runtimehooksv1.JSONPatchType, mustJSON([]op{{"add", "/spec/template/spec/joinConfiguration/nodeRegistration/kubeletExtraArgs/-", map[string]string{"name": "node-labels", "value": "capi-interop=" + version}}})
	case "DockerMachinePoolTemplate":
		return runtimehooksv1.JSONMergePatchType, mustJSON(map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"template": map[string]any{"customImage": "kindest/node:" + version}}}}})
	default:
		return runtimehooksv1.JSONPatchType, mustJSON([]op{{"add", "/metadata/annotations/capi-interop.example.com~1patched", "true"}})
	}
}

// GeneratePatchesResponseFor answers a GeneratePatches request with one patch per request item uid.
func GeneratePatchesResponseFor(req *runtimehooksv1.GeneratePatchesRequest) *runtimehooksv1.GeneratePatchesResponse {
	resp := &runtimehooksv1.GeneratePatchesResponse{}
	resp.Status = runtimehooksv1.ResponseStatusSuccess
	resp.Message = "generated patches for " + itoa(len(req.Items)) + " templates"
	for _, item := range req.Items {
		patchType, patch := PatchFor(item.Object.Raw, req.Variables, item.Variables)
		resp.Items = append(resp.Items, runtimehooksv1.GeneratePatchesResponseItem{UID: item.UID, PatchType: patchType, Patch: patch})
	}
	return resp
}

// GeneratePatchesResponse is the response to GeneratePatchesRequest().
func GeneratePatchesResponse() *runtimehooksv1.GeneratePatchesResponse {
	return GeneratePatchesResponseFor(GeneratePatchesRequest())
}

// ValidateTopologyRequest returns the sample request: the (patched) templates, without uids.
func ValidateTopologyRequest() *runtimehooksv1.ValidateTopologyRequest {
	req := &runtimehooksv1.ValidateTopologyRequest{
		TypeMeta:      requestTypeMeta("ValidateTopology"),
		CommonRequest: runtimehooksv1.CommonRequest{Settings: Settings()},
		Variables:     globalVariables(),
	}
	for _, t := range templateItems() {
		req.Items = append(req.Items, &runtimehooksv1.ValidateTopologyRequestItem{
			HolderReference: t.holder, Object: rawObject(t.object), Variables: t.variables,
		})
	}
	return req
}

// ValidateTopologyResponse is the sample answer (a validation failure, so message is meaningful).
func ValidateTopologyResponse() *runtimehooksv1.ValidateTopologyResponse {
	resp := &runtimehooksv1.ValidateTopologyResponse{}
	resp.Status = runtimehooksv1.ResponseStatusFailure
	resp.Message = "variable kubeadmControlPlaneMaxSurge: must be an integer or a percentage"
	return resp
}

// DiscoverVariablesRequest returns the sample request (settings only).
func DiscoverVariablesRequest() *runtimehooksv1.DiscoverVariablesRequest {
	return &runtimehooksv1.DiscoverVariablesRequest{
		TypeMeta:      requestTypeMeta("DiscoverVariables"),
		CommonRequest: runtimehooksv1.CommonRequest{Settings: Settings()},
	}
}

func js(v any) *apiextensionsv1.JSON {
	j := jsonValue(v)
	return &j
}

// Variables returns the ClusterClass variables the capi-interop extension discovers; together they use every
// field of JSONSchemaProps.
func Variables() []clusterv1.ClusterClassVariable {
	return []clusterv1.ClusterClassVariable{
		{
			Name:     "imageRepository",
			Required: ptr(true),
			DeprecatedV1Beta1Metadata: clusterv1.ClusterClassVariableMetadata{
				Labels:      map[string]string{"capi-interop.example.com/category": "images"},
				Annotations: map[string]string{"capi-interop.example.com/doc": "registry for control plane images"},
			},
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Description: "imageRepository sets the container registry to pull images from.",
				Example:     js("registry.example.com/k8s"),
				Type:        "string",
				MinLength:   ptr(int64(1)),
				MaxLength:   ptr(int64(256)),
				Pattern:     `^[a-z0-9.\-/:]+$`,
				Default:     js("registry.k8s.io"),
				XMetadata: clusterv1.VariableSchemaMetadata{
					Labels:      map[string]string{"capi-interop.example.com/ui": "text"},
					Annotations: map[string]string{"capi-interop.example.com/hint": "no trailing slash"},
				},
			}},
		},
		{
			Name:     "kubeadmControlPlaneMaxSurge",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Description: "kubeadmControlPlaneMaxSurge is the maximum number of control plane machines above the desired count during a rollout.",
				Type:        "string",
				Default:     js(""),
				Example:     js("1"),
				XValidations: []clusterv1.ValidationRule{{
					Rule:    "self == '' || self.matches('^[0-9]+%?$')",
					Message: "value must be an integer or a percentage",
				}},
			}},
		},
		{
			Name:     "files",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Description: "files are written to every node before kubeadm runs.",
				Type:        "array",
				MinItems:    ptr(int64(0)),
				MaxItems:    ptr(int64(16)),
				UniqueItems: ptr(false),
				Items: &clusterv1.JSONSchemaProps{
					Type:     "object",
					Required: []string{"path", "content"},
					Properties: map[string]clusterv1.JSONSchemaProps{
						"path":        {Type: "string", MinLength: ptr(int64(1))},
						"content":     {Type: "string", MaxLength: ptr(int64(10240))},
						"permissions": {Type: "string", Enum: []apiextensionsv1.JSON{jsonValue("0644"), jsonValue("0600"), jsonValue("0755")}},
					},
				},
			}},
		},
		{
			Name:     "nodeLabels",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Description:            "nodeLabels are opaque labels passed to the kubelet.",
				Type:                   "object",
				MinProperties:          ptr(int64(1)),
				MaxProperties:          ptr(int64(32)),
				AdditionalProperties:   &clusterv1.JSONSchemaProps{Type: "string", MaxLength: ptr(int64(63))},
				XPreserveUnknownFields: ptr(true),
				XValidations: []clusterv1.ValidationRule{{
					Rule:              "!has(self.zone) || self.zone in ['a', 'b', 'c']",
					MessageExpression: "'unknown zone ' + self.zone",
					Reason:            clusterv1.FieldValueInvalid,
					FieldPath:         ".zone",
				}},
			}},
		},
		{
			Name:     "controlPlaneReplicas",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Type:             "integer",
				Format:           "int32",
				Minimum:          ptr(int64(0)),
				ExclusiveMinimum: ptr(true),
				Maximum:          ptr(int64(7)),
				ExclusiveMaximum: ptr(false),
				Enum:             []apiextensionsv1.JSON{jsonValue(1), jsonValue(3), jsonValue(5), jsonValue(7)},
				Default:          js(3),
			}},
		},
		{
			Name:     "workerMaxSurge",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				XIntOrString: ptr(true),
				AnyOf:        []clusterv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}},
			}},
		},
		{
			Name:     "workerImage",
			Required: ptr(false),
			Schema: clusterv1.VariableSchema{OpenAPIV3Schema: clusterv1.JSONSchemaProps{
				Type:  "string",
				AllOf: []clusterv1.JSONSchemaProps{{MinLength: ptr(int64(3))}, {MaxLength: ptr(int64(512))}},
				OneOf: []clusterv1.JSONSchemaProps{{Pattern: "^kindest/"}, {Pattern: "^registry\\.k8s\\.io/"}},
				Not:   &clusterv1.JSONSchemaProps{Pattern: ":latest$"},
			}},
		},
	}
}

// DiscoverVariablesResponse is the sample answer carrying Variables().
func DiscoverVariablesResponse() *runtimehooksv1.DiscoverVariablesResponse {
	resp := &runtimehooksv1.DiscoverVariablesResponse{Variables: Variables()}
	resp.Status = runtimehooksv1.ResponseStatusSuccess
	resp.Message = "discovered " + itoa(len(resp.Variables)) + " variables"
	return resp
}
