// Conversion between ExtensionConfig v1alpha1 and the hub v1beta2, as Cluster API's conversion webhook does it
// (api/runtime/v1alpha1/conversion.go): the spec has the same fields; the status moves its conditions
//   v1alpha1 status.v1beta2.conditions  <->  v1beta2 status.conditions                   (metav1 conditions)
//   v1alpha1 status.conditions          <->  v1beta2 status.deprecated.v1beta1.conditions (legacy conditions)
// and drops Go's zero values the way Go's omitempty does (empty url and service.path, a service without any
// field, timeoutSeconds 0, failurePolicy ""). Every other field, known or not, is carried over untouched, so a
// round trip gives back what went in, except zero values and empty wrapper objects (`status.v1beta2: {}`,
// `status.deprecated: {}`), which mean the same as their absence and, as in Cluster API, do not survive.
import { codedError } from '../../errors/index.js'
import { EXTENSION_CONFIG_API_VERSIONS, EXTENSION_CONFIG_KIND, V1BETA2_API_VERSION, type ExtensionConfigApiVersion } from './constants.js'

/** A JSON object of any kind, converted field by field. */
type UnstructuredObject = Record<string, unknown> & { apiVersion?: unknown, kind?: unknown }

/** An object convertExtensionConfig cannot convert: not an ExtensionConfig, or not of a known version. */
export class ConversionError extends codedError('ERR_RUNTIME_SDK_CONVERSION') {}

type Obj = Record<string, unknown>

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

export function isExtensionConfigApiVersion (value: unknown): value is ExtensionConfigApiVersion {
  return (EXTENSION_CONFIG_API_VERSIONS as readonly unknown[]).includes(value)
}

/** Drops what Go would not write: empty url and service.path, a service with no field set. */
function dropZeroClientConfig (spec: unknown): void {
  if (!isObject(spec) || !isObject(spec['clientConfig'])) return
  const clientConfig = spec['clientConfig']
  if (clientConfig['url'] === '') delete clientConfig['url']
  const service = clientConfig['service']
  if (isObject(service)) {
    if (service['path'] === '') delete service['path']
    if (Object.values(service).every(v => v === '' || v === 0 || v === undefined || v === null)) delete clientConfig['service']
  }
}

/** Drops timeoutSeconds 0 and failurePolicy "" (Go's omitempty on the hub, nil pointers on v1alpha1). */
function dropZeroHandlerFields (status: Obj): void {
  const handlers = status['handlers']
  if (!Array.isArray(handlers)) return
  for (const handler of handlers) {
    if (!isObject(handler)) continue
    if (handler['timeoutSeconds'] === 0) delete handler['timeoutSeconds']
    if (handler['failurePolicy'] === '') delete handler['failurePolicy']
  }
}

function statusToHub (status: Obj): Obj {
  const { conditions: legacy, v1beta2, ...rest } = status
  const out: Obj = { ...rest }
  if (isObject(v1beta2) && v1beta2['conditions'] !== undefined) out['conditions'] = v1beta2['conditions']
  if (legacy !== undefined) out['deprecated'] = { v1beta1: { conditions: legacy } }
  return out
}

function statusFromHub (status: Obj): Obj {
  const { conditions, deprecated, ...rest } = status
  const out: Obj = { ...rest }
  const v1beta1 = isObject(deprecated) ? deprecated['v1beta1'] : undefined
  if (isObject(v1beta1) && v1beta1['conditions'] !== undefined) out['conditions'] = v1beta1['conditions']
  if (conditions !== undefined) out['v1beta2'] = { conditions }
  return out
}

/**
 * Converts an ExtensionConfig of either version to `toApiVersion`; the input is not modified. Throws
 * ConversionError for objects that are not ExtensionConfigs of a known version.
 */
