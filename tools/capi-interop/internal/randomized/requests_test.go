package randomized

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

const testSeed = 20260314

// perHookInTests random cases per hook and seed are checked (plus the large cases).
const perHookInTests = 40

func hookNames() []string {
	var out []string
	for _, h := range samples.Hooks() {
		out = append(out, h.Name)
	}
	return out
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEveryHookHasRequests(t *testing.T) {
	if n := len(hookNames()); n != 17 {
		t.Fatalf("expected 17 hooks, got %d", n)
	}
	for _, hook := range hookNames() {
		cases, err := Requests(hook, testSeed, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) != 2+len(LargeCases(hook)) {
			t.Errorf("%s: %d cases", hook, len(cases))
		}
		for _, c := range cases {
			h, _ := samples.Lookup(hook)
			if err := catalog.ValidateRequest(h.GVH(), c.Request); err != nil {
				t.Errorf("%s/%s: %v", hook, c.Name, err)
			}
			gvk := c.Request.GetObjectKind().GroupVersionKind()
			if gvk.Kind != hook+"Request" || gvk.GroupVersion() != runtimehooksv1.GroupVersion {
				t.Errorf("%s/%s: TypeMeta %v", hook, c.Name, gvk)
			}
		}
	}
	if _, err := Request("BeforeClusterCreate", testSeed, LargeVariables); err == nil {
		t.Error("a large case that does not apply must be an error")
	}
}

func TestLargeCasesPerHook(t *testing.T) {
	want := map[string][]string{
		"Discovery":           nil,
		"BeforeClusterCreate": {LargeLabels, LargeAnnotations, LargeSettings, LargeSettingValue, LargeTopologyVariables},
		"BeforeClusterUpgrade": {LargeLabels, LargeAnnotations, LargeSettings, LargeSettingValue, LargeTopologyVariables,
			LargeUpgradePlan},
		"GeneratePatches":     {LargeLabels, LargeAnnotations, LargeSettings, LargeSettingValue, LargeVariables},
		"DiscoverVariables":   {LargeSettings, LargeSettingValue},
		"CanUpdateMachineSet": {LargeLabels, LargeAnnotations, LargeSettings, LargeSettingValue},
		"GenerateUpgradePlan": {LargeLabels, LargeAnnotations, LargeSettings, LargeSettingValue, LargeTopologyVariables},
	}
	for hook, cases := range want {
		if got := LargeCases(hook); !reflect.DeepEqual(got, cases) {
			t.Errorf("%s: large cases %v, want %v", hook, got, cases)
		}
	}
}

// TestDeterminism: the same seed gives the same bytes, another seed other bytes, and a case does not depend on
// which other cases or hooks were generated.
func TestDeterminism(t *testing.T) {
	for _, hook := range hookNames() {
		a, err := Requests(hook, testSeed, 5)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Requests(hook, testSeed, 5)
		other, _ := Requests(hook, testSeed+1, 5)
		alone, _ := Request(hook, testSeed, "random-003")
		for i := range a {
			x, y := mustMarshal(t, a[i].Request), mustMarshal(t, b[i].Request)
			if !bytes.Equal(x, y) {
				t.Errorf("%s/%s differs between two runs with the same seed", hook, a[i].Name)
			}
			if hook != "Discovery" && bytes.Equal(x, mustMarshal(t, other[i].Request)) {
				t.Errorf("%s/%s is the same for another seed", hook, a[i].Name)
			}
		}
		if !bytes.Equal(mustMarshal(t, a[3].Request), mustMarshal(t, alone)) {
			t.Errorf("%s/random-003 depends on the other cases", hook)
		}
		if hook != "Discovery" && bytes.Equal(mustMarshal(t, a[0].Request), mustMarshal(t, a[1].Request)) {
			t.Errorf("%s: random-000 and random-001 are equal", hook)
		}
	}
}

// TestDecodesStrictly: every request decodes strictly into CAPI's Go type and re-marshals to the same bytes (what
// Cluster API's server SDK does with it), and stays under Cluster API's 20 MiB body limit.
func TestDecodesStrictly(t *testing.T) {
	forEachCase(t, func(t *testing.T, hook string, c Case, body []byte) {
		h, _ := samples.Lookup(hook)
		out := h.NewRequest()
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(out); err != nil {
			t.Fatalf("strict decode: %v", err)
		}
		if again := mustMarshal(t, out); !bytes.Equal(body, again) {
			t.Fatalf("re-marshalled bytes differ (%d vs %d bytes)", len(body), len(again))
		}
		if len(body) >= MaxBodyBytes {
			t.Fatalf("%d bytes, Cluster API's limit is %d", len(body), MaxBodyBytes)
		}
	})
}

func TestLargeCasesAreLarge(t *testing.T) {
	count := func(req runtime.Object) (labels, annotations int) {
		for _, m := range metas(req) {
			labels, annotations = max(labels, len(m.Labels)), max(annotations, len(m.Annotations))
		}
		return
	}
	for _, hook := range hookNames() {
		for _, name := range LargeCases(hook) {
			req, err := Request(hook, testSeed, name)
			if err != nil {
				t.Fatal(err)
			}
			body := mustMarshal(t, req)
			t.Logf("%s/%s: %d bytes", hook, name, len(body))
			if len(body) >= MaxBodyBytes {
				t.Errorf("%s/%s: %d bytes is over 20 MiB", hook, name, len(body))
			}
			labels, annotations := count(req)
			global, objects, itemVariables := topologyOf(req)
			switch name {
			case LargeLabels:
				if metas(req) != nil && labels != manyLabels {
					t.Errorf("%s/%s: %d labels", hook, name, labels)
				}
				if global != nil && !bytes.Contains(objects[0].Raw, []byte(fmt.Sprintf(`"l%d.example.com/label-%04d"`, (manyLabels-1)%7, manyLabels-1))) {
					t.Errorf("%s/%s: the template has not got the labels", hook, name)
				}
			case LargeAnnotations:
				if metas(req) != nil && annotations != manyAnnotations {
					t.Errorf("%s/%s: %d annotations", hook, name, annotations)
				}
				for _, m := range metas(req) {
					if errs := apivalidation.ValidateAnnotations(m.Annotations, field.NewPath("annotations")); len(errs) > 0 {
						t.Errorf("%s/%s: %v", hook, name, errs.ToAggregate())
					}
				}
			case LargeSettings, LargeSettingValue:
				settings := req.(runtimehooksv1.RequestObject).GetSettings()
				biggest := 0
				for _, v := range settings {
					biggest = max(biggest, len(v))
				}
				if name == LargeSettings && len(settings) != manySettings || name == LargeSettingValue && biggest != bigSettingBytes {
					t.Errorf("%s/%s: %d settings, the longest of %d bytes", hook, name, len(settings), biggest)
				}
			case LargeVariables:
				if len(*global) != manyVariables+1 || len(*itemVariables[0]) < manyVariables {
					t.Errorf("%s/%s: %d global and %d template variables", hook, name, len(*global), len(*itemVariables[0]))
				}
			case LargeTopologyVariables:
				if n := len(clusterOf(req).Spec.Topology.Variables); n != manyVariables {
					t.Errorf("%s/%s: %d variables", hook, name, n)
				}
			case LargeUpgradePlan:
				var plan struct {
					ControlPlaneUpgrades []runtimehooksv1.UpgradeStepInfo `json:"controlPlaneUpgrades"`
					WorkersUpgrades      []runtimehooksv1.UpgradeStepInfo `json:"workersUpgrades"`
				}
				_ = json.Unmarshal(body, &plan)
				if len(plan.ControlPlaneUpgrades) != longPlan || len(plan.WorkersUpgrades) != longPlan {
					t.Errorf("%s/%s: %d/%d steps", hook, name, len(plan.ControlPlaneUpgrades), len(plan.WorkersUpgrades))
				}
			}
		}
	}
}

// forEachCase runs check for every random (perHookInTests per hook, two seeds) and large case of every hook.
func forEachCase(t *testing.T, check func(t *testing.T, hook string, c Case, body []byte)) {
	for _, seed := range []int64{testSeed, 7} {
		for _, hook := range hookNames() {
			cases, err := Requests(hook, seed, perHookInTests)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%d/%s/%s", seed, hook, c.Name), func(t *testing.T) {
					check(t, hook, c, mustMarshal(t, c.Request))
				})
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------
// Validity: what the API server would have stored.

type crdSchema struct {
	validator  validation.SchemaValidator
	structural *structuralschema.Structural
}

var (
	crdOnce    sync.Once
	crdSchemas map[string]crdSchema
	crdErr     error
)

// capiModuleDir is where `go` keeps sigs.k8s.io/cluster-api (its CRDs are not in the api module).
func capiModuleDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/cluster-api").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m sigs.k8s.io/cluster-api: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("sigs.k8s.io/cluster-api is not in the module cache (go mod download sigs.k8s.io/cluster-api)")
	}
	return dir, nil
}

