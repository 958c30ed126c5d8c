// Cluster API's hooks are checked as Go's encoding/json decodes them into Cluster API's types: what it accepts, what
// it refuses and in which words, nesting, and what a handler receives (Go's zero values where null or nothing was
// sent). test/interop/decoder-parity.test.ts compares all of this with Cluster API's Go server on thousands of requests.
import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'

const catalog = createCatalog()
const gvh = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })
/** The request check's message, or undefined when the request passes. */
const refused = (hook: string, body: unknown) => {
  const result = catalog.validateRequest(gvh(hook), body)
  return result.valid ? undefined : result.message
}
const nested = (levels: number, inner = '1') => JSON.parse(`${'['.repeat(levels)}${inner}${']'.repeat(levels)}`) as unknown
const withCluster = (cluster: Record<string, unknown>) => ({ cluster: { metadata: {}, ...cluster } })

t.test('what Go decodes passes: null anywhere, unknown fields, strings the CRDs would refuse, another kind and apiVersion', async t => {
  t.equal(refused('BeforeClusterCreate', null), undefined, 'a JSON null request')
  t.equal(refused('BeforeClusterCreate', {}), undefined, 'an empty request: Go reads the zero Cluster')
  t.equal(refused('BeforeClusterCreate', { cluster: null, settings: null, kind: null }), undefined)
  t.equal(refused('BeforeClusterCreate', withCluster({ metadata: { name: null, labels: { a: null } }, spec: { topology: { variables: [null] } } })), undefined)
  t.equal(refused('BeforeClusterCreate', { kind: 'GeneratePatchesRequest', apiVersion: 'example.com/v9', cluster: { metadata: {} } }), undefined,
    'kind and apiVersion are any strings to Go\'s decoder')
  t.equal(refused('BeforeClusterCreate', withCluster({
    metadata: { name: 'Not_A_DNS_Name!'.repeat(100), namespace: '' },
    spec: { topology: { classRef: { name: '' }, version: 'not a version' }, clusterNetwork: { apiServerPort: -5 } }
  })), undefined, 'patterns, lengths and bounds are the API server\'s business')
  t.equal(refused('BeforeClusterCreate', { future: { deep: [1, 'two', { three: null }] }, cluster: { metadata: { futureField: 1 }, status: { futureStatus: true } } }), undefined,
    'unknown fields at any depth are ignored')
})

t.test('a value of another JSON type than the Go field takes is refused naming the field, in Go\'s words', async t => {
  t.equal(refused('BeforeClusterCreate', []), 'json: cannot unmarshal array into Go value of type v1alpha1.BeforeClusterCreateRequest')
  t.equal(refused('BeforeClusterCreate', { cluster: 'c1' }), 'cluster: json: cannot unmarshal string into Go value of type v1beta2.Cluster')
  t.equal(refused('BeforeClusterCreate', withCluster({ metadata: { name: 5 } })), 'cluster.metadata.name: json: cannot unmarshal number into Go value of type string')
  t.equal(refused('BeforeClusterCreate', withCluster({ metadata: { labels: { 'app.kubernetes.io/name': true } } })),
    'cluster.metadata.labels["app.kubernetes.io/name"]: json: cannot unmarshal bool into Go value of type string')
  t.equal(refused('BeforeClusterCreate', withCluster({ status: { workers: { versions: {} } } })),
    'cluster.status.workers.versions: json: cannot unmarshal object into Go value of type []v1beta2.StatusVersion', 'an embedded object\'s status is decoded too')
  t.equal(refused('BeforeClusterCreate', { settings: ['a'] }), 'settings: json: cannot unmarshal array into Go value of type map[string]string')
  t.equal(refused('GeneratePatches', { items: [{ uid: 5 }] }), 'items[0].uid: json: cannot unmarshal number into Go value of type types.UID')
  t.equal(refused('BeforeClusterCreate', withCluster({ spec: { paused: 'yes' } })), 'cluster.spec.paused: json: cannot unmarshal string into Go value of type bool')
})

