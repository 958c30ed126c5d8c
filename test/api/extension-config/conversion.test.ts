// Conversion v1alpha1 <-> v1beta2: lossless round trips for valid objects (fast-check), the status moves of
// Cluster API's webhook, Go's zero values, and ConversionReview handling.
import { isDeepStrictEqual } from 'node:util'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import t from 'tap'
import { convertExtensionConfig, ConversionError, reviewConversion } from '../../../src/api/extension-config/conversion.js'
import * as v1alpha1 from '../../../src/api/extension-config/v1alpha1.js'
import * as v1beta2 from '../../../src/api/extension-config/v1beta2.js'
import { validateExtensionConfig } from '../../../src/api/extension-config/validate.js'

const V1BETA2 = 'runtime.cluster.x-k8s.io/v1beta2'
const V1ALPHA1 = 'runtime.cluster.x-k8s.io/v1alpha1'

// Valid objects, as the API server would store them.
const label = fc.stringMatching(/^[a-z]([-a-z0-9]{0,8}[a-z0-9])?$/)
const labelName = fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,8}[A-Za-z0-9])?$/)
const labelKey = fc.tuple(fc.option(label.map(l => `${l}.example.com`), { nil: undefined }), labelName).map(([prefix, name]) => prefix ? `${prefix}/${name}` : name)
const labelValue = fc.oneof(fc.constant(''), labelName)
const path = fc.stringMatching(/^(\/[a-z0-9._~-]{1,8}){1,3}$/)
const word = fc.stringMatching(/^[A-Za-z0-9._-]{1,16}$/)
const time = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map(d => d.toISOString().replace(/\.\d{3}Z$/, 'Z'))
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })

const url = fc.tuple(label, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.option(path, { nil: undefined }))
  .map(([host, port, p]) => `https://${host}.example.com${port ? `:${port}` : ''}${p ?? ''}`)
const service = fc.record({ namespace: label, name: label, path, port: fc.integer({ min: 1, max: 65535 }) }, { requiredKeys: ['namespace', 'name', 'port'] })
const caBundle = fc.uint8Array({ minLength: 1, maxLength: 48 }).map(b => Buffer.from(b).toString('base64'))
const clientConfig = fc.oneof(
  fc.record({ url, caBundle }, { requiredKeys: ['url'] }),
  fc.record({ service, caBundle }, { requiredKeys: ['service'] })
)
const requirement = fc.oneof(
  fc.record({ key: labelKey, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(labelValue, { minLength: 1, maxLength: 3 }) }),
  fc.record({ key: labelKey, operator: fc.constantFrom('Exists', 'DoesNotExist') })
)
const namespaceSelector = fc.record({
  matchLabels: fc.dictionary(labelKey, labelValue, { maxKeys: 3 }),
  matchExpressions: fc.array(requirement, { maxLength: 3 })
}, { requiredKeys: [] })
const spec = fc.record({
  clientConfig,
  namespaceSelector,
  settings: fc.dictionary(word, fc.string({ maxLength: 24 }), { maxKeys: 3 })
}, { requiredKeys: ['clientConfig', 'namespaceSelector'] })

/** Metadata the API server owns, and fields no version knows: both must survive conversion. */
const metadata = fc.record({
  name: label,
  uid: fc.uuid(),
  resourceVersion: fc.nat().map(String),
  generation: fc.nat(),
  creationTimestamp: time,
  labels: fc.dictionary(labelKey, labelValue, { maxKeys: 2 }),
  annotations: fc.dictionary(labelKey, fc.string({ maxLength: 16 }), { maxKeys: 2 }),
  managedFields: fc.array(fc.record({ manager: word, operation: fc.constantFrom('Apply', 'Update'), fieldsV1: fc.constant({ 'f:spec': {} }) }), { maxLength: 2 }),
  futureMetadataField: fc.jsonValue({ maxDepth: 2 })
}, { requiredKeys: ['name'] })

