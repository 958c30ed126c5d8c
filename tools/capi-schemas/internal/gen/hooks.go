package gen

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	hooksv1alpha1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Hook is one Runtime Hook with its request and response Go types.
type Hook struct {
	Name     string
	Request  reflect.Type
	Response reflect.Type
}

// CatalogHooks returns the hooks that the v1alpha1 hooks package registers in a
// runtime catalog (its AddToCatalog), sorted by name.
func CatalogHooks() ([]Hook, error) {
	c := runtimecatalog.New()
	if err := hooksv1alpha1.AddToCatalog(c); err != nil {
		return nil, fmt.Errorf("building the runtime catalog: %w", err)
	}
	known := c.AllKnownTypes()
	var hooks []Hook
	for gvh, desc := range c.AllKnownHooks() {
		if gvh.GroupVersion() != hooksv1alpha1.GroupVersion {
			continue
		}
		req, resp := known[desc.Request], known[desc.Response]
		if req == nil || resp == nil {
			return nil, fmt.Errorf("hook %s: request %v or response %v is not a known type of the catalog", gvh.Hook, desc.Request, desc.Response)
		}
		hooks = append(hooks, Hook{Name: gvh.Hook, Request: req, Response: resp})
	}
	if len(hooks) == 0 {
		return nil, fmt.Errorf("the runtime catalog has no %s hooks", hooksv1alpha1.GroupVersion)
	}
	sort.Slice(hooks, func(i, j int) bool { return hooks[i].Name < hooks[j].Name })
	return hooks, nil
}

// HookFuncs lists, from the type-checked source of the hooks package, the functions of
// the form `func X(*XRequest, *XResponse)`, sorted.
func HookFuncs(pkg *loader.Package) []string {
	pkg.NeedTypesInfo()
	var out []string
	scope := pkg.Types.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil || sig.Results().Len() != 0 || sig.Params().Len() != 2 {
			continue
		}
		if namedPointee(sig.Params().At(0).Type()) == name+"Request" && namedPointee(sig.Params().At(1).Type()) == name+"Response" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func namedPointee(t types.Type) string {
	p, ok := t.(*types.Pointer)
	if !ok {
		return ""
	}
	n, ok := p.Elem().(*types.Named)
	if !ok {
		return ""
	}
	return n.Obj().Name()
}

// checkHookFuncs fails when the catalog and the package's hook functions disagree.
func checkHookFuncs(pkg *loader.Package, hooks []Hook) error {
	var fromCatalog []string
	for _, h := range hooks {
		if h.Request.Name() != h.Name+"Request" || h.Response.Name() != h.Name+"Response" {
			return fmt.Errorf("hook %s: unexpected request/response types %s, %s", h.Name, h.Request, h.Response)
		}
		fromCatalog = append(fromCatalog, h.Name)
	}
	fromSource := HookFuncs(pkg)
	if !slices.Equal(fromCatalog, fromSource) {
		return fmt.Errorf("the runtime catalog registers hooks [%s] but %s declares hook functions [%s]",
			strings.Join(fromCatalog, " "), pkg.PkgPath, strings.Join(fromSource, " "))
	}
	return nil
}

// BuiltinsType is the type of the builtin variables of topology mutation hooks.
func BuiltinsType() reflect.Type { return reflect.TypeFor[hooksv1alpha1.Builtins]() }

// ExtraRoots are included in the definitions although no hook references them (directly).
func ExtraRoots() []reflect.Type {
	return []reflect.Type{
		BuiltinsType(),
		reflect.TypeFor[clusterv1.Cluster](),
		reflect.TypeFor[clusterv1.ClusterClass](),
		reflect.TypeFor[clusterv1.ClusterClassVariable](),
		reflect.TypeFor[clusterv1.Machine](),
		reflect.TypeFor[clusterv1.MachineSet](),
		reflect.TypeFor[clusterv1.MachineDeployment](),
		reflect.TypeFor[clusterv1.MachinePool](),
		reflect.TypeFor[clusterv1.MachineTemplateSpec](),
	}
}
