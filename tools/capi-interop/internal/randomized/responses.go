package randomized

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// Sizes of the large responses.
const (
	// LongMessageLength is longer than 32,768 characters.
	LongMessageLength = 40000
	// LongDescriptionLength is the length of a long variable schema description.
	LongDescriptionLength = 10000
	// ManyDiscoveredVariables is the number of variables of a large DiscoverVariables response.
	ManyDiscoveredVariables = 1500
	// LongPlanSteps is the number of control plane (and worker) steps of a large GenerateUpgradePlan response.
	LongPlanSteps = 100
)

// ResponseShape says which deliberate features the answer to a call has; it is a function of the call index only,
// so every feature shows up within any 10 consecutive calls of a handler:
//
//	call%5 == 4          status Failure (retryAfterSeconds 0, no hook-specific fields)
//	call%10 in {3, 9}    a message of LongMessageLength characters (a Success and a Failure)
//	call%10 == 5         DiscoverVariables: ManyDiscoveredVariables variables; GenerateUpgradePlan: LongPlanSteps steps
//	call%10 == 7         DiscoverVariables: one variable whose schema description has LongDescriptionLength characters
type ResponseShape struct {
	Failure, LongMessage, Many, LongDescription bool
}

// ShapeOf returns the shape of the answer to call index call (0-based) of a handler.
func ShapeOf(call int) ResponseShape {
	return ResponseShape{Failure: call%5 == 4, LongMessage: call%10 == 3 || call%10 == 9, Many: call%10 == 5, LongDescription: call%10 == 7}
}

// RandomResponse returns a random response of the hook to call index `call` of `handler`, decodable by Cluster
// API's runtime client (valid enums, valid base64 JSON patches, strictly increasing plan versions, ...). TypeMeta
// stays empty, like Cluster API's server SDK leaves it.
func RandomResponse(hook string, seed int64, handler string, call int) (runtime.Object, error) {
	h, ok := samples.Lookup(hook)
	if !ok {
		return nil, fmt.Errorf("unknown hook %q", hook)
	}
	r := newRNG(seed, "response", hook, handler, itoa(call))
	shape := ShapeOf(call)
	resp := h.NewResponse()
	ro, ok := resp.(runtimehooksv1.ResponseObject)
	if !ok {
		return nil, fmt.Errorf("%T is not a response object", resp)
	}
	f := newFiller(r).Funcs(
		func(x *clusterv1.JSONSchemaProps, c randfill.Continue) { *x = g(c).schema(2) },
		func(x *clusterv1.ClusterClassVariable, c randfill.Continue) {
			*x = g(c).classVariable(g(c).variableName())
		},
	)

	status := runtimehooksv1.ResponseStatusSuccess
	if shape.Failure {
		status = runtimehooksv1.ResponseStatusFailure
	}
	ro.SetStatus(status)
	switch {
	case shape.LongMessage:
		ro.SetMessage(longText(LongMessageLength, r.dnsLabel(12)))
	case r.chance(0.3):
		ro.SetMessage("")
	default:
		ro.SetMessage(r.text(200))
	}
	if rr, ok := resp.(runtimehooksv1.RetryResponseObject); ok {
		var retry int32
		if !shape.Failure && r.chance(0.5) {
			retry = int32(r.between(1, 600))
		}
		rr.SetRetryAfterSeconds(retry)
	}
	if shape.Failure {
		return resp, nil
	}

	switch x := resp.(type) {
	case *runtimehooksv1.DiscoverVariablesResponse:
		n := r.between(0, 5)
		if shape.Many {
			n = ManyDiscoveredVariables
		}
		seen := map[string]bool{}
		for i := 0; i < n; i++ {
			var v clusterv1.ClusterClassVariable
			f.Fill(&v)
			if seen[v.Name] || shape.Many {
				v.Name = fmt.Sprintf("%s%04d", v.Name, i)
			}
			seen[v.Name] = true
			x.Variables = append(x.Variables, v)
		}
		if shape.LongDescription {
			v := r.classVariable("longDescription")
			v.Schema.OpenAPIV3Schema.Description = longText(LongDescriptionLength, "description")
			x.Variables = append(x.Variables, v)
		}
	case *runtimehooksv1.GeneratePatchesResponse:
		for n := r.between(0, 5); n > 0; n-- {
			item := runtimehooksv1.GeneratePatchesResponseItem{UID: r.uuid()}
			item.PatchType, item.Patch = r.patch("/spec/template/spec")
			x.Items = append(x.Items, item)
		}
	case *runtimehooksv1.CanUpdateMachineResponse:
		x.MachinePatch = r.maybePatch("/spec")
		x.InfrastructureMachinePatch = r.maybePatch("/spec")
		x.BootstrapConfigPatch = r.maybePatch("/spec")
	case *runtimehooksv1.CanUpdateMachineSetResponse:
		x.MachineSetPatch = r.maybePatch("/spec/template/spec")
		x.InfrastructureMachineTemplatePatch = r.maybePatch("/spec/template/spec")
		x.BootstrapConfigTemplatePatch = r.maybePatch("/spec/template/spec")
	case *runtimehooksv1.GenerateUpgradePlanResponse:
		n := r.between(0, 4)
		if shape.Many {
			n = LongPlanSteps
		}
		for _, v := range versions(r.between(20, 30), n) {
			x.ControlPlaneUpgrades = append(x.ControlPlaneUpgrades, runtimehooksv1.UpgradeStep{Version: v})
		}
		if len(x.ControlPlaneUpgrades) > 0 && r.chance(0.6) {
			for i, s := range x.ControlPlaneUpgrades {
				if i == len(x.ControlPlaneUpgrades)-1 || r.chance(0.5) {
					x.WorkersUpgrades = append(x.WorkersUpgrades, s)
				}
			}
		}
	}
	return resp, nil
}