export function convertExtensionConfig (obj: unknown, toApiVersion: string): Record<string, unknown> {
  if (!isObject(obj)) throw new ConversionError('expected an ExtensionConfig object')
  if (obj['kind'] !== EXTENSION_CONFIG_KIND) throw new ConversionError(`expected kind ${EXTENSION_CONFIG_KIND}, got ${JSON.stringify(obj['kind'] ?? '')}`)
  const from = obj['apiVersion']
  const supported = EXTENSION_CONFIG_API_VERSIONS.join(', ')
  if (!isExtensionConfigApiVersion(from)) throw new ConversionError(`unsupported apiVersion ${JSON.stringify(from ?? '')}: expected one of ${supported}`)
  if (!isExtensionConfigApiVersion(toApiVersion)) throw new ConversionError(`unsupported target apiVersion ${JSON.stringify(toApiVersion)}: expected one of ${supported}`)
  const out = structuredClone(obj) as UnstructuredObject
  if (from === toApiVersion) return out
  out.apiVersion = toApiVersion
  dropZeroClientConfig(out['spec'])
  const status = out['status']
  if (isObject(status)) {
    dropZeroHandlerFields(status)
    out['status'] = toApiVersion === V1BETA2_API_VERSION ? statusToHub(status) : statusFromHub(status)
  }
  return out
}

const CONVERSION_REVIEW_API_VERSION = 'apiextensions.k8s.io/v1'

/** The answer to a ConversionReview: the review's kind and apiVersion, and its response. */
export interface ConversionReviewResponse {
  /** apiVersion is apiextensions.k8s.io/v1. */
  apiVersion: typeof CONVERSION_REVIEW_API_VERSION
  /** kind is ConversionReview. */
  kind: 'ConversionReview'
  /** response is the outcome of the conversion. */
  response: {
    /** uid is the request's uid, as the API server requires. */
    uid: string
    /** convertedObjects are the request's objects converted to its desiredAPIVersion, in order; empty on failure. */
    convertedObjects: Array<Record<string, unknown>>
    /** result is status Success, or status Failure with the message saying why no object was converted. */
    result: {
      /** status Success: every object was converted. */
      status: 'Success'
    } | {
      /** status Failure: no object was converted. */
      status: 'Failure'
      /** message says why. */
      message: string
    }
  }
}

function reviewResponse (uid: string, outcome: { objects: UnstructuredObject[] } | { error: string }): ConversionReviewResponse {
  return {
    apiVersion: CONVERSION_REVIEW_API_VERSION,
    kind: 'ConversionReview',
    response: 'error' in outcome
      ? { uid, convertedObjects: [], result: { status: 'Failure', message: outcome.error } }
      : { uid, convertedObjects: outcome.objects, result: { status: 'Success' } }
  }
}

/**
 * Answers a ConversionReview (apiextensions.k8s.io/v1) the way the API server expects: the request's uid,
 * every object converted to desiredAPIVersion in order, or status Failure with a message. Never throws.
 */
export function reviewConversion (review: unknown): ConversionReviewResponse {
  const request = isObject(review) ? review['request'] : undefined
  const uid = isObject(request) && typeof request['uid'] === 'string' ? request['uid'] : ''
  const fail = (error: string) => reviewResponse(uid, { error })
  if (!isObject(review)) return fail('expected a ConversionReview object')
  if (review['apiVersion'] !== CONVERSION_REVIEW_API_VERSION || review['kind'] !== 'ConversionReview') {
    return fail(`expected a ConversionReview of ${CONVERSION_REVIEW_API_VERSION}, got kind ${JSON.stringify(review['kind'] ?? '')} of ${JSON.stringify(review['apiVersion'] ?? '')}`)
  }
  if (!isObject(request)) return fail('conversion request is missing')
  if (uid === '') return fail('request.uid is missing')
  const desired = request['desiredAPIVersion']
  if (typeof desired !== 'string') return fail('request.desiredAPIVersion is missing')
  const objects = request['objects']
  if (!Array.isArray(objects)) return fail('request.objects must be a list')
  const converted: UnstructuredObject[] = []
  for (const [i, object] of objects.entries()) {
    try {
      converted.push(convertExtensionConfig(object, desired))
    } catch (err) {
      return fail(`objects[${i}]: ${(err as Error).message}`)
    }
  }
  return reviewResponse(uid, { objects: converted })
}
