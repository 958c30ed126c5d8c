// Names of the ExtensionConfig API (runtime.cluster.x-k8s.io) and the words its controller writes into
// conditions. Values are copied from Cluster API (api/runtime/v1beta2, core/reconcilers/extensionconfig) so
// that objects, kubectl output and alerts read the same whichever implementation manages them.

/** The API group of ExtensionConfig. */
export const EXTENSION_CONFIG_GROUP = 'runtime.cluster.x-k8s.io'
/** The kind of the ExtensionConfig API. */
export const EXTENSION_CONFIG_KIND = 'ExtensionConfig'
/** The kind of a list of ExtensionConfigs. */
export const EXTENSION_CONFIG_LIST_KIND = 'ExtensionConfigList'
/** The resource name of ExtensionConfigs in REST paths and in kubectl. */
export const EXTENSION_CONFIG_PLURAL = 'extensionconfigs'
/** The singular resource name, as kubectl accepts it. */
export const EXTENSION_CONFIG_SINGULAR = 'extensionconfig'
/** Short names kubectl accepts for ExtensionConfigs (`kubectl get ext`). */
export const EXTENSION_CONFIG_SHORT_NAMES = ['ext'] as const
/** The categories of the resource: `kubectl get cluster-api` lists ExtensionConfigs too. */
export const EXTENSION_CONFIG_CATEGORIES = ['cluster-api'] as const
/** The CRD's name, `<plural>.<group>`. */
export const EXTENSION_CONFIG_CRD_NAME = `${EXTENSION_CONFIG_PLURAL}.${EXTENSION_CONFIG_GROUP}`

/** On our CRD: who installed it, so a controller can tell its own CRD from Cluster API's (see crd-owner.ts). */
export const PART_OF_LABEL = 'app.kubernetes.io/part-of'
/** The value of {@link PART_OF_LABEL} on the CRD runtime-sdk installs. */
export const PART_OF_RUNTIME_SDK = 'runtime-sdk'
/** Cluster API's ProviderNameLabel: on everything a provider's manifests install, its CRDs included. */
export const CLUSTER_API_PROVIDER_LABEL = 'cluster.x-k8s.io/provider'

/** The hub and storage version. */
export const EXTENSION_CONFIG_STORAGE_VERSION = 'v1beta2'
/** Still served, deprecated: clients are warned and objects are converted to the hub. */
export const EXTENSION_CONFIG_DEPRECATED_VERSION = 'v1alpha1'
/** The served versions, the deprecated one first. */
export const EXTENSION_CONFIG_VERSIONS = [EXTENSION_CONFIG_DEPRECATED_VERSION, EXTENSION_CONFIG_STORAGE_VERSION] as const
/** A served version of ExtensionConfig: v1alpha1 or v1beta2. */
export type ExtensionConfigVersion = typeof EXTENSION_CONFIG_VERSIONS[number]

/** The apiVersion of ExtensionConfigs in the storage version: runtime.cluster.x-k8s.io/v1beta2. */
export const V1BETA2_API_VERSION = `${EXTENSION_CONFIG_GROUP}/${EXTENSION_CONFIG_STORAGE_VERSION}`
/** The apiVersion of ExtensionConfigs in the deprecated version: runtime.cluster.x-k8s.io/v1alpha1. */
export const V1ALPHA1_API_VERSION = `${EXTENSION_CONFIG_GROUP}/${EXTENSION_CONFIG_DEPRECATED_VERSION}`
/** The REST path of the ExtensionConfig collection in the storage version. */
export const EXTENSION_CONFIG_COLLECTION_PATH = `/apis/${V1BETA2_API_VERSION}/${EXTENSION_CONFIG_PLURAL}`
/** The apiVersions an ExtensionConfig may have, the storage version first. */
export const EXTENSION_CONFIG_API_VERSIONS = [V1BETA2_API_VERSION, V1ALPHA1_API_VERSION] as const
/** An apiVersion an ExtensionConfig may have. */
export type ExtensionConfigApiVersion = typeof EXTENSION_CONFIG_API_VERSIONS[number]

