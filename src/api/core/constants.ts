// Constants of cluster.x-k8s.io/v1beta2, copied from Cluster API (api/core/v1beta2: common_types.go, cluster_types.go):
// the labels, annotations, finalizer and conditions the topology controller reads and writes.

/** The API version of Cluster API's core kinds (Cluster, ClusterClass, MachineDeployment, ...). */
export const CORE_API_VERSION = 'cluster.x-k8s.io/v1beta2'

/** ClusterNameLabel: the Cluster an object belongs to. */
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name'
/** ClusterTopologyOwnedLabel: the object is managed by the topology controller. */
export const CLUSTER_TOPOLOGY_OWNED_LABEL = 'topology.cluster.x-k8s.io/owned'
/** ClusterTopologyMachineDeploymentNameLabel: the MachineDeployment topology an object belongs to. */
export const CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL = 'topology.cluster.x-k8s.io/deployment-name'
/** ClusterTopologyMachinePoolNameLabel: the MachinePool topology an object belongs to. */
export const CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL = 'topology.cluster.x-k8s.io/pool-name'

/** MachineDeploymentNameLabel: the MachineDeployment a MachineSet or Machine belongs to. */
export const MACHINE_DEPLOYMENT_NAME_LABEL = 'cluster.x-k8s.io/deployment-name'
/** MachineControlPlaneLabel: the Machine belongs to the control plane. */
export const MACHINE_CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane'

/** ClusterTopologyUpgradeStepAnnotation: the control plane version of the upgrade step in progress. */
export const CLUSTER_TOPOLOGY_UPGRADE_STEP_ANNOTATION = 'topology.internal.cluster.x-k8s.io/upgrade-step'
/** ClusterTopologyHoldUpgradeSequenceAnnotation: on a worker topology, holds its upgrade and every later one's. */
export const CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION = 'topology.cluster.x-k8s.io/hold-upgrade-sequence'
/** ClusterTopologyDeferUpgradeAnnotation: on a worker topology, defers its upgrade. */
export const CLUSTER_TOPOLOGY_DEFER_UPGRADE_ANNOTATION = 'topology.cluster.x-k8s.io/defer-upgrade'
/** ClusterTopologyUpgradeConcurrencyAnnotation: on a Cluster, how many worker topologies upgrade at once (default 1). */
export const CLUSTER_TOPOLOGY_UPGRADE_CONCURRENCY_ANNOTATION = 'topology.cluster.x-k8s.io/upgrade-concurrency'
/** BeforeClusterUpgradeHookAnnotationPrefix: an annotation of a Cluster starting with it holds upgrades like BeforeClusterUpgrade. */
export const BEFORE_CLUSTER_UPGRADE_HOOK_ANNOTATION_PREFIX = 'before-upgrade.hook.cluster.cluster.x-k8s.io'
/** TemplateClonedFromNameAnnotation: the template an object or template was cloned from. */
export const TEMPLATE_CLONED_FROM_NAME_ANNOTATION = 'cluster.x-k8s.io/cloned-from-name'
/** TemplateClonedFromGroupKindAnnotation: the group and kind of the template an object was cloned from. */
export const TEMPLATE_CLONED_FROM_GROUP_KIND_ANNOTATION = 'cluster.x-k8s.io/cloned-from-groupkind'
/** conversion.DataAnnotation: the data a conversion keeps; Cluster API drops it from what it sends to extensions. */
export const CONVERSION_DATA_ANNOTATION = 'cluster.x-k8s.io/conversion-data'
/** corev1.LastAppliedConfigAnnotation: kubectl's; Cluster API drops it from what it sends and clones. */
export const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration'

/** ClusterFinalizer: added by the Cluster controller as soon as it sees a Cluster. */
export const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io'
/** ClusterControlPlaneInitializedCondition: True once the control plane's first node is up. */
export const CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION = 'ControlPlaneInitialized'
/** VariableDefinitionFromInline: the definitionFrom of variables a ClusterClass defines itself. */
export const VARIABLE_DEFINITION_FROM_INLINE = 'inline'
/** TemplateSuffix: a template kind is its object's kind with this suffix. */
export const TEMPLATE_SUFFIX = 'Template'