// patch returns a JSON patch (RFC 6902) or JSON merge patch (RFC 7386) document below prefix.
func (r rng) patch(prefix string) (runtimehooksv1.PatchType, []byte) {
	if r.chance(0.5) {
		var ops []map[string]any
		for n := r.between(1, 4); n > 0; n-- {
			op := map[string]any{"op": r.pick("add", "replace", "remove"), "path": prefix + "/" + r.fieldName()}
			if op["op"] != "remove" {
				op["value"] = r.jsonValue(2)
			}
			ops = append(ops, op)
		}
		return runtimehooksv1.JSONPatchType, mustJSON(ops)
	}
	// A merge patch nesting the fields of prefix.
	var doc any = r.jsonObject(2)
	segments := splitPath(prefix)
	for i := len(segments) - 1; i >= 0; i-- {
		doc = map[string]any{segments[i]: doc}
	}
	return runtimehooksv1.JSONMergePatchType, mustJSON(doc)
}

func splitPath(p string) []string {
	var out []string
	cur := ""
	for _, ch := range p + "/" {
		if ch == '/' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(ch)
	}
	return out
}

func (r rng) maybePatch(prefix string) runtimehooksv1.Patch {
	if r.chance(0.3) {
		return runtimehooksv1.Patch{}
	}
	t, p := r.patch(prefix)
	return runtimehooksv1.Patch{PatchType: t, Patch: p}
}

// classVariable returns a variable definition with a random schema.
func (r rng) classVariable(name string) clusterv1.ClusterClassVariable {
	v := clusterv1.ClusterClassVariable{Name: name, Schema: clusterv1.VariableSchema{OpenAPIV3Schema: r.schema(2)}}
	if r.chance(0.7) {
		v.Required = ptr(r.chance(0.5))
	}
	if r.chance(0.2) {
		v.DeprecatedV1Beta1Metadata = clusterv1.ClusterClassVariableMetadata{Labels: r.labels(1, 2), Annotations: r.annotations(1, 2)}
	}
	return v
}