/** The warning the API server sends with every request to the deprecated version (its default wording). */
export const V1ALPHA1_DEPRECATION_WARNING = `${V1ALPHA1_API_VERSION} ${EXTENSION_CONFIG_KIND} is deprecated; use ${V1BETA2_API_VERSION} ${EXTENSION_CONFIG_KIND}`
/** The conversion webhook's path, served by the controller and named in the CRD. */
export const WEBHOOK_PATH = '/convert'

// Annotations.

/** On an ExtensionConfig: `<namespace>/<name>` of a Secret whose `ca.crt` becomes spec.clientConfig.caBundle. */
export const INJECT_CA_FROM_SECRET_ANNOTATION = 'runtime.cluster.x-k8s.io/inject-ca-from-secret'
/** On Clusters and Machines: hooks whose call is still due (comma separated). */
export const PENDING_HOOKS_ANNOTATION = 'runtime.cluster.x-k8s.io/pending-hooks'
/** On a Cluster: BeforeClusterDelete passed, the Cluster may go. */
export const OK_TO_DELETE_ANNOTATION = 'runtime.cluster.x-k8s.io/ok-to-delete'
/** Cluster API's PausedAnnotation: present (any value) on an ExtensionConfig, reconciliation is paused. */
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused'

// Conditions (metav1.Condition, status.conditions).

/** The condition type that is True once the extension's Discovery call succeeded (Cluster API's ExtensionConfigDiscoveredCondition). */
export const CONDITION_DISCOVERED = 'Discovered'
/** The reason of a True Discovered condition. */
export const REASON_DISCOVERED = 'Discovered'
/** The reason of a False Discovered condition. */
export const REASON_NOT_DISCOVERED = 'NotDiscovered'
/** Prefix of the Discovered condition's message when discovery failed; the error follows. */
export const DISCOVERY_ERROR_PREFIX = 'Error in discovery: '

/** The condition type that is True while the ExtensionConfig has the {@link PAUSED_ANNOTATION}. */
export const CONDITION_PAUSED = 'Paused'
/** The reason of a True Paused condition. */
export const REASON_PAUSED = 'Paused'
/** The reason of a False Paused condition. */
export const REASON_NOT_PAUSED = 'NotPaused'
/** The message of a True Paused condition. */
export const PAUSED_MESSAGE = `${EXTENSION_CONFIG_KIND} has the ${PAUSED_ANNOTATION} annotation`

// Legacy conditions (Cluster API v1beta1 style, status.deprecated.v1beta1.conditions).

/** The reason of a False legacy Discovered condition: the Discovery call failed (Cluster API's DiscoveryFailedV1Beta1Reason). */
export const REASON_DISCOVERY_FAILED = 'DiscoveryFailed'
/** The severity of a legacy condition whose False status is an error (Cluster API's ConditionSeverityError). */
export const SEVERITY_ERROR = 'Error'
/** The severity of a legacy condition whose False status is a warning. */
export const SEVERITY_WARNING = 'Warning'
/** The severity of a legacy condition whose False status is informative. */
export const SEVERITY_INFO = 'Info'

// Conditions and reasons of runtime-sdk's controller that Cluster API does not have.

/** True while some handler implements a hook version the catalog marks deprecated. */
export const CONDITION_DEPRECATED_HOOKS = 'DeprecatedHooks'
/** The reason of a True {@link CONDITION_DEPRECATED_HOOKS} condition. */
export const REASON_DEPRECATED_HOOKS = 'DeprecatedHookVersions'
/** Discovered is False with this reason while the inject-ca-from-secret Secret is missing or lacks ca.crt. */
export const REASON_WAITING_FOR_CA_SECRET = 'WaitingForCASecret'
/** Discovered is False with this reason when the inject-ca-from-secret annotation is not `<namespace>/<name>`. */
export const REASON_INVALID_CA_SECRET_REFERENCE = 'InvalidCASecretReference'