t.test('integers: int32 in range and whole; int64 whole, up to what a JavaScript number holds exactly', async t => {
  const replicas = (value: unknown) => refused('BeforeClusterCreate', withCluster({ status: { controlPlane: { readyReplicas: value } } }))
  t.equal(replicas(2 ** 31 - 1), undefined)
  t.equal(replicas(-(2 ** 31)), undefined)
  t.equal(replicas(2 ** 31), 'cluster.status.controlPlane.readyReplicas: json: cannot unmarshal number 2147483648 into Go value of type int32')
  t.equal(replicas(2.5), 'cluster.status.controlPlane.readyReplicas: json: cannot unmarshal number 2.5 into Go value of type int32')
  t.equal(replicas('2'), 'cluster.status.controlPlane.readyReplicas: json: cannot unmarshal string into Go value of type int32')
  const generation = (value: unknown) => refused('BeforeClusterCreate', withCluster({ metadata: { generation: value } }))
  t.equal(generation(Number.MAX_SAFE_INTEGER), undefined)
  t.equal(generation(-Number.MAX_SAFE_INTEGER), undefined)
  t.match(generation(2 ** 53), /^cluster\.metadata\.generation: number 9007199254740992 is beyond the integers a JavaScript number holds exactly .*runtime-sdk refuses it$/,
    'a difference from Cluster API, listed in docs/differences.md')
  t.equal(generation(2 ** 63), 'cluster.metadata.generation: json: cannot unmarshal number 9223372036854776000 into Go value of type int64')
})

t.test('timestamps and int-or-strings are read by the parsers Go runs; their errors stop Go\'s decoder, type mismatches do not', async t => {
  const created = (value: unknown) => refused('BeforeClusterCreate', withCluster({ metadata: { creationTimestamp: value } }))
  t.equal(created('2026-01-02T3:04:05Z'), undefined, 'a one-digit hour, as Go\'s parser reads it')
  t.equal(created('2026-01-02T03:04:05,5+24:00'), undefined, 'a comma before the fraction, an offset of 24 hours')
  t.equal(created('yesterday at noon'),
    'cluster.metadata.creationTimestamp: parsing time "yesterday at noon" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday at noon" as "2006"')
  t.equal(created(1700000000), 'cluster.metadata.creationTimestamp: json: cannot unmarshal number into Go value of type string')
  const lessThan = (value: unknown) => refused('BeforeClusterCreate', withCluster({
    spec: { topology: { controlPlane: { healthCheck: { remediation: { triggerIf: { unhealthyLessThanOrEqualTo: value } } } } } }
  }))
  t.equal(lessThan('40%'), undefined)
  t.equal(lessThan(3), undefined)
  t.match(lessThan(2.5), /unhealthyLessThanOrEqualTo: json: cannot unmarshal number 2.5 into Go value of type int32$/)
  t.match(lessThan({}), /unhealthyLessThanOrEqualTo: json: cannot unmarshal object into Go value of type int32$/)
  // Go keeps the first type mismatch and goes on; a parser's error ends decoding and is the one reported.
  t.match(refused('BeforeClusterCreate', withCluster({ metadata: { name: 5, creationTimestamp: 'noon' } })), /^cluster\.metadata\.creationTimestamp: parsing time "noon"/)
  t.match(refused('BeforeClusterCreate', withCluster({ metadata: { name: 5, namespace: 6 } })), /^cluster\.metadata\.name: /)
})

t.test('nesting: 10,000 levels pass wherever they are, deeper is refused first, in Go\'s words, never thrown', async t => {
  t.equal(refused('BeforeClusterCreate', { future: nested(9999) }), undefined, '10,000 levels with the request itself')
  t.equal(refused('BeforeClusterCreate', { future: nested(10000) }), 'invalid character \'[\' exceeded max depth')
  for (const [where, body] of [
    ['an unknown field', { future: nested(100000) }],
    ['an unknown field of the Cluster', withCluster({ future: nested(100000) })],
    ['a variable\'s value', withCluster({ spec: { topology: { variables: [{ name: 'v', value: nested(100000) }] } } })],
    ['a label value (of the wrong type too)', withCluster({ metadata: { labels: { a: nested(100000) } } })],
    ['the kind (of the wrong type too)', { kind: nested(100000) }]
  ] as const) {
    t.equal(refused('BeforeClusterCreate', body), 'invalid character \'[\' exceeded max depth', where)
  }
  t.equal(refused('BeforeClusterCreate', { cluster: 5, future: nested(20000, '{}') }), 'invalid character \'[\' exceeded max depth',
    'Go checks the nesting of the whole text before it decodes anything')
  t.equal(refused('BeforeClusterCreate', { future: JSON.parse(`${'{"a":'.repeat(10001)}1${'}'.repeat(10001)}`) }), 'invalid character \'{\' exceeded max depth')
})