// loadCRDs reads the v1beta2 OpenAPI schemas of Cluster API's Cluster, Machine and MachineSet CRDs (v1.14.2).
func loadCRDs() (map[string]crdSchema, error) {
	crdOnce.Do(func() {
		dir, err := capiModuleDir()
		if err != nil {
			crdErr = err
			return
		}
		crdSchemas = map[string]crdSchema{}
		for kind, file := range map[string]string{"Cluster": "clusters", "Machine": "machines", "MachineSet": "machinesets"} {
			data, err := os.ReadFile(filepath.Join(dir, "core", "config", "crd", "bases", "cluster.x-k8s.io_"+file+".yaml"))
			if err != nil {
				crdErr = err
				return
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.Unmarshal(data, &crd); err != nil {
				crdErr = err
				return
			}
			for _, v := range crd.Spec.Versions {
				if v.Name != "v1beta2" {
					continue
				}
				internal := &apiextensions.JSONSchemaProps{}
				if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
					crdErr = err
					return
				}
				validator, _, err := validation.NewSchemaValidator(internal)
				if err != nil {
					crdErr = err
					return
				}
				structural, err := structuralschema.NewStructural(internal)
				if err != nil {
					crdErr = err
					return
				}
				crdSchemas[kind] = crdSchema{validator: validator, structural: structural}
			}
		}
	})
	return crdSchemas, crdErr
}