const condition = fc.record({
  type: fc.constantFrom('Discovered', 'Paused', 'Ready', 'example.com/Custom'),
  status: fc.constantFrom('True', 'False', 'Unknown'),
  observedGeneration: fc.nat(),
  lastTransitionTime: time,
  reason: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/),
  message: fc.string({ maxLength: 24 })
}, { requiredKeys: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] })
const conditions = fc.uniqueArray(condition, { selector: c => c.type, maxLength: 3 })
const legacyCondition = fc.record({
  type: fc.constantFrom('Discovered', 'Ready'),
  status: fc.constantFrom('True', 'False', 'Unknown'),
  severity: fc.constantFrom('Error', 'Warning', 'Info'),
  lastTransitionTime: time,
  reason: fc.constantFrom('DiscoveryFailed', 'Other'),
  message: fc.string({ minLength: 1, maxLength: 24 })
}, { requiredKeys: ['type', 'status', 'lastTransitionTime'] })
const legacyConditions = fc.array(legacyCondition, { maxLength: 2 })

/** Hub timeouts are at least 1; v1alpha1 allows any int32 but 0, which means "not set" (Go's zero value). */
const handlers = (timeoutSeconds: fc.Arbitrary<number>) => fc.uniqueArray(fc.record({
  name: label.map(l => `${l}.ext`),
  requestHook: fc.record({ apiVersion: fc.constant('hooks.runtime.cluster.x-k8s.io/v1alpha1'), hook: fc.constantFrom('BeforeClusterCreate', 'AfterClusterUpgrade') }),
  timeoutSeconds,
  failurePolicy: fc.constantFrom('Fail', 'Ignore')
}, { requiredKeys: ['name', 'requestHook'] }), { selector: h => h.name, maxLength: 3 })

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined })
const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined))

// Wrapper objects are only generated with content: an empty one means the same as none (as in Cluster API's fuzzer).
const hubStatus = fc.record({
  conditions: optional(conditions),
  handlers: optional(handlers(fc.integer({ min: 1, max: 2 ** 31 - 1 }))),
  legacy: optional(legacyConditions),
  future: optional(fc.jsonValue({ maxDepth: 1 }))
}).map(({ conditions, handlers, legacy, future }) =>
  defined({ conditions, handlers, deprecated: legacy && { v1beta1: { conditions: legacy } }, futureStatusField: future }))
  // The hub's status has minProperties 1: an empty one is not a valid hub object.
  .filter(status => Object.keys(status).length > 0)

const v1alpha1Status = fc.record({
  conditions: optional(legacyConditions),
  handlers: optional(handlers(int32.filter(n => n !== 0))),
  v1beta2: optional(conditions),
  future: optional(fc.jsonValue({ maxDepth: 1 }))
}).map(({ conditions, handlers, v1beta2, future }) =>
  defined({ conditions, handlers, v1beta2: v1beta2 && { conditions: v1beta2 }, futureStatusField: future }))

/** Objects as they arrive over the wire (JSON: plain prototypes, no undefined fields). */
const object = (apiVersion: string, status: fc.Arbitrary<Record<string, unknown>>) =>
  fc.record({ metadata, spec, status: optional(status) })
    .map(o => JSON.parse(JSON.stringify({ apiVersion, kind: 'ExtensionConfig', ...o })) as Record<string, unknown>)

const hubObject = object(V1BETA2, hubStatus)
const v1alpha1Object = object(V1ALPHA1, v1alpha1Status)

// The generators must produce what the CRD accepts: spec through validateExtensionConfig, status through its schema.
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats.default(ajv, ['byte', 'int32', 'int64', 'date-time'])
const hubStatusValid = ajv.compile(v1beta2.ExtensionConfigStatus)
const v1alpha1StatusValid = ajv.compile(v1alpha1.ExtensionConfigStatus)

function assertValid (obj: Record<string, unknown>, statusValid: (s: unknown) => boolean): void {
  const result = validateExtensionConfig(obj)
  if (!result.ok) throw new Error(`generated an invalid object: ${result.errors.join('; ')}`)
  if (obj['status'] !== undefined && !statusValid(obj['status'])) throw new Error(`generated an invalid status: ${JSON.stringify(obj['status'])}`)
}

t.test('hub -> v1alpha1 -> hub gives back every valid object', async t => {
  fc.assert(fc.property(hubObject, hub => {
    assertValid(hub, hubStatusValid)
    return isDeepStrictEqual(convertExtensionConfig(convertExtensionConfig(hub, V1ALPHA1), V1BETA2), hub)
  }), { numRuns: 300 })
  t.pass('300 objects')
})

