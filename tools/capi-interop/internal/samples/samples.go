// Package samples builds realistic, deterministic values of every Cluster API Runtime SDK v1alpha1 hook
// request and response, using CAPI's own Go types (sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1).
//
// Requests carry TypeMeta (kind/apiVersion) like CAPI's runtime client sets it; responses leave TypeMeta
// empty like CAPI's server SDK does. Every optional field of the hook types is populated.
package samples

import (
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// APIVersion is the apiVersion of every hook request/response.
var APIVersion = runtimehooksv1.GroupVersion.String()

func itoa(i int) string { return strconv.Itoa(i) }

func requestTypeMeta(hook string) metav1.TypeMeta {
	return metav1.TypeMeta{Kind: hook + "Request", APIVersion: APIVersion}
}

// Hook describes one v1alpha1 hook with constructors for its sample and zero request/response objects.
type Hook struct {
	// Name is the hook name (Go function name), e.g. "BeforeClusterCreate".
	Name string
	// Func is the hook marker function registered in CAPI's catalog.
	Func runtimecatalog.Hook
	// Request returns the sample request (TypeMeta set).
	Request func() runtime.Object
	// Response returns the sample response (TypeMeta empty).
	Response func() runtime.Object
	// NewRequest and NewResponse return zero objects of the hook's types.
	NewRequest  func() runtime.Object
	NewResponse func() runtime.Object
}

// Path returns the hook's HTTP path for a handler name ("" for Discovery), as CAPI's GVHToPath.
func (h Hook) Path(handler string) string {
	return runtimecatalog.GVHToPath(h.GVH(), handler)
}

// GVH returns the GroupVersionHook of the hook.
func (h Hook) GVH() runtimecatalog.GroupVersionHook {
	return runtimecatalog.GroupVersionHook{Group: runtimehooksv1.GroupVersion.Group, Version: runtimehooksv1.GroupVersion.Version, Hook: h.Name}
}

// FileName returns the fixture file name of the hook for direction "request" or "response".
func (h Hook) FileName(direction string) string {
	return strings.ToLower(h.Name) + "." + direction + ".json"
}

func hook[Req, Resp any, PReq interface {
	*Req
	runtime.Object
}, PResp interface {
	*Resp
	runtime.Object
}](fn func(PReq, PResp), req func() PReq, resp func() PResp) Hook {
	return Hook{
		Name:        runtimecatalog.HookName(fn),
		Func:        fn,
		Request:     func() runtime.Object { return req() },
		Response:    func() runtime.Object { return resp() },
		NewRequest:  func() runtime.Object { return PReq(new(Req)) },
		NewResponse: func() runtime.Object { return PResp(new(Resp)) },
	}
}

// Hooks returns all 17 v1alpha1 hooks in catalog documentation order.
func Hooks() []Hook {
	return []Hook{
		hook(runtimehooksv1.Discovery, DiscoveryRequest, DiscoveryResponse),
		hook(runtimehooksv1.BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse),
		hook(runtimehooksv1.AfterControlPlaneInitialized, AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse),
		hook(runtimehooksv1.BeforeClusterUpgrade, BeforeClusterUpgradeRequest, BeforeClusterUpgradeResponse),
		hook(runtimehooksv1.BeforeControlPlaneUpgrade, BeforeControlPlaneUpgradeRequest, BeforeControlPlaneUpgradeResponse),
		hook(runtimehooksv1.AfterControlPlaneUpgrade, AfterControlPlaneUpgradeRequest, AfterControlPlaneUpgradeResponse),
		hook(runtimehooksv1.BeforeWorkersUpgrade, BeforeWorkersUpgradeRequest, BeforeWorkersUpgradeResponse),
		hook(runtimehooksv1.AfterWorkersUpgrade, AfterWorkersUpgradeRequest, AfterWorkersUpgradeResponse),
		hook(runtimehooksv1.AfterClusterUpgrade, AfterClusterUpgradeRequest, AfterClusterUpgradeResponse),
		hook(runtimehooksv1.BeforeClusterDelete, BeforeClusterDeleteRequest, BeforeClusterDeleteResponse),
		hook(runtimehooksv1.GeneratePatches, GeneratePatchesRequest, GeneratePatchesResponse),
		hook(runtimehooksv1.ValidateTopology, ValidateTopologyRequest, ValidateTopologyResponse),
		hook(runtimehooksv1.DiscoverVariables, DiscoverVariablesRequest, DiscoverVariablesResponse),
		hook(runtimehooksv1.CanUpdateMachine, CanUpdateMachineRequest, CanUpdateMachineResponse),
		hook(runtimehooksv1.CanUpdateMachineSet, CanUpdateMachineSetRequest, CanUpdateMachineSetResponse),
		hook(runtimehooksv1.UpdateMachine, UpdateMachineRequest, UpdateMachineResponse),
		hook(runtimehooksv1.GenerateUpgradePlan, GenerateUpgradePlanRequest, GenerateUpgradePlanResponse),
	}
}

// Lookup returns the hook with the given name (case-sensitive, as CAPI's catalog).
func Lookup(name string) (Hook, bool) {
	for _, h := range Hooks() {
		if h.Name == name {
			return h, true
		}
	}
	return Hook{}, false
}

// ---------------------------------------------------------------------------------------------------------
// Discovery

// Handler is one extension handler served by the capi-interop extension.
type Handler struct {
	Hook           string
	Name           string
	TimeoutSeconds *int32
	FailurePolicy  *runtimehooksv1.FailurePolicy
}

// Names of the extra BeforeClusterCreate handlers of the capi-interop extension.
const (
	BlockingHandler = "blocking"
	FailingHandler  = "failing"
	SlowHandler     = "slow"

	BlockingRetryAfterSeconds = 30
	BlockingMessage           = "blocked by capi-interop"
	FailingMessage            = "failure from capi-interop"
)

// Handlers lists every handler of the capi-interop extension (names like CAPI's test extension plus
// blocking/failing/slow), with and without timeoutSeconds/failurePolicy.
func Handlers() []Handler {
	fail, ignore := runtimehooksv1.FailurePolicyFail, runtimehooksv1.FailurePolicyIgnore
	return []Handler{
		{Hook: "BeforeClusterCreate", Name: "before-cluster-create"},
		{Hook: "AfterControlPlaneInitialized", Name: "after-control-plane-initialized"},
		{Hook: "BeforeClusterUpgrade", Name: "before-cluster-upgrade"},
		{Hook: "BeforeControlPlaneUpgrade", Name: "before-control-plane-upgrade"},
		{Hook: "AfterControlPlaneUpgrade", Name: "after-control-plane-upgrade"},
		{Hook: "BeforeWorkersUpgrade", Name: "before-workers-upgrade"},
		{Hook: "AfterWorkersUpgrade", Name: "after-workers-upgrade"},
		{Hook: "AfterClusterUpgrade", Name: "after-cluster-upgrade"},
		{Hook: "BeforeClusterDelete", Name: "before-cluster-delete"},
		{Hook: "GeneratePatches", Name: "generate-patches"},
		{Hook: "ValidateTopology", Name: "validate-topology"},
		{Hook: "DiscoverVariables", Name: "discover-variables"},
		{Hook: "CanUpdateMachine", Name: "can-update-machine"},
		{Hook: "CanUpdateMachineSet", Name: "can-update-machineset"},
		{Hook: "UpdateMachine", Name: "update-machine"},
		{Hook: "GenerateUpgradePlan", Name: "generate-upgrade-plan"},
		{Hook: "BeforeClusterCreate", Name: BlockingHandler, TimeoutSeconds: ptr(int32(5))},
		{Hook: "BeforeClusterCreate", Name: FailingHandler, FailurePolicy: &fail},
		{Hook: "BeforeClusterCreate", Name: SlowHandler, TimeoutSeconds: ptr(int32(1)), FailurePolicy: &ignore},
	}
}

// DiscoveryRequest is the request CAPI sends: only TypeMeta.
func DiscoveryRequest() *runtimehooksv1.DiscoveryRequest {
	return &runtimehooksv1.DiscoveryRequest{TypeMeta: requestTypeMeta("Discovery")}
}

// DiscoveryResponse lists Handlers() (the Go server SDK answers with the same handlers, in map order and
// without message).
func DiscoveryResponse() *runtimehooksv1.DiscoveryResponse {
	resp := &runtimehooksv1.DiscoveryResponse{}
	resp.Status = runtimehooksv1.ResponseStatusSuccess
	resp.Message = "capi-interop serves " + itoa(len(Handlers())) + " handlers"
	for _, h := range Handlers() {
		resp.Handlers = append(resp.Handlers, runtimehooksv1.ExtensionHandler{
			Name:           h.Name,
			RequestHook:    runtimehooksv1.GroupVersionHook{APIVersion: APIVersion, Hook: h.Hook},
			TimeoutSeconds: h.TimeoutSeconds,
			FailurePolicy:  h.FailurePolicy,
		})
	}
	return resp
}

// ---------------------------------------------------------------------------------------------------------
// Lifecycle hooks

// The sample chained upgrade: control plane v1.31.6 -> v1.32.3 -> v1.33.0, workers follow each step.
const IntermediateVersion = "v1.32.3"

func steps(versions ...string) []runtimehooksv1.UpgradeStepInfo {
	out := make([]runtimehooksv1.UpgradeStepInfo, 0, len(versions))
	for _, v := range versions {
		out = append(out, runtimehooksv1.UpgradeStepInfo{Version: v})
	}
	return out
}

func commonRequest() runtimehooksv1.CommonRequest {
	return runtimehooksv1.CommonRequest{Settings: Settings()}
}

func retry(seconds int32, message string) runtimehooksv1.CommonRetryResponse {
	return runtimehooksv1.CommonRetryResponse{
		CommonResponse:    runtimehooksv1.CommonResponse{Status: runtimehooksv1.ResponseStatusSuccess, Message: message},
		RetryAfterSeconds: seconds,
	}
}

// BeforeClusterCreateRequest: CAPI calls it before the topology exists, so the Cluster has no
// infrastructureRef/controlPlaneRef/controlPlaneEndpoint yet.
func BeforeClusterCreateRequest() *runtimehooksv1.BeforeClusterCreateRequest {
	c := Cluster()
	c.Spec.InfrastructureRef.Kind, c.Spec.InfrastructureRef.Name, c.Spec.InfrastructureRef.APIGroup = "", "", ""
	c.Spec.ControlPlaneRef.Kind, c.Spec.ControlPlaneRef.Name, c.Spec.ControlPlaneRef.APIGroup = "", "", ""
	c.Spec.ControlPlaneEndpoint.Host, c.Spec.ControlPlaneEndpoint.Port = "", 0
	c.Generation, c.ResourceVersion = 1, "1287"
	return &runtimehooksv1.BeforeClusterCreateRequest{TypeMeta: requestTypeMeta("BeforeClusterCreate"), CommonRequest: commonRequest(), Cluster: c}
}

func BeforeClusterCreateResponse() *runtimehooksv1.BeforeClusterCreateResponse {
	return &runtimehooksv1.BeforeClusterCreateResponse{CommonRetryResponse: retry(30, "waiting for the load balancer to be provisioned")}
}

func AfterControlPlaneInitializedRequest() *runtimehooksv1.AfterControlPlaneInitializedRequest {
	return &runtimehooksv1.AfterControlPlaneInitializedRequest{TypeMeta: requestTypeMeta("AfterControlPlaneInitialized"), CommonRequest: commonRequest(), Cluster: Cluster()}
}

func AfterControlPlaneInitializedResponse() *runtimehooksv1.AfterControlPlaneInitializedResponse {
	return &runtimehooksv1.AfterControlPlaneInitializedResponse{CommonResponse: runtimehooksv1.CommonResponse{
		Status: runtimehooksv1.ResponseStatusSuccess, Message: "installed CNI and cloud provider add-ons",
	}}
}

func BeforeClusterUpgradeRequest() *runtimehooksv1.BeforeClusterUpgradeRequest {
	return &runtimehooksv1.BeforeClusterUpgradeRequest{
		TypeMeta: requestTypeMeta("BeforeClusterUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		FromKubernetesVersion: FromVersion, ToKubernetesVersion: ToVersion,
		ControlPlaneUpgrades: steps(IntermediateVersion, ToVersion), WorkersUpgrades: steps(IntermediateVersion, ToVersion),
	}
}

func BeforeClusterUpgradeResponse() *runtimehooksv1.BeforeClusterUpgradeResponse {
	return &runtimehooksv1.BeforeClusterUpgradeResponse{CommonRetryResponse: retry(60, "waiting for a backup of etcd")}
}

func BeforeControlPlaneUpgradeRequest() *runtimehooksv1.BeforeControlPlaneUpgradeRequest {
	return &runtimehooksv1.BeforeControlPlaneUpgradeRequest{
		TypeMeta: requestTypeMeta("BeforeControlPlaneUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		FromKubernetesVersion: FromVersion, ToKubernetesVersion: IntermediateVersion,
		ControlPlaneUpgrades: steps(IntermediateVersion, ToVersion), WorkersUpgrades: steps(IntermediateVersion, ToVersion),
	}
}

func BeforeControlPlaneUpgradeResponse() *runtimehooksv1.BeforeControlPlaneUpgradeResponse {
	return &runtimehooksv1.BeforeControlPlaneUpgradeResponse{CommonRetryResponse: retry(20, "waiting for a maintenance window")}
}

func AfterControlPlaneUpgradeRequest() *runtimehooksv1.AfterControlPlaneUpgradeRequest {
	return &runtimehooksv1.AfterControlPlaneUpgradeRequest{
		TypeMeta: requestTypeMeta("AfterControlPlaneUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		KubernetesVersion:    IntermediateVersion,
		ControlPlaneUpgrades: steps(ToVersion), WorkersUpgrades: steps(IntermediateVersion, ToVersion),
	}
}

func AfterControlPlaneUpgradeResponse() *runtimehooksv1.AfterControlPlaneUpgradeResponse {
	return &runtimehooksv1.AfterControlPlaneUpgradeResponse{CommonRetryResponse: retry(15, "waiting for add-ons to be upgraded")}
}

func BeforeWorkersUpgradeRequest() *runtimehooksv1.BeforeWorkersUpgradeRequest {
	return &runtimehooksv1.BeforeWorkersUpgradeRequest{
		TypeMeta: requestTypeMeta("BeforeWorkersUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		FromKubernetesVersion: FromVersion, ToKubernetesVersion: IntermediateVersion,
		ControlPlaneUpgrades: steps(ToVersion), WorkersUpgrades: steps(IntermediateVersion, ToVersion),
	}
}

func BeforeWorkersUpgradeResponse() *runtimehooksv1.BeforeWorkersUpgradeResponse {
	return &runtimehooksv1.BeforeWorkersUpgradeResponse{CommonRetryResponse: retry(10, "draining workloads off md-0")}
}

func AfterWorkersUpgradeRequest() *runtimehooksv1.AfterWorkersUpgradeRequest {
	return &runtimehooksv1.AfterWorkersUpgradeRequest{
		TypeMeta: requestTypeMeta("AfterWorkersUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		KubernetesVersion:    IntermediateVersion,
		ControlPlaneUpgrades: steps(ToVersion), WorkersUpgrades: steps(ToVersion),
	}
}

func AfterWorkersUpgradeResponse() *runtimehooksv1.AfterWorkersUpgradeResponse {
	return &runtimehooksv1.AfterWorkersUpgradeResponse{CommonRetryResponse: retry(5, "running conformance smoke tests")}
}

func AfterClusterUpgradeRequest() *runtimehooksv1.AfterClusterUpgradeRequest {
	return &runtimehooksv1.AfterClusterUpgradeRequest{
		TypeMeta: requestTypeMeta("AfterClusterUpgrade"), CommonRequest: commonRequest(), Cluster: Cluster(),
		KubernetesVersion: ToVersion,
	}
}

func AfterClusterUpgradeResponse() *runtimehooksv1.AfterClusterUpgradeResponse {
	return &runtimehooksv1.AfterClusterUpgradeResponse{CommonRetryResponse: retry(120, "holding the next upgrade until the soak period ends")}
}

func BeforeClusterDeleteRequest() *runtimehooksv1.BeforeClusterDeleteRequest {
	c := Cluster()
	c.DeletionTimestamp = ptr(timestamp(23))
	c.DeletionGracePeriodSeconds = ptr(int64(0))
	return &runtimehooksv1.BeforeClusterDeleteRequest{TypeMeta: requestTypeMeta("BeforeClusterDelete"), CommonRequest: commonRequest(), Cluster: c}
}

func BeforeClusterDeleteResponse() *runtimehooksv1.BeforeClusterDeleteResponse {
	return &runtimehooksv1.BeforeClusterDeleteResponse{CommonRetryResponse: retry(45, "waiting for persistent volumes to be released")}
}

// ---------------------------------------------------------------------------------------------------------
// In-place update hooks

const (
	fromEtcd = "3.5.16-0"
	toEtcd   = "3.5.21-0"
)

func CanUpdateMachineRequest() *runtimehooksv1.CanUpdateMachineRequest {
	return &runtimehooksv1.CanUpdateMachineRequest{
		TypeMeta: requestTypeMeta("CanUpdateMachine"), CommonRequest: commonRequest(),
		Current: runtimehooksv1.CanUpdateMachineRequestObjects{
			Machine: Machine(FromVersion), InfrastructureMachine: DockerMachine(FromVersion), BootstrapConfig: KubeadmConfig(fromEtcd),
		},
		Desired: runtimehooksv1.CanUpdateMachineRequestObjects{
			Machine: Machine(ToVersion), InfrastructureMachine: DockerMachine(ToVersion), BootstrapConfig: KubeadmConfig(toEtcd),
		},
	}
}

type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

func CanUpdateMachineResponse() *runtimehooksv1.CanUpdateMachineResponse {
	return &runtimehooksv1.CanUpdateMachineResponse{
		CommonResponse: runtimehooksv1.CommonResponse{Status: runtimehooksv1.ResponseStatusSuccess, Message: "version, image and etcd changes can be applied in place"},
		MachinePatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONPatchType,
			Patch:     mustJSON([]jsonPatchOp{{"replace", "/spec/version", ToVersion}}),
		},
		InfrastructureMachinePatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONMergePatchType,
			Patch:     mustJSON(map[string]any{"spec": map[string]any{"customImage": "kindest/node:" + ToVersion}}),
		},
		BootstrapConfigPatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONPatchType,
			Patch: mustJSON([]jsonPatchOp{
				{"replace", "/spec/clusterConfiguration/etcd/local/imageTag", toEtcd},
				{"replace", "/spec/files/0/content", "etcd=" + toEtcd},
			}),
		},
	}
}

func CanUpdateMachineSetRequest() *runtimehooksv1.CanUpdateMachineSetRequest {
	return &runtimehooksv1.CanUpdateMachineSetRequest{
		TypeMeta: requestTypeMeta("CanUpdateMachineSet"), CommonRequest: commonRequest(),
		Current: runtimehooksv1.CanUpdateMachineSetRequestObjects{
			MachineSet: MachineSet(FromVersion), InfrastructureMachineTemplate: DockerMachineTemplate(FromVersion), BootstrapConfigTemplate: KubeadmConfigTemplate(fromEtcd),
		},
		Desired: runtimehooksv1.CanUpdateMachineSetRequestObjects{
			MachineSet: MachineSet(ToVersion), InfrastructureMachineTemplate: DockerMachineTemplate(ToVersion), BootstrapConfigTemplate: KubeadmConfigTemplate(toEtcd),
		},
	}
}

func CanUpdateMachineSetResponse() *runtimehooksv1.CanUpdateMachineSetResponse {
	return &runtimehooksv1.CanUpdateMachineSetResponse{
		CommonResponse: runtimehooksv1.CommonResponse{Status: runtimehooksv1.ResponseStatusSuccess, Message: "template changes can be applied in place"},
		MachineSetPatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONPatchType,
			Patch:     mustJSON([]jsonPatchOp{{"replace", "/spec/template/spec/version", ToVersion}}),
		},
		InfrastructureMachineTemplatePatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONMergePatchType,
			Patch:     mustJSON(map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"customImage": "kindest/node:" + ToVersion}}}}),
		},
		BootstrapConfigTemplatePatch: runtimehooksv1.Patch{
			PatchType: runtimehooksv1.JSONPatchType,
			Patch:     mustJSON([]jsonPatchOp{{"replace", "/spec/template/spec/clusterConfiguration/etcd/local/imageTag", toEtcd}}),
		},
	}
}