// reservedMachineConditions mirrors the CEL rule of unhealthyMachineConditions[].type (the one CEL rule of the
// specs; CEL is not evaluated here).
var reservedMachineConditions = sets.New("Ready", "Available", "HealthCheckSucceeded", "OwnerRemediated", "ExternallyRemediated")

// validateObject validates an embedded object like the API server: the CRD's OpenAPI schema, list-map keys and
// list-sets, object metadata, and the CEL rule of the CRDs.
func validateObject(kind string, obj any, meta *metav1.ObjectMeta) field.ErrorList {
	schemas, err := loadCRDs()
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	var u map[string]any
	if err := json.Unmarshal(mustJSON(obj), &u); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	s := schemas[kind]
	errs := validation.ValidateCustomResource(nil, u, s.validator)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, s.structural, u)...)
	errs = append(errs, apivalidation.ValidateObjectMetaAccessor(meta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	if kind == "Cluster" {
		topology := obj.(*clusterv1.Cluster).Spec.Topology
		checks := [][]clusterv1.UnhealthyMachineCondition{topology.ControlPlane.HealthCheck.Checks.UnhealthyMachineConditions}
		for _, md := range topology.Workers.MachineDeployments {
			checks = append(checks, md.HealthCheck.Checks.UnhealthyMachineConditions)
		}
		for _, list := range checks {
			for _, c := range list {
				if reservedMachineConditions.Has(c.Type) {
					errs = append(errs, field.Invalid(field.NewPath("spec", "topology"), c.Type, "reserved condition type"))
				}
			}
		}
	}
	return errs
}

var (
	semver     = regexp.MustCompile(`^v1\.\d+\.\d+$`)
	dnsLabelRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
)

func minorOf(v string) int {
	var minor, patch int
	_, _ = fmt.Sscanf(v, "v1.%d.%d", &minor, &patch)
	return minor
}

// checkPlan: versions are semver, strictly increasing.
func checkPlan(t *testing.T, what string, steps []runtimehooksv1.UpgradeStepInfo) {
	t.Helper()
	for i, s := range steps {
		if !semver.MatchString(s.Version) {
			t.Errorf("%s[%d]: version %q", what, i, s.Version)
		}
		if i > 0 && minorOf(s.Version) <= minorOf(steps[i-1].Version) {
			t.Errorf("%s: versions do not increase: %s after %s", what, s.Version, steps[i-1].Version)
		}
	}
}

// checkRaw: a raw object is a plausible Kubernetes object with apiVersion, kind, metadata.name and namespace.
func checkRaw(t *testing.T, what string, raw runtime.RawExtension) {
	t.Helper()
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name        string            `json:"name"`
			Namespace   string            `json:"namespace"`
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec map[string]any `json:"spec"`
	}
	if err := json.Unmarshal(raw.Raw, &obj); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !strings.Contains(obj.APIVersion, "/") || obj.Kind == "" || obj.Spec == nil {
		t.Errorf("%s: apiVersion %q kind %q spec %v", what, obj.APIVersion, obj.Kind, obj.Spec)
	}
	meta := &metav1.ObjectMeta{Name: obj.Metadata.Name, Namespace: obj.Metadata.Namespace, Labels: obj.Metadata.Labels, Annotations: obj.Metadata.Annotations}
	if errs := apivalidation.ValidateObjectMetaAccessor(meta, true, apivalidation.NameIsDNSSubdomain, field.NewPath(what, "metadata")); len(errs) > 0 {
		t.Errorf("%s: %v", what, errs.ToAggregate())
	}
}

