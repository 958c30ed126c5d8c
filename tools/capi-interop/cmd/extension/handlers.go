package main

import (
	"context"
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// handlerFuncs maps handler names (samples.Handlers) to their implementation; slowDelay is the sleep of `slow`.
func handlerFuncs(slowDelay time.Duration) map[string]runtimecatalog.Hook {
	return map[string]runtimecatalog.Hook{
		"before-cluster-create": func(ctx context.Context, req *runtimehooksv1.BeforeClusterCreateRequest, resp *runtimehooksv1.BeforeClusterCreateResponse) {
			succeed(ctx, "BeforeClusterCreate", &req.Cluster, resp, "")
		},
		"after-control-plane-initialized": func(ctx context.Context, req *runtimehooksv1.AfterControlPlaneInitializedRequest, resp *runtimehooksv1.AfterControlPlaneInitializedResponse) {
			succeed(ctx, "AfterControlPlaneInitialized", &req.Cluster, resp, "")
		},
		"before-cluster-upgrade": func(ctx context.Context, req *runtimehooksv1.BeforeClusterUpgradeRequest, resp *runtimehooksv1.BeforeClusterUpgradeResponse) {
			succeed(ctx, "BeforeClusterUpgrade", &req.Cluster, resp, req.FromKubernetesVersion+" -> "+req.ToKubernetesVersion)
		},
		"before-control-plane-upgrade": func(ctx context.Context, req *runtimehooksv1.BeforeControlPlaneUpgradeRequest, resp *runtimehooksv1.BeforeControlPlaneUpgradeResponse) {
			succeed(ctx, "BeforeControlPlaneUpgrade", &req.Cluster, resp, req.FromKubernetesVersion+" -> "+req.ToKubernetesVersion)
		},
		"after-control-plane-upgrade": func(ctx context.Context, req *runtimehooksv1.AfterControlPlaneUpgradeRequest, resp *runtimehooksv1.AfterControlPlaneUpgradeResponse) {
			succeed(ctx, "AfterControlPlaneUpgrade", &req.Cluster, resp, req.KubernetesVersion)
		},
		"before-workers-upgrade": func(ctx context.Context, req *runtimehooksv1.BeforeWorkersUpgradeRequest, resp *runtimehooksv1.BeforeWorkersUpgradeResponse) {
			succeed(ctx, "BeforeWorkersUpgrade", &req.Cluster, resp, req.FromKubernetesVersion+" -> "+req.ToKubernetesVersion)
		},
		"after-workers-upgrade": func(ctx context.Context, req *runtimehooksv1.AfterWorkersUpgradeRequest, resp *runtimehooksv1.AfterWorkersUpgradeResponse) {
			succeed(ctx, "AfterWorkersUpgrade", &req.Cluster, resp, req.KubernetesVersion)
		},
		"after-cluster-upgrade": func(ctx context.Context, req *runtimehooksv1.AfterClusterUpgradeRequest, resp *runtimehooksv1.AfterClusterUpgradeResponse) {
			succeed(ctx, "AfterClusterUpgrade", &req.Cluster, resp, req.KubernetesVersion)
		},
		"before-cluster-delete": func(ctx context.Context, req *runtimehooksv1.BeforeClusterDeleteRequest, resp *runtimehooksv1.BeforeClusterDeleteResponse) {
			succeed(ctx, "BeforeClusterDelete", &req.Cluster, resp, "")
		},
		"generate-patches": func(ctx context.Context, req *runtimehooksv1.GeneratePatchesRequest, resp *runtimehooksv1.GeneratePatchesResponse) {
			*resp = *samples.GeneratePatchesResponseFor(req)
			ctrl.LoggerFrom(ctx).Info("GeneratePatches", "items", len(req.Items))
		},
		"validate-topology": func(ctx context.Context, req *runtimehooksv1.ValidateTopologyRequest, resp *runtimehooksv1.ValidateTopologyResponse) {
			resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
			ctrl.LoggerFrom(ctx).Info("ValidateTopology", "items", len(req.Items))
		},
		"discover-variables": func(ctx context.Context, _ *runtimehooksv1.DiscoverVariablesRequest, resp *runtimehooksv1.DiscoverVariablesResponse) {
			resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
			resp.Variables = samples.Variables()
			ctrl.LoggerFrom(ctx).Info("DiscoverVariables", "variables", len(resp.Variables))
		},
		"can-update-machine": func(ctx context.Context, req *runtimehooksv1.CanUpdateMachineRequest, resp *runtimehooksv1.CanUpdateMachineResponse) {
			*resp = *samples.CanUpdateMachineResponse()
			ctrl.LoggerFrom(ctx).Info("CanUpdateMachine", "machine", req.Desired.Machine.Name)
		},
		"can-update-machineset": func(ctx context.Context, req *runtimehooksv1.CanUpdateMachineSetRequest, resp *runtimehooksv1.CanUpdateMachineSetResponse) {
			*resp = *samples.CanUpdateMachineSetResponse()
			ctrl.LoggerFrom(ctx).Info("CanUpdateMachineSet", "machineSet", req.Desired.MachineSet.Name)
		},
		"update-machine": func(ctx context.Context, req *runtimehooksv1.UpdateMachineRequest, resp *runtimehooksv1.UpdateMachineResponse) {
			resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
			resp.SetMessage("Extension completed updating Machine " + req.Desired.Machine.Namespace + "/" + req.Desired.Machine.Name)
			resp.SetRetryAfterSeconds(0)
			ctrl.LoggerFrom(ctx).Info("UpdateMachine", "machine", req.Desired.Machine.Name)
		},
		"generate-upgrade-plan": func(ctx context.Context, req *runtimehooksv1.GenerateUpgradePlanRequest, resp *runtimehooksv1.GenerateUpgradePlanResponse) {
			*resp = *samples.UpgradePlanFor(req)
			ctrl.LoggerFrom(ctx).Info("GenerateUpgradePlan", "from", req.FromControlPlaneKubernetesVersion, "to", req.ToKubernetesVersion)
		},
		samples.BlockingHandler: func(ctx context.Context, req *runtimehooksv1.BeforeClusterCreateRequest, resp *runtimehooksv1.BeforeClusterCreateResponse) {
			resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
			resp.SetMessage(samples.BlockingMessage)
			resp.SetRetryAfterSeconds(samples.BlockingRetryAfterSeconds)
			ctrl.LoggerFrom(ctx).Info("BeforeClusterCreate blocking", "cluster", req.Cluster.Name)
		},
		samples.FailingHandler: func(ctx context.Context, req *runtimehooksv1.BeforeClusterCreateRequest, resp *runtimehooksv1.BeforeClusterCreateResponse) {
			resp.SetStatus(runtimehooksv1.ResponseStatusFailure)
			resp.SetMessage(samples.FailingMessage)
			ctrl.LoggerFrom(ctx).Info("BeforeClusterCreate failing", "cluster", req.Cluster.Name)
		},
		samples.SlowHandler: func(ctx context.Context, req *runtimehooksv1.BeforeClusterCreateRequest, resp *runtimehooksv1.BeforeClusterCreateResponse) {
			log := ctrl.LoggerFrom(ctx)
			log.Info("BeforeClusterCreate slow: sleeping", "delay", slowDelay.String(), "cluster", req.Cluster.Name)
			timer := time.NewTimer(slowDelay)
			defer timer.Stop()
			select {
			case <-timer.C:
				resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
				resp.SetMessage(fmt.Sprintf("slept %s", slowDelay))
			case <-ctx.Done():
				log.Info("BeforeClusterCreate slow: request cancelled", "cause", context.Cause(ctx).Error())
				resp.SetStatus(runtimehooksv1.ResponseStatusFailure)
				resp.SetMessage("request cancelled: " + context.Cause(ctx).Error())
			}
		},
	}
}

// succeed answers a lifecycle hook: Success, retryAfterSeconds 0 (when the type has it) and a message naming the
// Cluster, which proves the request was decoded.
func succeed(ctx context.Context, hook string, cluster *clusterv1.Cluster, resp runtimehooksv1.ResponseObject, detail string) {
	msg := fmt.Sprintf("%s: cluster %s/%s", hook, cluster.Namespace, cluster.Name)
	if detail != "" {
		msg += " " + detail
	}
	resp.SetStatus(runtimehooksv1.ResponseStatusSuccess)
	resp.SetMessage(msg)
	if r, ok := resp.(runtimehooksv1.RetryResponseObject); ok {
		r.SetRetryAfterSeconds(0)
	}
	ctrl.LoggerFrom(ctx).Info(msg)
}
