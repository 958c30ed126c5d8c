// Constants of hooks.runtime.cluster.x-k8s.io/v1alpha1, copied from Cluster API (runtime/hooks/v1alpha1).

/** The API group of Cluster API's hooks. */
export const GROUP = 'hooks.runtime.cluster.x-k8s.io'
/** The version of the hooks in this namespace. */
export const VERSION = 'v1alpha1'
/** The apiVersion of these hooks' requests and responses: hooks.runtime.cluster.x-k8s.io/v1alpha1. */
export const API_VERSION = `${GROUP}/${VERSION}`
/** The definition (and OpenAPI component) names of this package's types start with this. */
export const COMPONENT_PREFIX = 'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1'

/** ResponseStatusSuccess and ResponseStatusFailure. */
export const RESPONSE_STATUSES = ['Success', 'Failure'] as const
/** FailurePolicyIgnore and FailurePolicyFail. */
export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const
/** JSONPatchType and JSONMergePatchType. */
export const PATCH_TYPES = ['JSONPatch', 'JSONMergePatch'] as const

/** BuiltinsName: the variable of GeneratePatches and ValidateTopology requests holding the Builtins. */
export const BUILTINS_VARIABLE = 'builtin'
/** Handlers without a timeout are called with this one (seconds). */
export const DEFAULT_HANDLER_TIMEOUT_SECONDS = 10
/** The longest timeout a handler may declare (seconds). */
export const MAX_HANDLER_TIMEOUT_SECONDS = 30
