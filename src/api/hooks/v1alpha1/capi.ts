// Cluster API v1.14's definitions of the hook types and the objects they carry (definitions.json, dumped from its Go
// types by tools/capi-schemas), completed with what its Go code says beyond the validation markers.
import { FAILURE_POLICIES, RESPONSE_STATUSES } from './constants.js'
import capi from '../../../../hooks/v1alpha1/definitions.json' with { type: 'json' }

type Definition = Record<string, unknown>

const HOOKS = 'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1'
const completions: Record<string, Definition> = {
  // Constants without an enum marker.
  [`${HOOKS}.ResponseStatus`]: { enum: [...RESPONSE_STATUSES] },
  [`${HOOKS}.FailurePolicy`]: { enum: [...FAILURE_POLICIES] },
  // metav1.Time decodes null (older encoders write an unset creationTimestamp as null).
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': { nullable: true }
}

/** Every definition by name, e.g. `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`. */
export const definitions: Readonly<Record<string, Definition>> = Object.fromEntries(
  Object.entries(capi.definitions as Record<string, Definition>).map(([name, d]) => [name, { ...d, ...completions[name] }]))

/** The hooks of Cluster API's v1alpha1 catalog with the names of their request and response definitions. */
export const capiHooks: ReadonlyArray<{ hook: string, request: string, response: string }> = capi.hooks
