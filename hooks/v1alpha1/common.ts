// Types shared by every hook of hooks.runtime.cluster.x-k8s.io/v1alpha1 (common_types.go in Cluster API).
import { Base64, Int32, named, Open, Optional, Str, StringEnum, StringMap, Type, type TProperties } from '../schema.js'

export const GROUP = 'hooks.runtime.cluster.x-k8s.io'
export const VERSION = 'v1alpha1'
export const API_VERSION = `${GROUP}/${VERSION}`
export const COMPONENT_PREFIX = 'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1'

export const ResponseStatus = StringEnum(['Success', 'Failure'], { description: 'status of the call: Success or Failure.' })
export const PatchType = StringEnum(['JSONPatch', 'JSONMergePatch'], { description: 'patchType is JSONPatch (RFC 6902) or JSONMergePatch (RFC 7386).' })
export const FailurePolicy = StringEnum(['Ignore', 'Fail'], { description: 'failurePolicy: Ignore or Fail.' })

/** The longest message we accept; long enough for aggregated errors, short enough to log. */
export const MESSAGE_MAX_LENGTH = 32768

export const typeMeta = (kind: string) => ({
  kind: Optional(Str(63, { description: `kind is "${kind}".` })),
  apiVersion: Optional(Str(317, { description: `apiVersion is "${API_VERSION}".` }))
})

export const settings = {
  settings: Optional(StringMap({ maxProperties: 256, description: 'settings are key value pairs passed to the call: the ExtensionConfig settings overlaid by the caller\'s.' }))
}

export const commonResponse = {
  status: ResponseStatus,
  message: Optional(Str(MESSAGE_MAX_LENGTH, { description: 'message is a human-readable description of the outcome.' }))
}

export const retryResponse = {
  ...commonResponse,
  retryAfterSeconds: Int32({ minimum: 0, default: 0, description: 'retryAfterSeconds, when not zero, blocks the operation and asks to be called again after about that many seconds.' })
}

/** A hook request: type information, settings and the hook's own fields. */
export function request<P extends TProperties> (hook: string, properties: P, description: string) {
  return named(`${COMPONENT_PREFIX}.${hook}Request`, Type.Object({ ...typeMeta(`${hook}Request`), ...settings, ...properties }, { description }))
}

/** A hook response: type information, the common (or retry) fields and the hook's own fields. */
export function response<P extends TProperties, B extends TProperties> (hook: string, base: B, properties: P, description: string) {
  return named(`${COMPONENT_PREFIX}.${hook}Response`, Type.Object({ ...typeMeta(`${hook}Response`), ...base, ...properties }, { description }))
}

export const ObjectMeta = named(`${COMPONENT_PREFIX}.ObjectMeta`, Open({
  labels: Optional(StringMap({ maxValueLength: 63, description: 'labels of the object.' })),
  annotations: Optional(StringMap({ description: 'annotations of the object.' }))
}, { description: 'ObjectMeta holds the labels and annotations of an object.' }))

export const Patch = named(`${COMPONENT_PREFIX}.Patch`, Type.Object({
  patchType: Optional(PatchType),
  patch: Optional(Base64(20 * 1024 * 1024, { description: 'patch is the patch document, base64 encoded.' }))
}, { description: 'Patch is a JSON patch or JSON merge patch.' }))

export const UpgradeStepInfo = named(`${COMPONENT_PREFIX}.UpgradeStepInfo`, Type.Object({
  version: Str(256, { minLength: 1, description: 'version is the Kubernetes version of this upgrade step.' })
}, { description: 'UpgradeStepInfo is one step of an upgrade plan.' }))
