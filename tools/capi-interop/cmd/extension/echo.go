package main

import (
	"context"
	"encoding/json"
	"reflect"

	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// echoHandlerFuncs maps every handler name (samples.Handlers) to a function of its hook's exact Go signature that
// answers Success with the request it read, marshalled, as its message: what Cluster API's server SDK decoded.
func echoHandlerFuncs() map[string]runtimecatalog.Hook {
	out := map[string]runtimecatalog.Hook{}
	for _, h := range samples.Handlers() {
		hook, _ := samples.Lookup(h.Hook)
		out[h.Name] = echoFunc(hook)
	}
	return out
}

func echoFunc(hook samples.Hook) runtimecatalog.Hook {
	ctx := reflect.TypeOf((*context.Context)(nil)).Elem()
	signature := reflect.FuncOf([]reflect.Type{ctx, reflect.TypeOf(hook.NewRequest()), reflect.TypeOf(hook.NewResponse())}, nil, false)
	return reflect.MakeFunc(signature, func(args []reflect.Value) []reflect.Value {
		response := args[2].Interface().(runtimehooksv1.ResponseObject)
		echo, err := json.Marshal(args[1].Interface())
		if err != nil {
			response.SetStatus(runtimehooksv1.ResponseStatusFailure)
			response.SetMessage("capi-interop: echo: " + err.Error())
			return nil
		}
		response.SetStatus(runtimehooksv1.ResponseStatusSuccess)
		response.SetMessage(string(echo))
		return nil
	}).Interface()
}
