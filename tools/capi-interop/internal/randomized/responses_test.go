package randomized

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// callsInTests calls per handler are checked (every ResponseShape shows up).
const callsInTests = 30

func checkPatch(t *testing.T, what string, p runtimehooksv1.Patch) {
	t.Helper()
	if !p.IsDefined() {
		return
	}
	switch p.PatchType {
	case runtimehooksv1.JSONPatchType:
		var ops []map[string]json.RawMessage
		if err := json.Unmarshal(p.Patch, &ops); err != nil || len(ops) == 0 {
			t.Errorf("%s: not a JSON patch: %v %s", what, err, p.Patch)
		}
		for _, op := range ops {
			var name, path string
			_ = json.Unmarshal(op["op"], &name)
			_ = json.Unmarshal(op["path"], &path)
			_, hasValue := op["value"]
			if !sets.New("add", "replace", "remove").Has(name) || path == "" || (name != "remove") != hasValue {
				t.Errorf("%s: bad operation %s", what, mustJSON(op))
			}
		}
	case runtimehooksv1.JSONMergePatchType:
		var doc map[string]any
		if err := json.Unmarshal(p.Patch, &doc); err != nil {
			t.Errorf("%s: not a merge patch: %v", what, err)
		}
	default:
		t.Errorf("%s: patchType %q", what, p.PatchType)
	}
}

// TestResponsesDecode: every random response is accepted by CAPI's catalog, decodes strictly into the hook's Go
// type (what Cluster API's runtime client does, json.Unmarshal) and re-marshals to the same bytes, has a valid
// status, retryAfterSeconds 0 on Failure, and the deliberate shapes of its call index.
func TestResponsesDecode(t *testing.T) {
	seen := map[string]int{}
	bodies := map[string]sets.Set[string]{}
	for _, h := range samples.Hooks() {
		if h.Name == "Discovery" {
			continue // answered by the server SDK itself
		}
		bodies[h.Name] = sets.New[string]()
		for call := 0; call < callsInTests; call++ {
			t.Run(fmt.Sprintf("%s/%d", h.Name, call), func(t *testing.T) {
				resp, err := RandomResponse(h.Name, testSeed, "handler", call)
				if err != nil {
					t.Fatal(err)
				}
				if err := catalog.ValidateResponse(h.GVH(), resp); err != nil {
					t.Fatal(err)
				}
				if !resp.GetObjectKind().GroupVersionKind().Empty() {
					t.Error("the server SDK leaves TypeMeta empty")
				}
				body := mustMarshal(t, resp)
				if len(body) >= MaxBodyBytes {
					t.Fatalf("%d bytes", len(body))
				}
				out := h.NewResponse()
				dec := json.NewDecoder(bytes.NewReader(body))
				dec.DisallowUnknownFields()
				if err := dec.Decode(out); err != nil {
					t.Fatalf("strict decode: %v", err)
				}
				if again := mustMarshal(t, out); !bytes.Equal(body, again) {
					t.Fatalf("re-marshalled bytes differ:\n%.2000s\n%.2000s", body, again)
				}
				again, _ := RandomResponse(h.Name, testSeed, "handler", call)
				if !bytes.Equal(body, mustMarshal(t, again)) {
					t.Error("not reproducible from the seed")
				}
				bodies[h.Name].Insert(string(body))

				shape := ShapeOf(call)
				r := out.(runtimehooksv1.ResponseObject)
				switch {
				case shape.Failure && r.GetStatus() != runtimehooksv1.ResponseStatusFailure, !shape.Failure && r.GetStatus() != runtimehooksv1.ResponseStatusSuccess:
					t.Errorf("status %q for shape %+v", r.GetStatus(), shape)
				}
				if rr, ok := out.(runtimehooksv1.RetryResponseObject); ok && shape.Failure && rr.GetRetryAfterSeconds() != 0 {
					t.Error("Failure with retryAfterSeconds")
				}
				if shape.LongMessage != (len(r.GetMessage()) == LongMessageLength) {
					t.Errorf("message of %d characters for shape %+v", len(r.GetMessage()), shape)
				}
				if len(r.GetMessage()) > 32768 {
					seen["long message "+string(r.GetStatus())]++
				}

				switch x := out.(type) {
				case *runtimehooksv1.DiscoverVariablesResponse:
					names := sets.New[string]()
					for _, v := range x.Variables {
						if v.Name == "" || names.Has(v.Name) {
							t.Errorf("variable name %q empty or duplicate", v.Name)
						}
						names.Insert(v.Name)
						if len(v.Schema.OpenAPIV3Schema.Description) == LongDescriptionLength {
							seen["long description"]++
						}
					}
					if len(x.Variables) >= ManyDiscoveredVariables {
						seen["many variables"]++
					}
					if len(x.Variables) > 0 && len(x.Variables) < 10 {
						seen["some variables"]++
					}
				case *runtimehooksv1.GeneratePatchesResponse:
					uids := sets.New[string]()
					for i, it := range x.Items {
						checkPatch(t, fmt.Sprintf("items[%d]", i), runtimehooksv1.Patch{PatchType: it.PatchType, Patch: it.Patch})
						if it.UID == "" || uids.Has(string(it.UID)) {
							t.Errorf("items[%d].uid %q", i, it.UID)
						}
						uids.Insert(string(it.UID))
						seen["patch "+string(it.PatchType)]++
					}
				case *runtimehooksv1.CanUpdateMachineResponse:
					checkPatch(t, "machinePatch", x.MachinePatch)
					checkPatch(t, "infrastructureMachinePatch", x.InfrastructureMachinePatch)
					checkPatch(t, "bootstrapConfigPatch", x.BootstrapConfigPatch)
				case *runtimehooksv1.CanUpdateMachineSetResponse:
					checkPatch(t, "machineSetPatch", x.MachineSetPatch)
					checkPatch(t, "infrastructureMachineTemplatePatch", x.InfrastructureMachineTemplatePatch)
					checkPatch(t, "bootstrapConfigTemplatePatch", x.BootstrapConfigTemplatePatch)
				case *runtimehooksv1.GenerateUpgradePlanResponse:
					var cp, workers []runtimehooksv1.UpgradeStepInfo
					for _, s := range x.ControlPlaneUpgrades {
						cp = append(cp, runtimehooksv1.UpgradeStepInfo{Version: s.Version})
					}
					for _, s := range x.WorkersUpgrades {
						workers = append(workers, runtimehooksv1.UpgradeStepInfo{Version: s.Version})
					}
					checkPlan(t, "controlPlaneUpgrades", cp)
					checkPlan(t, "workersUpgrades", workers)
					if len(cp) > 64 {
						seen["long plan"]++
					}
				}
			})
		}
	}
	for hook, distinct := range bodies {
		if distinct.Len() < callsInTests/2 {
			t.Errorf("%s: only %d distinct answers in %d calls", hook, distinct.Len(), callsInTests)
		}
	}
	for _, k := range []string{"long message Success", "long message Failure", "long description", "many variables", "some variables", "patch JSONPatch", "patch JSONMergePatch", "long plan"} {
		if seen[k] == 0 {
			t.Errorf("never generated: %s", k)
		}
	}
}
