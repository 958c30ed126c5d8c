package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// responder answers every call with randomized.RandomResponse(hook, seed, handler, n), n counting the calls of each
// handler from 0, and appends one JSON line per call to the answers log:
//
//	{"hook":..,"handler":..,"call":n,"response":<the JSON the server SDK sends>,"decoded":<canonical JSON>}
//
// `response` is json.Marshal of the response object, byte for byte what the server SDK writes (it marshals the
// same object after the handler returns); `decoded` is that JSON decoded into a fresh object of the hook's Go
// response type and marshalled again: what Cluster API's runtime client hands back. The line is written before
// the handler returns, so it is on disk before the caller reads the answer.
type responder struct {
	seed  int64
	mu    sync.Mutex
	calls map[string]int
	log   *os.File
}

func newResponder(seed int64, logFile string) (*responder, error) {
	r := &responder{seed: seed, calls: map[string]int{}}
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("opening --answers-log: %w", err)
		}
		r.log = f
	}
	return r, nil
}

type answerLine struct {
	Hook     string          `json:"hook"`
	Handler  string          `json:"handler"`
	Call     int             `json:"call"`
	Response json.RawMessage `json:"response"`
	Decoded  json.RawMessage `json:"decoded"`
}

// answer returns the response of the next call of handler; errors become a Failure the caller can see.
func (r *responder) answer(ctx context.Context, hook, handler string) runtime.Object {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.calls[handler]
	r.calls[handler] = n + 1
	resp, err := r.respond(hook, handler, n)
	if err != nil {
		h, _ := samples.Lookup(hook)
		failure := h.NewResponse()
		failure.(runtimehooksv1.ResponseObject).SetStatus(runtimehooksv1.ResponseStatusFailure)
		failure.(runtimehooksv1.ResponseObject).SetMessage("capi-interop: random response: " + err.Error())
		ctrl.LoggerFrom(ctx).Error(err, "random response", "hook", hook, "handler", handler, "call", n)
		return failure
	}
	return resp
}

func (r *responder) respond(hook, handler string, n int) (runtime.Object, error) {
	resp, err := randomized.RandomResponse(hook, r.seed, handler, n)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	h, _ := samples.Lookup(hook)
	decoded := h.NewResponse()
	if err := json.Unmarshal(raw, decoded); err != nil {
		return nil, fmt.Errorf("Cluster API's client could not decode the answer: %w", err)
	}
	canonical, err := json.Marshal(decoded)
	if err != nil {
		return nil, err
	}
	if r.log != nil {
		line, err := json.Marshal(answerLine{Hook: hook, Handler: handler, Call: n, Response: raw, Decoded: canonical})
		if err != nil {
			return nil, err
		}
		if _, err := r.log.Write(append(line, '\n')); err != nil {
			return nil, fmt.Errorf("writing the answers log: %w", err)
		}
	}
	return resp, nil
}

// randomFunc returns a handler function of the hook's exact Go signature answering with r.
func randomFunc[Req, Resp any](r *responder, hook, handler string) func(context.Context, *Req, *Resp) {
	return func(ctx context.Context, _ *Req, resp *Resp) {
		*resp = *any(r.answer(ctx, hook, handler)).(*Resp)
	}
}

// randomHandlerFuncs maps every handler name (samples.Handlers) to a function answering random responses.
func randomHandlerFuncs(r *responder) (map[string]runtimecatalog.Hook, error) {
	out := map[string]runtimecatalog.Hook{}
	for _, h := range samples.Handlers() {
		var fn runtimecatalog.Hook
		switch h.Hook {
		case "BeforeClusterCreate":
			fn = randomFunc[runtimehooksv1.BeforeClusterCreateRequest, runtimehooksv1.BeforeClusterCreateResponse](r, h.Hook, h.Name)
		case "AfterControlPlaneInitialized":
			fn = randomFunc[runtimehooksv1.AfterControlPlaneInitializedRequest, runtimehooksv1.AfterControlPlaneInitializedResponse](r, h.Hook, h.Name)
		case "BeforeClusterUpgrade":
			fn = randomFunc[runtimehooksv1.BeforeClusterUpgradeRequest, runtimehooksv1.BeforeClusterUpgradeResponse](r, h.Hook, h.Name)
		case "BeforeControlPlaneUpgrade":
			fn = randomFunc[runtimehooksv1.BeforeControlPlaneUpgradeRequest, runtimehooksv1.BeforeControlPlaneUpgradeResponse](r, h.Hook, h.Name)
		case "AfterControlPlaneUpgrade":
			fn = randomFunc[runtimehooksv1.AfterControlPlaneUpgradeRequest, runtimehooksv1.AfterControlPlaneUpgradeResponse](r, h.Hook, h.Name)
		case "BeforeWorkersUpgrade":
			fn = randomFunc[runtimehooksv1.BeforeWorkersUpgradeRequest, runtimehooksv1.BeforeWorkersUpgradeResponse](r, h.Hook, h.Name)
		case "AfterWorkersUpgrade":
			fn = randomFunc[runtimehooksv1.AfterWorkersUpgradeRequest, runtimehooksv1.AfterWorkersUpgradeResponse](r, h.Hook, h.Name)
		case "AfterClusterUpgrade":
			fn = randomFunc[runtimehooksv1.AfterClusterUpgradeRequest, runtimehooksv1.AfterClusterUpgradeResponse](r, h.Hook, h.Name)
		case "BeforeClusterDelete":
			fn = randomFunc[runtimehooksv1.BeforeClusterDeleteRequest, runtimehooksv1.BeforeClusterDeleteResponse](r, h.Hook, h.Name)
		case "GeneratePatches":
			fn = randomFunc[runtimehooksv1.GeneratePatchesRequest, runtimehooksv1.GeneratePatchesResponse](r, h.Hook, h.Name)
		case "ValidateTopology":
			fn = randomFunc[runtimehooksv1.ValidateTopologyRequest, runtimehooksv1.ValidateTopologyResponse](r, h.Hook, h.Name)
		case "DiscoverVariables":
			fn = randomFunc[runtimehooksv1.DiscoverVariablesRequest, runtimehooksv1.DiscoverVariablesResponse](r, h.Hook, h.Name)
		case "CanUpdateMachine":
			fn = randomFunc[runtimehooksv1.CanUpdateMachineRequest, runtimehooksv1.CanUpdateMachineResponse](r, h.Hook, h.Name)
		case "CanUpdateMachineSet":
			fn = randomFunc[runtimehooksv1.CanUpdateMachineSetRequest, runtimehooksv1.CanUpdateMachineSetResponse](r, h.Hook, h.Name)
		case "UpdateMachine":
			fn = randomFunc[runtimehooksv1.UpdateMachineRequest, runtimehooksv1.UpdateMachineResponse](r, h.Hook, h.Name)
		case "GenerateUpgradePlan":
			fn = randomFunc[runtimehooksv1.GenerateUpgradePlanRequest, runtimehooksv1.GenerateUpgradePlanResponse](r, h.Hook, h.Name)
		default:
			return nil, fmt.Errorf("no random responses for hook %s", h.Hook)
		}
		out[h.Name] = fn
	}
	return out, nil
}