t.test('v1alpha1 -> hub -> v1alpha1 gives back every valid object', async t => {
  fc.assert(fc.property(v1alpha1Object, spoke => {
    assertValid(spoke, v1alpha1StatusValid)
    return isDeepStrictEqual(convertExtensionConfig(convertExtensionConfig(spoke, V1BETA2), V1ALPHA1), spoke)
  }), { numRuns: 300 })
  t.pass('300 objects')
})

/**
 * v1alpha1 accepts handler timeouts below 1 and an empty status, which the hub schema refuses from clients;
 * conversion carries them over as they are (the API server does not validate what conversion returns).
 */
function hubCompatible (spoke: Record<string, unknown>): boolean {
  const status = spoke['status'] as { handlers?: Array<{ timeoutSeconds?: number }> } | undefined
  if (status === undefined) return true
  return Object.keys(status).length > 0 && (status.handlers ?? []).every(h => h.timeoutSeconds === undefined || h.timeoutSeconds >= 1)
}

t.test('converted objects are valid in the target version', async t => {
  fc.assert(fc.property(hubObject, hub => {
    const spoke = convertExtensionConfig(hub, V1ALPHA1)
    return validateExtensionConfig(spoke).ok && (spoke['status'] === undefined || v1alpha1StatusValid(spoke['status']))
  }), { numRuns: 100 })
  fc.assert(fc.property(v1alpha1Object.filter(hubCompatible), spoke => {
    const hub = convertExtensionConfig(spoke, V1BETA2)
    return validateExtensionConfig(hub).ok && (hub['status'] === undefined || hubStatusValid(hub['status']))
  }), { numRuns: 100 })
  t.pass('100 objects each way')
})

t.test('spec, metadata and unknown fields are carried over unchanged', async t => {
  fc.assert(fc.property(hubObject, hub => {
    const spoke = convertExtensionConfig(hub, V1ALPHA1)
    return spoke.apiVersion === V1ALPHA1 && spoke['kind'] === 'ExtensionConfig' &&
      isDeepStrictEqual(spoke['spec'], hub['spec']) && isDeepStrictEqual(spoke['metadata'], hub['metadata']) &&
      isDeepStrictEqual((spoke['status'] as Record<string, unknown> | undefined)?.['futureStatusField'], (hub['status'] as Record<string, unknown> | undefined)?.['futureStatusField'])
  }), { numRuns: 100 })
  t.pass('100 objects')
})

const cond = { type: 'Discovered', status: 'True', reason: 'Discovered', message: '', observedGeneration: 2, lastTransitionTime: '2025-01-01T00:00:00Z' }
const legacy = { type: 'Discovered', status: 'False', severity: 'Error', reason: 'DiscoveryFailed', message: 'Error in discovery: x', lastTransitionTime: '2025-01-01T00:00:00Z' }
const handler = { name: 'bcc.ext', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' }
const base = { kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: 'https://x.example' }, namespaceSelector: {} } }

t.test('status conditions move between the versions\' fields', async t => {
  const hub = { ...base, apiVersion: V1BETA2, status: { conditions: [cond], handlers: [handler], deprecated: { v1beta1: { conditions: [legacy] } } } }
  const spoke = convertExtensionConfig(hub, V1ALPHA1)
  t.same(spoke, { ...base, apiVersion: V1ALPHA1, status: { handlers: [handler], conditions: [legacy], v1beta2: { conditions: [cond] } } })
  t.same(convertExtensionConfig(spoke, V1BETA2), hub)
  t.same(hub.status.conditions, [cond], 'the input is not modified')
  t.same(convertExtensionConfig({ ...base, apiVersion: V1BETA2, status: { conditions: [] } }, V1ALPHA1)['status'], { v1beta2: { conditions: [] } }, 'an empty list is kept')
})

t.test('Go zero values and empty wrappers are dropped, as Cluster API\'s webhook drops them', async t => {
  const zero = convertExtensionConfig({
    ...base,
    apiVersion: V1ALPHA1,
    spec: { clientConfig: { url: '', service: { name: '', namespace: '', path: '' } } },
    status: { handlers: [{ ...handler, timeoutSeconds: 0, failurePolicy: '' }], v1beta2: {} }
  }, V1BETA2)
  t.same(zero['spec'], { clientConfig: {} })
  t.same(zero['status'], { handlers: [{ name: handler.name, requestHook: handler.requestHook }] })
  const back = convertExtensionConfig({ ...base, apiVersion: V1BETA2, spec: { clientConfig: { service: { name: 's', namespace: 'n', path: '' } } }, status: { deprecated: { v1beta1: {} } } }, V1ALPHA1)
  t.same(back['spec'], { clientConfig: { service: { name: 's', namespace: 'n' } } })
  t.same(back['status'], {})
})