func UpdateMachineRequest() *runtimehooksv1.UpdateMachineRequest {
	return &runtimehooksv1.UpdateMachineRequest{
		TypeMeta: requestTypeMeta("UpdateMachine"), CommonRequest: commonRequest(),
		Desired: runtimehooksv1.UpdateMachineRequestObjects{
			Machine: Machine(ToVersion), InfrastructureMachine: DockerMachine(ToVersion), BootstrapConfig: KubeadmConfig(toEtcd),
		},
	}
}

func UpdateMachineResponse() *runtimehooksv1.UpdateMachineResponse {
	return &runtimehooksv1.UpdateMachineResponse{CommonRetryResponse: retry(5, "Extension is updating Machine")}
}

// ---------------------------------------------------------------------------------------------------------
// GenerateUpgradePlan

func GenerateUpgradePlanRequest() *runtimehooksv1.GenerateUpgradePlanRequest {
	return &runtimehooksv1.GenerateUpgradePlanRequest{
		TypeMeta: requestTypeMeta("GenerateUpgradePlan"), CommonRequest: commonRequest(), Cluster: Cluster(),
		FromControlPlaneKubernetesVersion: FromVersion,
		FromWorkersKubernetesVersion:      FromWorkersVersion,
		ToKubernetesVersion:               ToVersion,
	}
}