func jsonOf(v any) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: mustJSON(v)} }

// schema returns a plausible variable schema of the given nesting depth.
func (r rng) schema(depth int) clusterv1.JSONSchemaProps {
	s := clusterv1.JSONSchemaProps{}
	if r.chance(0.6) {
		s.Description = r.text(120)
	}
	kinds := []string{"string", "integer", "number", "boolean", "int-or-string"}
	if depth > 0 {
		kinds = append(kinds, "object", "object", "array")
	}
	switch kinds[r.Intn(len(kinds))] {
	case "string":
		s.Type = "string"
		if r.chance(0.4) {
			s.MinLength, s.MaxLength = ptr(int64(r.between(0, 3))), ptr(int64(r.between(4, 253)))
		}
		switch r.Intn(4) {
		case 0:
			s.Pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
		case 1:
			s.Format = r.pick("uri", "date-time", "ipv4", "hostname")
		case 2:
			s.Enum = []apiextensionsv1.JSON{*jsonOf("small"), *jsonOf("medium"), *jsonOf("large")}
			s.Default = jsonOf("medium")
		}
		if r.chance(0.4) {
			s.Example = jsonOf(r.dnsLabel(20))
		}
	case "integer":
		s.Type = "integer"
		if r.chance(0.5) {
			s.Minimum, s.Maximum = ptr(int64(r.between(0, 10))), ptr(int64(r.between(11, 100000)))
			s.ExclusiveMaximum = ptr(r.chance(0.3))
		}
		if r.chance(0.5) {
			s.Default = jsonOf(r.between(11, 99))
		}
	case "number":
		s.Type = "number"
		if r.chance(0.5) {
			s.Minimum, s.ExclusiveMinimum = ptr(int64(0)), ptr(true)
		}
		s.Example = jsonOf(float64(r.Intn(1000)) / 4)
	case "boolean":
		s.Type = "boolean"
		s.Default = jsonOf(r.chance(0.5))
	case "int-or-string":
		s.XIntOrString = ptr(true)
		s.AnyOf = []clusterv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}
	case "object":
		s.Type = "object"
		if r.chance(0.2) {
			s.XPreserveUnknownFields = ptr(true)
			break
		}
		if r.chance(0.2) {
			extra := r.schema(depth - 1)
			s.AdditionalProperties = &extra
			s.MaxProperties = ptr(int64(r.between(1, 50)))
			break
		}
		s.Properties = map[string]clusterv1.JSONSchemaProps{}
		var names []string
		for n := r.between(1, 4); n > 0; n-- {
			name := r.fieldName()
			if _, dup := s.Properties[name]; dup {
				continue
			}
			s.Properties[name] = r.schema(depth - 1)
			names = append(names, name)
		}
		if r.chance(0.5) {
			s.Required = names[:r.between(1, len(names))]
		}
		if r.chance(0.2) {
			s.XValidations = []clusterv1.ValidationRule{{
				Rule: "self.size() >= 1", Message: "must not be empty", Reason: clusterv1.FieldValueInvalid,
			}}
		}
		if len(names) >= 2 && r.chance(0.2) {
			s.OneOf = []clusterv1.JSONSchemaProps{{Required: []string{names[0]}}, {Required: []string{names[1]}}}
		}
	case "array":
		s.Type = "array"
		items := r.schema(depth - 1)
		s.Items = &items
		if r.chance(0.5) {
			s.MinItems, s.MaxItems = ptr(int64(0)), ptr(int64(r.between(1, 100)))
		}
		if items.Type == "string" && r.chance(0.3) {
			s.UniqueItems = ptr(true)
		}
	}
	if r.chance(0.15) {
		s.XMetadata = clusterv1.VariableSchemaMetadata{Labels: r.labels(1, 2), Annotations: r.annotations(1, 2)}
	}
	return s
}
