package randomized

import (
	"k8s.io/apimachinery/pkg/runtime"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// WithStatus fills the status of the objects a request carries (the Cluster, Machine or MachineSet), which Cluster
// API leaves out but its decoder reads like any other field: conditions with timestamps, replica counts, versions.
// The values depend only on (seed, hook, name).
func WithStatus(req runtime.Object, seed int64, hook, name string) {
	r := newRNG(seed, "status", hook, name)
	f := newFiller(r)
	switch req := req.(type) {
	case *runtimehooksv1.BeforeClusterCreateRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.AfterControlPlaneInitializedRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.BeforeClusterUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.BeforeControlPlaneUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.AfterControlPlaneUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.BeforeWorkersUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.AfterWorkersUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.AfterClusterUpgradeRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.BeforeClusterDeleteRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.GenerateUpgradePlanRequest:
		f.Fill(&req.Cluster.Status)
	case *runtimehooksv1.CanUpdateMachineRequest:
		f.Fill(&req.Current.Machine.Status)
		f.Fill(&req.Desired.Machine.Status)
	case *runtimehooksv1.CanUpdateMachineSetRequest:
		f.Fill(&req.Current.MachineSet.Status)
		f.Fill(&req.Desired.MachineSet.Status)
	case *runtimehooksv1.UpdateMachineRequest:
		f.Fill(&req.Desired.Machine.Status)
	}
}
