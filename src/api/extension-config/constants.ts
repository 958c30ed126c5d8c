// Names of the ExtensionConfig API (runtime.cluster.x-k8s.io) and the words its controller writes into
// conditions. Values are copied from Cluster API (api/runtime/v1beta2, core/reconcilers/extensionconfig) so
// that objects, kubectl output and alerts read the same whichever implementation manages them.

export const EXTENSION_CONFIG_GROUP = 'runtime.cluster.x-k8s.io'
export const EXTENSION_CONFIG_KIND = 'ExtensionConfig'
export const EXTENSION_CONFIG_LIST_KIND = 'ExtensionConfigList'
export const EXTENSION_CONFIG_PLURAL = 'extensionconfigs'
export const EXTENSION_CONFIG_SINGULAR = 'extensionconfig'
export const EXTENSION_CONFIG_SHORT_NAMES = ['ext'] as const
export const EXTENSION_CONFIG_CATEGORIES = ['cluster-api'] as const
/** The CRD's name, `<plural>.<group>`. */
export const EXTENSION_CONFIG_CRD_NAME = `${EXTENSION_CONFIG_PLURAL}.${EXTENSION_CONFIG_GROUP}`

/** On our CRD: who installed it, so a controller can tell its own CRD from Cluster API's (see crd-owner.ts). */
export const PART_OF_LABEL = 'app.kubernetes.io/part-of'
export const PART_OF_RUNTIME_SDK = 'runtime-sdk'
/** Cluster API's ProviderNameLabel: on everything a provider's manifests install, its CRDs included. */
export const CLUSTER_API_PROVIDER_LABEL = 'cluster.x-k8s.io/provider'

/** The hub and storage version. */
export const EXTENSION_CONFIG_STORAGE_VERSION = 'v1beta2'
/** Still served, deprecated: clients are warned and objects are converted to the hub. */
export const EXTENSION_CONFIG_DEPRECATED_VERSION = 'v1alpha1'
export const EXTENSION_CONFIG_VERSIONS = [EXTENSION_CONFIG_DEPRECATED_VERSION, EXTENSION_CONFIG_STORAGE_VERSION] as const
export type ExtensionConfigVersion = typeof EXTENSION_CONFIG_VERSIONS[number]

export const V1BETA2_API_VERSION = `${EXTENSION_CONFIG_GROUP}/${EXTENSION_CONFIG_STORAGE_VERSION}`
export const V1ALPHA1_API_VERSION = `${EXTENSION_CONFIG_GROUP}/${EXTENSION_CONFIG_DEPRECATED_VERSION}`
/** The REST path of the ExtensionConfig collection in the storage version. */
export const EXTENSION_CONFIG_COLLECTION_PATH = `/apis/${V1BETA2_API_VERSION}/${EXTENSION_CONFIG_PLURAL}`
export const EXTENSION_CONFIG_API_VERSIONS = [V1BETA2_API_VERSION, V1ALPHA1_API_VERSION] as const
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

export const CONDITION_DISCOVERED = 'Discovered'
export const REASON_DISCOVERED = 'Discovered'
export const REASON_NOT_DISCOVERED = 'NotDiscovered'
/** Prefix of the Discovered condition's message when discovery failed; the error follows. */
export const DISCOVERY_ERROR_PREFIX = 'Error in discovery: '

export const CONDITION_PAUSED = 'Paused'
export const REASON_PAUSED = 'Paused'
export const REASON_NOT_PAUSED = 'NotPaused'
export const PAUSED_MESSAGE = `${EXTENSION_CONFIG_KIND} has the ${PAUSED_ANNOTATION} annotation`

// Legacy conditions (Cluster API v1beta1 style, status.deprecated.v1beta1.conditions).

export const REASON_DISCOVERY_FAILED = 'DiscoveryFailed'
export const SEVERITY_ERROR = 'Error'
export const SEVERITY_WARNING = 'Warning'
export const SEVERITY_INFO = 'Info'

// Conditions and reasons of runtime-sdk's controller that Cluster API does not have.

/** True while some handler implements a hook version the catalog marks deprecated. */
export const CONDITION_DEPRECATED_HOOKS = 'DeprecatedHooks'
export const REASON_DEPRECATED_HOOKS = 'DeprecatedHookVersions'
/** Discovered is False with this reason while the inject-ca-from-secret Secret is missing or lacks ca.crt. */
export const REASON_WAITING_FOR_CA_SECRET = 'WaitingForCASecret'
/** Discovered is False with this reason when the inject-ca-from-secret annotation is not `<namespace>/<name>`. */
export const REASON_INVALID_CA_SECRET_REFERENCE = 'InvalidCASecretReference'
