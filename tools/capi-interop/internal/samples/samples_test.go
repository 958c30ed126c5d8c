package samples

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

func TestEveryCatalogHookHasSamples(t *testing.T) {
	cat := runtimecatalog.New()
	if err := runtimehooksv1.AddToCatalog(cat); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for gvh := range cat.AllKnownHooks() {
		known[gvh.Hook] = true
	}
	if len(Hooks()) != 17 || len(known) != 17 {
		t.Fatalf("expected 17 hooks, samples have %d, catalog has %d", len(Hooks()), len(known))
	}
	for _, h := range Hooks() {
		if !known[h.Name] {
			t.Errorf("hook %s is not in CAPI's catalog", h.Name)
		}
		if err := cat.ValidateRequest(h.GVH(), h.Request()); err != nil {
			t.Errorf("%s: %v", h.Name, err)
		}
		if err := cat.ValidateResponse(h.GVH(), h.Response()); err != nil {
			t.Errorf("%s: %v", h.Name, err)
		}
		gvk := h.Request().GetObjectKind().GroupVersionKind()
		if gvk.Kind != h.Name+"Request" || gvk.GroupVersion() != runtimehooksv1.GroupVersion {
			t.Errorf("%s: request TypeMeta is %v", h.Name, gvk)
		}
		if gvk := h.Response().GetObjectKind().GroupVersionKind(); !gvk.Empty() {
			t.Errorf("%s: response TypeMeta must be empty like CAPI's server SDK, got %v", h.Name, gvk)
		}
	}
}

// TestRoundTrip marshals every sample, decodes it strictly into a fresh object and compares.
func TestRoundTrip(t *testing.T) {
	for _, h := range Hooks() {
		for _, c := range []struct {
			dir       string
			sample    runtime.Object
			newObject func() runtime.Object
		}{
			{"request", h.Request(), h.NewRequest},
			{"response", h.Response(), h.NewResponse},
		} {
			t.Run(h.Name+"/"+c.dir, func(t *testing.T) {
				b, err := json.Marshal(c.sample)
				if err != nil {
					t.Fatal(err)
				}
				out := c.newObject()
				dec := json.NewDecoder(bytes.NewReader(b))
				dec.DisallowUnknownFields()
				if err := dec.Decode(out); err != nil {
					t.Fatalf("strict decode: %v\n%s", err, b)
				}
				if !reflect.DeepEqual(c.sample, out) {
					t.Fatalf("round trip changed the object:\nwant %#v\n got %#v", c.sample, out)
				}
				again, err := json.Marshal(out)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b, again) {
					t.Fatalf("re-marshalled bytes differ:\n%s\n%s", b, again)
				}
			})
		}
	}
}

// TestSamplesAreDeterministic checks that two constructions marshal identically.
func TestSamplesAreDeterministic(t *testing.T) {
	for _, h := range Hooks() {
		a, _ := json.Marshal(h.Request())
		b, _ := json.Marshal(h.Request())
		c, _ := json.Marshal(h.Response())
		d, _ := json.Marshal(h.Response())
		if !bytes.Equal(a, b) || !bytes.Equal(c, d) {
			t.Errorf("%s samples are not deterministic", h.Name)
		}
	}
}

// coverage records, for every struct field reachable from the samples, whether it was ever non-zero.
type coverage map[string]bool

func (c coverage) walk(v reflect.Value, skipTypeMeta bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			c.walk(v.Elem(), skipTypeMeta)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			c.walk(v.Index(i), false)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			c.walk(iter.Value(), false)
		}
	case reflect.Struct:
		typ := v.Type()
		if typ.PkgPath() == "time" {
			return
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			if (skipTypeMeta && f.Name == "TypeMeta") || f.Tag.Get("json") == "-" {
				continue
			}
			key := typ.PkgPath() + "." + typ.Name() + "." + f.Name
			if !v.Field(i).IsZero() {
				c[key] = true
				c.walk(v.Field(i), false)
			} else if _, seen := c[key]; !seen {
				c[key] = false
			}
		}
	}
}

// Fields of embedded Kubernetes / CAPI core objects that CAPI never sends (status, server-managed
// metadata) or that do not apply to the sample objects.
var notExpected = []string{
	"meta/v1.ObjectMeta.GenerateName",
	"meta/v1.ObjectMeta.SelfLink",
	"meta/v1.ObjectMeta.OwnerReferences",
	"meta/v1.ObjectMeta.ManagedFields",
	"core/v1beta2.Cluster.Status",
	"core/v1beta2.Machine.Status",
	"core/v1beta2.MachineSet.Status",
	// Deprecated JSON schema fields on a single variable are mutually exclusive with other ones.
}

func TestSamplesSetEveryField(t *testing.T) {
	cov := coverage{}
	for _, h := range Hooks() {
		cov.walk(reflect.ValueOf(h.Request()), false)
		cov.walk(reflect.ValueOf(h.Response()), true)
	}
	var missing []string
	for key, set := range cov {
		if set {
			continue
		}
		expected := true
		for _, skip := range notExpected {
			if strings.HasSuffix(key, skip) {
				expected = false
			}
		}
		if expected {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("sample fields never set:\n  %s", strings.Join(missing, "\n  "))
	}
}