// latestPatch is the version the plan uses for intermediate minors.
var latestPatch = map[int]string{29: "v1.29.14", 30: "v1.30.14", 31: "v1.31.10", 32: IntermediateVersion, 33: "v1.33.5", 34: "v1.34.1"}

func minorOf(version string) (int, bool) {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return 0, false
	}
	m, err := strconv.Atoi(parts[1])
	return m, err == nil
}

// UpgradePlanFor computes a deterministic plan: one control plane step per minor after
// fromControlPlaneKubernetesVersion up to toKubernetesVersion (intermediate minors use a fixed patch release),
// and the workers follow every control plane step.
func UpgradePlanFor(req *runtimehooksv1.GenerateUpgradePlanRequest) *runtimehooksv1.GenerateUpgradePlanResponse {
	resp := &runtimehooksv1.GenerateUpgradePlanResponse{}
	from, ok1 := minorOf(req.FromControlPlaneKubernetesVersion)
	to, ok2 := minorOf(req.ToKubernetesVersion)
	if !ok1 || !ok2 || to < from {
		resp.Status = runtimehooksv1.ResponseStatusFailure
		resp.Message = "cannot plan an upgrade from " + req.FromControlPlaneKubernetesVersion + " to " + req.ToKubernetesVersion
		return resp
	}
	for m := from + 1; m < to; m++ {
		v, ok := latestPatch[m]
		if !ok {
			v = "v1." + itoa(m) + ".0"
		}
		resp.ControlPlaneUpgrades = append(resp.ControlPlaneUpgrades, runtimehooksv1.UpgradeStep{Version: v})
	}
	if req.ToKubernetesVersion != req.FromControlPlaneKubernetesVersion {
		resp.ControlPlaneUpgrades = append(resp.ControlPlaneUpgrades, runtimehooksv1.UpgradeStep{Version: req.ToKubernetesVersion})
	}
	resp.WorkersUpgrades = append([]runtimehooksv1.UpgradeStep(nil), resp.ControlPlaneUpgrades...)
	resp.Status = runtimehooksv1.ResponseStatusSuccess
	resp.Message = "planned " + itoa(len(resp.ControlPlaneUpgrades)) + " control plane steps"
	return resp
}

func GenerateUpgradePlanResponse() *runtimehooksv1.GenerateUpgradePlanResponse {
	return UpgradePlanFor(GenerateUpgradePlanRequest())
}