func checkVariables(t *testing.T, what string, vars []runtimehooksv1.Variable) {
	t.Helper()
	names := sets.New[string]()
	for _, v := range vars {
		if v.Name == "" || names.Has(v.Name) || !json.Valid(v.Value.Raw) {
			t.Errorf("%s: variable %q (duplicate %v) value %s", what, v.Name, names.Has(v.Name), v.Value.Raw)
		}
		names.Insert(v.Name)
	}
	if len(vars) > 0 && vars[len(vars)-1].Name != runtimehooksv1.BuiltinsName && what == "variables" {
		t.Errorf("%s: the last global variable is %q, not builtin", what, vars[len(vars)-1].Name)
	}
}

// TestRequestsAreValid: every embedded Cluster, Machine and MachineSet passes the v1beta2 CRD validation of Cluster
// API v1.14.2 and Kubernetes' object metadata validation (names, label keys and values, annotation sizes,
// finalizers, owner references); versions, upgrade plans, templates and variables are well formed.
func TestRequestsAreValid(t *testing.T) {
	if _, err := loadCRDs(); err != nil {
		t.Fatalf("cannot load Cluster API's CRDs: %v", err)
	}
	forEachCase(t, func(t *testing.T, hook string, c Case, _ []byte) {
		validateCluster := func(cl *clusterv1.Cluster) {
			if cl.Name == "" || cl.Namespace == "" || cl.Kind != "Cluster" || cl.APIVersion != "cluster.x-k8s.io/v1beta2" {
				t.Errorf("cluster %s/%s %s %s", cl.Namespace, cl.Name, cl.Kind, cl.APIVersion)
			}
			if !dnsLabelRe.MatchString(cl.Name) {
				t.Errorf("cluster name %q is not a DNS-1123 label", cl.Name)
			}
			if !reflect.DeepEqual(cl.Status, clusterv1.ClusterStatus{}) || cl.ManagedFields != nil {
				t.Error("Cluster API sends no status and no managedFields")
			}
			if !semver.MatchString(cl.Spec.Topology.Version) {
				t.Errorf("topology version %q", cl.Spec.Topology.Version)
			}
			if errs := validateObject("Cluster", cl, &cl.ObjectMeta); len(errs) > 0 {
				t.Errorf("Cluster: %v", errs.ToAggregate())
			}
		}
		validateMachine := func(what string, m *clusterv1.Machine) {
			if m.Name == "" || m.Namespace == "" || m.Kind != "Machine" || m.UID != "" || !reflect.DeepEqual(m.Status, clusterv1.MachineStatus{}) {
				t.Errorf("%s: not cleaned like Cluster API's cleanupMachine: %s/%s %q", what, m.Namespace, m.Name, m.UID)
			}
			if errs := validateObject("Machine", m, &m.ObjectMeta); len(errs) > 0 {
				t.Errorf("%s: %v", what, errs.ToAggregate())
			}
		}
		validateMachineSet := func(what string, ms *clusterv1.MachineSet) {
			if ms.Name == "" || ms.Namespace == "" || ms.Kind != "MachineSet" || ms.UID != "" {
				t.Errorf("%s: not cleaned like Cluster API's cleanupMachineSet", what)
			}
			if errs := validateObject("MachineSet", ms, &ms.ObjectMeta); len(errs) > 0 {
				t.Errorf("%s: %v", what, errs.ToAggregate())
			}
			selector, err := metav1.LabelSelectorAsSelector(&ms.Spec.Selector)
			if err != nil || !selector.Matches(labels.Set(ms.Spec.Template.Labels)) {
				t.Errorf("%s: the selector %v does not match the template labels %v (%v)", what, ms.Spec.Selector, ms.Spec.Template.Labels, err)
			}
		}
		if cl := clusterOf(c.Request); cl != nil {
			validateCluster(cl)
		}
		for what, steps := range plansOf(c.Request) {
			checkPlan(t, what, steps)
		}
		switch x := c.Request.(type) {
		case *runtimehooksv1.BeforeClusterCreateRequest:
			if x.Cluster.Spec.InfrastructureRef.IsDefined() || x.Cluster.Spec.ControlPlaneRef.IsDefined() {
				t.Error("BeforeClusterCreate: the topology does not exist yet")
			}
		case *runtimehooksv1.BeforeClusterDeleteRequest:
			if x.Cluster.DeletionTimestamp == nil || len(x.Cluster.Finalizers) == 0 {
				t.Error("BeforeClusterDelete: the Cluster is being deleted and has finalizers")
			}
		case *runtimehooksv1.GenerateUpgradePlanRequest:
			if minorOf(x.FromControlPlaneKubernetesVersion) >= minorOf(x.ToKubernetesVersion) {
				t.Errorf("GenerateUpgradePlan: %s -> %s", x.FromControlPlaneKubernetesVersion, x.ToKubernetesVersion)
			}
		case *runtimehooksv1.GeneratePatchesRequest:
			uids := sets.New[types.UID]()
			checkVariables(t, "variables", x.Variables)
			for i, it := range x.Items {
				if it.UID == "" || uids.Has(it.UID) {
					t.Errorf("items[%d].uid %q is empty or not unique", i, it.UID)
				}
				uids.Insert(it.UID)
				checkRaw(t, fmt.Sprintf("items[%d].object", i), it.Object)
				checkVariables(t, fmt.Sprintf("items[%d].variables", i), it.Variables)
				if it.HolderReference.Name == "" || it.HolderReference.Namespace == "" || it.HolderReference.FieldPath == "" {
					t.Errorf("items[%d].holderReference %+v", i, it.HolderReference)
				}
			}
			if len(x.Items) == 0 {
				t.Error("no items")
			}
		case *runtimehooksv1.ValidateTopologyRequest:
			checkVariables(t, "variables", x.Variables)
			for i, it := range x.Items {
				checkRaw(t, fmt.Sprintf("items[%d].object", i), it.Object)
				checkVariables(t, fmt.Sprintf("items[%d].variables", i), it.Variables)
			}
		case *runtimehooksv1.CanUpdateMachineRequest:
			validateMachine("current.machine", &x.Current.Machine)
			validateMachine("desired.machine", &x.Desired.Machine)
			for what, raw := range map[string]runtime.RawExtension{"current.infrastructureMachine": x.Current.InfrastructureMachine, "current.bootstrapConfig": x.Current.BootstrapConfig, "desired.infrastructureMachine": x.Desired.InfrastructureMachine, "desired.bootstrapConfig": x.Desired.BootstrapConfig} {
				checkRaw(t, what, raw)
			}
		case *runtimehooksv1.UpdateMachineRequest:
			validateMachine("desired.machine", &x.Desired.Machine)
			checkRaw(t, "desired.infrastructureMachine", x.Desired.InfrastructureMachine)
			checkRaw(t, "desired.bootstrapConfig", x.Desired.BootstrapConfig)
		case *runtimehooksv1.CanUpdateMachineSetRequest:
			validateMachineSet("current.machineSet", &x.Current.MachineSet)
			validateMachineSet("desired.machineSet", &x.Desired.MachineSet)
			checkRaw(t, "current.infrastructureMachineTemplate", x.Current.InfrastructureMachineTemplate)
			checkRaw(t, "desired.infrastructureMachineTemplate", x.Desired.InfrastructureMachineTemplate)
			if x.Current.BootstrapConfigTemplate.Raw != nil {
				checkRaw(t, "current.bootstrapConfigTemplate", x.Current.BootstrapConfigTemplate)
			}
		}
	})
}