t.test('keys: one that differs from a field name only in letter case is refused (Go would read it as the field); others are ignored', async t => {
  t.match(refused('BeforeClusterCreate', { Cluster: { metadata: {} } }), /^Cluster: key differs from field "cluster" only in letter case: Go would read it as that field, runtime-sdk refuses it$/)
  t.match(refused('BeforeClusterCreate', withCluster({ metadata: { NAME: 'c1' } })), /^cluster\.metadata\.NAME: key differs from field "name"/)
  t.match(refused('BeforeClusterCreate', { \u212Aind: 'x' }), /key differs from field "kind"/, 'the Kelvin sign folds to k, as in Go')
  t.match(refused('BeforeClusterCreate', { \u017Fettings: {} }), /key differs from field "settings"/, 'the long s folds to s')
  t.equal(refused('BeforeClusterCreate', { cluster: { metadata: {}, \u0131d: 1 } }), undefined, 'the dotless i does not fold to i in Go: an unknown key')
  t.equal(refused('BeforeClusterCreate', withCluster({ metadata: { labels: { Name: 'a', name: 'b' } } })), undefined, 'map keys are data')
})

t.test('a request an extension receives reaches its handler as Go\'s handler reads it', async t => {
  const received = (hook: string, body: unknown) => {
    const result = catalog.receiveRequest(gvh(hook), body)
    return result.valid ? result.request : result.message
  }
  t.same(received('BeforeClusterCreate', null), { cluster: { metadata: {} } }, 'null is the zero request, as Go encodes it')
  t.same(received('BeforeClusterUpgrade', { cluster: null }), { cluster: { metadata: {} }, fromKubernetesVersion: '', toKubernetesVersion: '' },
    'fields Go always sends get their zero value')
  t.same(received('BeforeClusterCreate', withCluster({ metadata: { name: null, ownerReferences: [null, { name: 'o', kind: null }] }, spec: null })),
    { cluster: { metadata: { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }, { name: 'o', kind: '', apiVersion: '', uid: '' }] } } },
    'null in a field Go may leave out is as if it was not sent; in a list it is the zero element')
  t.same(received('GeneratePatches', { items: null }), { items: null }, 'a field that may be null keeps it')
  t.same(received('GeneratePatches', { items: [{ uid: 'u', object: null, holderReference: null, future: null }] }),
    { items: [{ uid: 'u', object: null, holderReference: { apiVersion: '', kind: '', namespace: '', name: '', fieldPath: '' }, future: null }] },
    'a raw object keeps its null, an unknown field too')
  const body = { cluster: { metadata: { name: null } } }
  t.equal(refused('BeforeClusterCreate', body), undefined)
  t.same(body, { cluster: { metadata: { name: null } } }, 'checking a request (a client about to send it) leaves it as it is')
  t.equal(received('BeforeClusterCreate', { cluster: { metadata: 5 } }), 'cluster.metadata: json: cannot unmarshal number into Go value of type v1.ObjectMeta')
})

