package parity

import (
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// What Go's decoder does with a value, by the Go type it decodes into: the kinds of Cluster API's hook types
// (checked against every type the hooks reach by TestKindsCoverTheHookTypes).
const (
	kindString      = "string"
	kindBool        = "bool"
	kindInt32       = "int32"
	kindInt64       = "int64"
	kindBytes       = "bytes"
	kindTime        = "time"
	kindIntOrString = "intOrString"
	kindAny         = "any"
	kindStruct      = "struct"
	kindList        = "list"
	kindMap         = "map"
)

var special = map[reflect.Type]string{
	reflect.TypeOf(metav1.Time{}):          kindTime,
	reflect.TypeOf(intstr.IntOrString{}):   kindIntOrString,
	reflect.TypeOf(runtime.RawExtension{}): kindAny,
	reflect.TypeOf(apiextensionsv1.JSON{}): kindAny,
	reflect.TypeOf(metav1.FieldsV1{}):      kindAny,
	reflect.TypeOf([]byte(nil)):            kindBytes,
}

// deref is the type behind pointers (Go's decoder allocates them).
func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// kindOf is how Go's decoder treats the type, or "" for a kind Cluster API's hook types do not use.
func kindOf(t reflect.Type) string {
	t = deref(t)
	if k, ok := special[t]; ok {
		return k
	}
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Bool:
		return kindBool
	case reflect.Int32:
		return kindInt32
	case reflect.Int64:
		return kindInt64
	case reflect.Struct:
		return kindStruct
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return kindBytes
		}
		return kindList
	case reflect.Map:
		return kindMap
	}
	return ""
}

// field is a JSON field of a struct as encoding/json sees it: embedded structs without a name are flattened.
type field struct {
	name string
	typ  reflect.Type
}

func fieldsOf(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && deref(f.Type).Kind() == reflect.Struct {
			out = append(out, fieldsOf(deref(f.Type))...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name: name, typ: f.Type})
	}
	return out
}