func plansOf(req runtime.Object) map[string][]runtimehooksv1.UpgradeStepInfo {
	out := map[string][]runtimehooksv1.UpgradeStepInfo{}
	v := reflect.ValueOf(req).Elem()
	for _, f := range []string{"ControlPlaneUpgrades", "WorkersUpgrades"} {
		if fv := v.FieldByName(f); fv.IsValid() {
			out[f] = fv.Interface().([]runtimehooksv1.UpgradeStepInfo)
		}
	}
	return out
}

// TestVarietyOfRandomCases: across the random cases every optional shape shows up (not always the same object).
func TestVarietyOfRandomCases(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 60; i++ {
		req, err := Request("AfterControlPlaneInitialized", testSeed, fmt.Sprintf("random-%03d", i))
		if err != nil {
			t.Fatal(err)
		}
		c := req.(*runtimehooksv1.AfterControlPlaneInitializedRequest)
		seen["settings"] = seen["settings"] || c.Settings != nil
		seen["no settings"] = seen["no settings"] || c.Settings == nil
		seen["labels"] = seen["labels"] || len(c.Cluster.Labels) > 0
		seen["no labels"] = seen["no labels"] || len(c.Cluster.Labels) == 0
		seen["machineDeployments"] = seen["machineDeployments"] || len(c.Cluster.Spec.Topology.Workers.MachineDeployments) > 0
		seen["no machinePools"] = seen["no machinePools"] || len(c.Cluster.Spec.Topology.Workers.MachinePools) == 0
		seen["paused"] = seen["paused"] || c.Cluster.Spec.Paused != nil
		seen["ipv6"] = seen["ipv6"] || slices.ContainsFunc(c.Cluster.Spec.ClusterNetwork.Pods.CIDRBlocks, func(s string) bool { return strings.Contains(s, ":") })
		seen["non-ascii"] = seen["non-ascii"] || bytes.ContainsFunc(mustMarshal(t, req), func(r rune) bool { return r > 127 })
	}
	for _, k := range []string{"settings", "no settings", "labels", "no labels", "machineDeployments", "no machinePools", "paused", "ipv6", "non-ascii"} {
		if !seen[k] {
			t.Errorf("never generated: %s", k)
		}
	}
}