t.test('a handler\'s answer: what Cluster API\'s client decodes and reads as the handler meant, nothing more', async t => {
  const answer = (hook: string, body: unknown) => {
    const result = catalog.validateResponse(gvh(hook), body)
    return result.valid ? undefined : result.message
  }
  const patch = (patchType: unknown, content: string) => ({ status: 'Success', items: [{ uid: 'u', patchType, patch: Buffer.from(content).toString('base64') }] })
  t.equal(answer('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 30, message: 'm'.repeat(100000) }), undefined)
  t.equal(answer('BeforeClusterCreate', { status: 'Success' }), undefined, 'retryAfterSeconds left out reads as 0')
  t.equal(answer('BeforeClusterCreate', { retryAfterSeconds: 0 }), 'status: must be one of "Success", "Failure", got none')
  t.equal(answer('BeforeClusterCreate', { status: 'Pending' }), 'status: must be one of "Success", "Failure", got "Pending"')
  t.equal(answer('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2 ** 31 }), 'retryAfterSeconds: json: cannot unmarshal number 2147483648 into Go value of type int32')
  t.equal(answer('GeneratePatches', patch('JSONPatch', '[{"op":"add","path":"/spec/x","value":1}]')), undefined)
  t.equal(answer('GeneratePatches', patch('JSONMergePatch', '{"spec":{"x":1}}')), undefined)
  t.equal(answer('GeneratePatches', patch('JSONMergePatch', '')), undefined, 'an empty merge patch changes nothing')
  t.equal(answer('GeneratePatches', patch('JSONPatch', '{"spec":{"x":1}}')), 'items[0].patch: must be base64 of a JSON Patch: a JSON array of operation objects; it decodes to a JSON object')
  t.equal(answer('GeneratePatches', patch('JSONMergePatch', '{"spec":')), 'items[0].patch: must be base64 of a JSON merge patch: a JSON object; it decodes to text that is not JSON')
  t.equal(answer('GeneratePatches', patch('JSONMergePatch', '{"spec":')), 'items[0].patch: must be base64 of a JSON merge patch: a JSON object; it decodes to text that is not JSON',
    'the same patch answered again gets the same verdict')
  t.equal(answer('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patch: 'e30=' }] }), 'items[0].patchType: must be one of "JSONPatch", "JSONMergePatch", got none')
  t.equal(answer('GeneratePatches', patch('StrategicMerge', '{}')), 'items[0].patchType: must be one of "JSONPatch", "JSONMergePatch", got "StrategicMerge"')
  t.equal(answer('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: 'W3sib3Ai-_' }] }), 'items[0].patch: illegal base64 data at input byte 8',
    'URL-safe base64 is refused like Go refuses it')
  t.equal(answer('CanUpdateMachine', { status: 'Success', machinePatch: { patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') } }), undefined)
  t.equal(answer('CanUpdateMachine', { status: 'Success', machinePatch: { patchType: 'JSONMergePatch', patch: [...Buffer.from('{"spec":{}}')] } }), undefined,
    'Go decodes a []byte from an array of bytes too')
  t.equal(answer('CanUpdateMachine', { status: 'Success', machinePatch: { patchType: 'JSONMergePatch', patch: [123, 256, 'x'] } }),
    'machinePatch.patch[1]: json: cannot unmarshal number 256 into Go value of type uint8')
  t.equal(answer('DiscoverVariables', { status: 'Success', variables: [{ name: 'v', schema: { openAPIV3Schema: { properties: { a: { type: 5 } } } } }] }),
    'variables[0].schema.openAPIV3Schema.properties["a"].type: json: cannot unmarshal number into Go value of type string', 'a JSONSchemaProps is decoded all the way down')
  t.equal(answer('DiscoverVariables', { status: 'Success', variables: [{ name: 'v', schema: { openAPIV3Schema: { type: 'number', default: Number.NaN } } }] }),
    'variables[0].schema.openAPIV3Schema.default: NaN cannot be sent as JSON (it would arrive as null)')
  t.equal(answer('BeforeClusterCreate', { status: 'Success', future: { n: 10n } }), 'future["n"]: a BigInt cannot be sent as JSON')
  t.equal(answer('BeforeClusterCreate', { status: 'Success', future: { list: [1, { n: Infinity }] } }), 'future["list"][1]["n"]: Infinity cannot be sent as JSON (it would arrive as null)')
  t.equal(answer('DiscoverVariables', { status: 'Success', variables: [{ name: 'v', schema: { openAPIV3Schema: { type: 'integer', maximum: 2 ** 60 } } }] }), undefined,
    'an int64 beyond 2^53 is sent as the number the handler holds')
  const schemaNested = (levels: number) => {
    let schema: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } }
    return { status: 'Success', variables: [{ name: 'v', schema: { openAPIV3Schema: schema } }] }
  }
  t.equal(answer('DiscoverVariables', schemaNested(20000)), 'invalid character \'{\' exceeded max depth', 'a schema nested beyond Go\'s limit: refused, never a thrown RangeError')
})

t.test('an answer our client receives is checked as Cluster API\'s client decodes it: types, not statuses, enumerations or patches', async t => {
  const decodes = (hook: string, body: unknown) => {
    const result = catalog.validateResponse(gvh(hook), body, 'decode')
    return result.valid ? undefined : result.message
  }
  t.equal(decodes('GeneratePatches', { status: 'Pending', message: null, items: [{ uid: 'u', patchType: 'StrategicMerge', patch: 'e30=' }] }), undefined)
  t.equal(decodes('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: 'not base64!' }] }), 'items[0].patch: illegal base64 data at input byte 3')
  t.equal(decodes('GenerateUpgradePlan', { status: 'Success', controlPlaneUpgrades: [{ version: 1 }] }),
    'controlPlaneUpgrades[0].version: json: cannot unmarshal number into Go value of type string')
})