t.test('same version: a copy; other inputs: ConversionError', async t => {
  const hub = { ...base, apiVersion: V1BETA2, status: { conditions: [cond] } }
  const copy = convertExtensionConfig(hub, V1BETA2)
  t.same(copy, hub)
  t.not(copy, hub)
  t.throws(() => convertExtensionConfig('x', V1BETA2), new ConversionError('expected an ExtensionConfig object'))
  t.throws(() => convertExtensionConfig({ ...hub, kind: 'Cluster' }, V1ALPHA1), new ConversionError('expected kind ExtensionConfig, got "Cluster"'))
  t.throws(() => convertExtensionConfig({ ...hub, apiVersion: 'runtime.cluster.x-k8s.io/v1' }, V1ALPHA1),
    new ConversionError('unsupported apiVersion "runtime.cluster.x-k8s.io/v1": expected one of runtime.cluster.x-k8s.io/v1beta2, runtime.cluster.x-k8s.io/v1alpha1'))
  t.throws(() => convertExtensionConfig(hub, 'runtime.cluster.x-k8s.io/v1beta1'),
    new ConversionError('unsupported target apiVersion "runtime.cluster.x-k8s.io/v1beta1": expected one of runtime.cluster.x-k8s.io/v1beta2, runtime.cluster.x-k8s.io/v1alpha1'))
})

const review = (request: unknown) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request })

t.test('ConversionReview: uid echoed, every object converted in order', async t => {
  const hub = { ...base, apiVersion: V1BETA2, status: { conditions: [cond] } }
  const spoke = convertExtensionConfig(hub, V1ALPHA1)
  const answer = reviewConversion(review({ uid: 'u-1', desiredAPIVersion: V1ALPHA1, objects: [hub, spoke] }))
  t.same(answer, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    response: { uid: 'u-1', convertedObjects: [spoke, spoke], result: { status: 'Success' } }
  })
  t.same(reviewConversion(review({ uid: 'u-2', desiredAPIVersion: V1BETA2, objects: [] })).response, { uid: 'u-2', convertedObjects: [], result: { status: 'Success' } })
})

t.test('ConversionReview: bad input is a Failure with a message, never an exception', async t => {
  const failure = (input: unknown) => {
    const { response } = reviewConversion(input)
    return response.result.status === 'Failure' ? [response.uid, response.result.message, response.convertedObjects.length] : ['success']
  }
  t.same(failure(null), ['', 'expected a ConversionReview object', 0])
  t.same(failure({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: { uid: 'u' } }),
    ['u', 'expected a ConversionReview of apiextensions.k8s.io/v1, got kind "ConversionReview" of "apiextensions.k8s.io/v1beta1"', 0])
  t.same(failure(review(undefined)), ['', 'conversion request is missing', 0])
  t.same(failure(review({ desiredAPIVersion: V1BETA2, objects: [] })), ['', 'request.uid is missing', 0])
  t.same(failure(review({ uid: 'u', objects: [] })), ['u', 'request.desiredAPIVersion is missing', 0])
  t.same(failure(review({ uid: 'u', desiredAPIVersion: V1BETA2, objects: {} })), ['u', 'request.objects must be a list', 0])
  t.same(failure(review({ uid: 'u', desiredAPIVersion: V1BETA2, objects: [{ ...base, apiVersion: V1ALPHA1 }, { ...base, apiVersion: V1ALPHA1, kind: 'Cluster' }] })),
    ['u', 'objects[1]: expected kind ExtensionConfig, got "Cluster"', 0])
  t.same(failure(review({ uid: 'u', desiredAPIVersion: 'v1', objects: [{ ...base, apiVersion: V1ALPHA1 }] }))[1],
    'objects[0]: unsupported target apiVersion "v1": expected one of runtime.cluster.x-k8s.io/v1beta2, runtime.cluster.x-k8s.io/v1alpha1')
  fc.assert(fc.property(fc.anything(), fc.anything(), (request, objects) => {
    const { response } = reviewConversion(review(typeof request === 'object' && request !== null ? { ...request, objects } : request))
    return typeof response.uid === 'string' && ['Success', 'Failure'].includes(response.result.status)
  }), { numRuns: 200 })
})