// TestValidationCanFail: the validity check rejects what the API server rejects.
func TestValidationCanFail(t *testing.T) {
	base, err := Request("AfterControlPlaneInitialized", testSeed, "random-000")
	if err != nil {
		t.Fatal(err)
	}
	for name, breakIt := range map[string]func(c *clusterv1.Cluster){
		"apiGroup pattern": func(c *clusterv1.Cluster) { c.Spec.InfrastructureRef.APIGroup = "Infra_Group" },
		"taint effect enum": func(c *clusterv1.Cluster) {
			c.Spec.Topology.ControlPlane.Taints = []clusterv1.MachineTaint{{Key: "k", Effect: "Sometimes", Propagation: "Always"}}
		},
		"duplicate list-map key": func(c *clusterv1.Cluster) {
			c.Spec.AvailabilityGates = []clusterv1.ClusterAvailabilityGate{{ConditionType: "A"}, {ConditionType: "A"}}
		},
		"label key":          func(c *clusterv1.Cluster) { c.Labels = map[string]string{"not a key": "v"} },
		"label value length": func(c *clusterv1.Cluster) { c.Labels = map[string]string{"k": strings.Repeat("v", 64)} },
		"name":               func(c *clusterv1.Cluster) { c.Name = "Not_A_Name" },
		"required timeoutSeconds": func(c *clusterv1.Cluster) {
			c.Spec.Topology.ControlPlane.HealthCheck.Checks.UnhealthyNodeConditions = []clusterv1.UnhealthyNodeCondition{{Type: "Ready", Status: "False"}}
		},
		"port range": func(c *clusterv1.Cluster) { c.Spec.ClusterNetwork.APIServerPort = 70000 },
		"reserved condition": func(c *clusterv1.Cluster) {
			c.Spec.Topology.ControlPlane.HealthCheck.Checks.UnhealthyMachineConditions = []clusterv1.UnhealthyMachineCondition{{Type: "Ready", Status: "False", TimeoutSeconds: ptr(int32(1))}}
		},
		"annotations over 256 KiB": func(c *clusterv1.Cluster) {
			c.Annotations = map[string]string{"a": strings.Repeat("x", 256<<10)}
		},
	} {
		c := base.(*runtimehooksv1.AfterControlPlaneInitializedRequest).Cluster.DeepCopy()
		if errs := validateObject("Cluster", c, &c.ObjectMeta); len(errs) > 0 {
			t.Fatalf("the unmodified Cluster is invalid: %v", errs.ToAggregate())
		}
		breakIt(c)
		if errs := validateObject("Cluster", c, &c.ObjectMeta); len(errs) == 0 {
			t.Errorf("%s: not detected", name)
		}
	}
}

func TestCIDRsAreNetworks(t *testing.T) {
	r := newRNG(1, "cidr")
	for i := 0; i < 200; i++ {
		c := r.cidr()
		ip, network, err := net.ParseCIDR(c)
		if err != nil || !ip.Equal(network.IP) {
			t.Errorf("%s: %v (host bits set: %v)", c, err, network)
		}
	}
}
