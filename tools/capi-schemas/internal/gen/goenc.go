package gen

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// customEncoding reports whether encoding/json leaves t's encoding to a method of t.
func customEncoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) || t.Implements(textMarshaler) || pt.Implements(textMarshaler)
}

func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// ZeroMarshalsNull reports whether the zero value of t (a non-nilable type) encodes as JSON null,
// as it does for metav1.Time, metav1.MicroTime, runtime.RawExtension and apiextensionsv1.JSON.
func ZeroMarshalsNull(t reflect.Type) bool {
	if nilable(t) || !customEncoding(t) {
		return false
	}
	b, err := json.Marshal(reflect.New(t).Interface())
	return err == nil && string(b) == "null"
}

// jsonField is a property of a struct's JSON encoding.
type jsonField struct {
	name                string
	typ                 reflect.Type
	omitempty, omitzero bool
	viaPointer          bool // promoted through an embedded pointer (absent when that is nil)
	depth               int
	path                string
}

// alwaysEmitted reports whether encoding/json emits the property for every value of the struct.
func (f jsonField) alwaysEmitted() bool {
	if f.viaPointer || f.omitzero {
		return false
	}
	return !f.omitempty || f.typ.Kind() == reflect.Struct
}

// canBeNull reports whether the property's encoding can be JSON null.
func (f jsonField) canBeNull() bool {
	if nilable(f.typ) {
		return !f.omitempty && !f.omitzero
	}
	if !ZeroMarshalsNull(f.typ) || f.omitzero {
		return false
	}
	// omitempty omits a zero value of non-struct kinds, never a struct.
	return !f.omitempty || f.typ.Kind() == reflect.Struct
}

// jsonFields lists the JSON properties of struct t like encoding/json does,
// including those promoted from embedded structs.
func jsonFields(t reflect.Type) ([]jsonField, error) {
	var all []jsonField
	var walk func(t reflect.Type, depth int, viaPtr bool, path string)
	walk = func(t reflect.Type, depth int, viaPtr bool, path string) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			optList := strings.Split(opts, ",")
			if f.Anonymous {
				ft, ptr := f.Type, false
				if ft.Kind() == reflect.Pointer {
					ft, ptr = ft.Elem(), true
				}
				if !f.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, depth+1, viaPtr || ptr, path+f.Name+".")
					continue
				}
			} else if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			all = append(all, jsonField{
				name:       name,
				typ:        f.Type,
				omitempty:  slices.Contains(optList, "omitempty"),
				omitzero:   slices.Contains(optList, "omitzero"),
				viaPointer: viaPtr,
				depth:      depth,
				path:       path + f.Name,
			})
		}
	}
	walk(t, 0, false, "")
	var out []jsonField
	for i, f := range all {
		shadowed := false
		for j, g := range all {
			if i == j || g.name != f.name {
				continue
			}
			if g.depth == f.depth {
				return nil, fmt.Errorf("%s: JSON property %q is ambiguous (%s, %s)", t, f.name, f.path, g.path)
			}
			if g.depth < f.depth {
				shadowed = true
			}
		}
		if !shadowed {
			out = append(out, f)
		}
	}
	return out, nil
}

// applyGoEncoding walks the Go types from the roots and, for every struct definition, replaces
// "required" with the properties encoding/json always emits (keeping controller-gen's list as
// "x-kubebuilder-required") and marks the properties that can be null.
func applyGoEncoding(defs map[string]map[string]any, roots []reflect.Type) error {
	visited := map[string]bool{}
	var errs []string
	var visit func(t reflect.Type, schema map[string]any)
	visit = func(t reflect.Type, schema map[string]any) {
		for nilable(t) || t.Kind() == reflect.Array {
			if t.Kind() == reflect.Interface {
				return
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || customEncoding(t) {
			return
		}
		if t.Name() == "" {
			errs = append(errs, fmt.Sprintf("anonymous struct type %s", t))
			return
		}
		name := DefName(t.PkgPath(), t.Name())
		if visited[name] {
			return
		}
		d, ok := defs[name]
		if !ok {
			if schema != nil && schemaless(schema) {
				return // e.g. a +kubebuilder:validation:Schemaless field
			}
			errs = append(errs, fmt.Sprintf("Go struct %s has no definition", name))
			return
		}
		visited[name] = true
		fields, err := jsonFields(t)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		props, _ := d["properties"].(map[string]any)
		goNames := map[string]bool{}
		for _, f := range fields {
			goNames[f.name] = true
		}
		for _, p := range slices.Sorted(maps.Keys(props)) {
			if !goNames[p] {
				errs = append(errs, fmt.Sprintf("%s: property %q has no Go field", name, p))
			}
		}
		var required []string
		for _, f := range fields {
			p, ok := props[f.name].(map[string]any)
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: Go field %s (%q) has no property", name, f.path, f.name))
				continue
			}
			if f.alwaysEmitted() {
				required = append(required, f.name)
			}
			// nullable describes the Go encoding only (no Cluster API type uses the +nullable marker today).
			delete(p, "nullable")
			if all, ok := p["allOf"].([]any); ok && len(p) == 1 && len(all) == 1 {
				if ref, ok := all[0].(map[string]any)["$ref"]; ok {
					delete(p, "allOf")
					p["$ref"] = ref
				}
			}
			if f.canBeNull() {
				setNullable(p)
			}
			if err := annotateElems(p, f.typ); err != nil {
				errs = append(errs, fmt.Sprintf("%s.%s: %v", name, f.name, err))
			}
			visit(f.typ, p)
		}
		var original []string
		if l, ok := d["required"].([]any); ok {
			for _, r := range l {
				original = append(original, r.(string))
			}
		}
		delete(d, "required")
		delete(d, "x-kubebuilder-required")
		if len(required) > 0 {
			d["required"] = stringsToAny(required)
		}
		if len(original) > 0 {
			d["x-kubebuilder-required"] = stringsToAny(original)
		}
	}
	for _, t := range roots {
		visit(t, nil)
	}
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		if _, ok := defs[name]["properties"]; ok && !visited[name] {
			errs = append(errs, fmt.Sprintf("definition %s has properties but no Go struct was reached by reflection", name))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("applying the Go encoding:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func stringsToAny(l []string) []any {
	l = slices.Clone(l)
	slices.Sort(l)
	l = slices.Compact(l)
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// schemaless reports whether a property schema neither references a definition nor describes a structure.
func schemaless(n map[string]any) bool {
	for _, k := range []string{"$ref", "allOf", "properties", "items", "additionalProperties"} {
		if _, ok := n[k]; ok {
			return false
		}
	}
	return true
}

// annotateElems marks the items/additionalProperties of an inline array/map schema nullable
// when its Go elements can encode as null (a nil pointer, slice or map, or a zero metav1.Time...).
func annotateElems(n map[string]any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var key string
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		key = "items"
	case reflect.Map:
		key = "additionalProperties"
	default:
		return nil
	}
	et := t.Elem()
	elemNull := nilable(et) || ZeroMarshalsNull(et)
	sub, ok := n[key].(map[string]any)
	if !ok {
		if elemNull && !schemaless(n) {
			return fmt.Errorf("elements of %s can be null but the schema has no inline %s to mark", t, key)
		}
		return nil
	}
	if elemNull {
		setNullable(sub)
	}
	return annotateElems(sub, et)
}
