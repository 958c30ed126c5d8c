// The CRDs of the server-side apply proof (test/e2e/apiserver-apply.test.ts, replayed by
// test/apiserver/apply-recorded.test.ts): Cluster API's own kinds (the v1beta2 schemas of hooks/v1alpha1/crds.json,
// core, kubeadm and CAPD), the test CRDs of the apiserver-schema proof, and two more for what only apply's typed
// conversion tells apart: string formats, free and closed objects, map types, sets of numbers, booleans, atomic maps and
// lists, list-maps with two keys or a defaulted key, embedded resources, and preservation of unknown fields at the root.
import crds from '../../hooks/v1alpha1/crds.json' with { type: 'json' }
import type { JSONSchemaProps } from '../../src/apiserver/index.js'
import { GROUP, TEST_CRDS, VERSION } from './apiserver-crds.js'

/** One version of a namespaced CRD. */
export interface ApplyCRD {
  group: string
  version: string
  kind: string
  plural: string
  schema: JSONSchemaProps
  statusSubresource?: boolean
}

const str = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', ...extra })
const int = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'integer', ...extra })
const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra })
const list = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'array', items, ...extra })

/** What typed conversion alone tells apart. */
const APPLIER: ApplyCRD = {
  group: GROUP,
  version: VERSION,
  kind: 'Applier',
  plural: 'appliers',
  schema: obj({
    spec: obj({
      formats: obj({ when: str({ format: 'date-time' }), mail: str({ format: 'email' }), blob: str({ format: 'byte' }), count: int({ format: 'int32' }), ratio: { type: 'number', format: 'double' } }),
      free: { type: 'object' },
      closed: { type: 'object', additionalProperties: false },
      open: { type: 'object', additionalProperties: true },
      granular: obj({ a: str() }, { 'x-kubernetes-map-type': 'granular' }),
      atomicObject: obj({ a: str(), b: int() }, { 'x-kubernetes-map-type': 'atomic' }),
      keep: obj({ typed: obj({ n: int() }), items: list(obj({ x: str() })) }, { 'x-kubernetes-preserve-unknown-fields': true }),
      numbers: list(int(), { 'x-kubernetes-list-type': 'set' }),
      flags: list({ type: 'boolean' }, { 'x-kubernetes-list-type': 'set' }),
      atomicMaps: list(obj({ a: str() }, { 'x-kubernetes-map-type': 'atomic' }), { 'x-kubernetes-list-type': 'set' }),
      lists: list(list(str()), { 'x-kubernetes-list-type': 'set' }),
      matrix: list(list(int())),
      pairs: list(obj({ a: str(), b: int(), v: str() }, { required: ['a', 'b'] }), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'b'] }),
      defaulted: list(obj({ name: str({ default: 'main' }), v: int() }), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
      atomicList: list(obj({ name: str() }), { 'x-kubernetes-list-type': 'atomic' }),
      mixed: list({ 'x-kubernetes-int-or-string': true }),
      embeddedList: list({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
      embeddedStrict: obj({ data: { type: 'object', additionalProperties: str() } }, { 'x-kubernetes-embedded-resource': true }),
      nested: obj({ deeper: obj({ deepest: obj({ leaf: str(), n: int(), on: { type: 'boolean' } }) }) })
    }),
    status: obj({ phase: str() })
  })
}

/** Unknown fields preserved from the root down: only metadata stays typed. */
const LOOSE: ApplyCRD = {
  group: GROUP,
  version: VERSION,
  kind: 'Loose',
  plural: 'looses',
  schema: obj({ spec: obj({ a: str(), inner: obj({ b: int() }) }) }, { 'x-kubernetes-preserve-unknown-fields': true })
}

const CAPI = (crds as unknown as { crds: Array<{ apiVersion: string, kind: string, plural: string, schema: JSONSchemaProps }> }).crds

/** Cluster API's kinds, served as the v1beta2 version alone. */
export const CAPI_CRDS: readonly ApplyCRD[] = CAPI.map(c => {
  const [group = '', version = ''] = c.apiVersion.split('/')
  return { group, version, kind: c.kind, plural: c.plural, schema: c.schema }
})

/** The test CRDs of the apiserver-schema proof, and those above. */
export const TEST_APPLY_CRDS: readonly ApplyCRD[] = [
  ...TEST_CRDS.map(c => ({ group: GROUP, version: VERSION, kind: c.kind, plural: c.plural, schema: c.schema, ...(c.statusSubresource ? { statusSubresource: true } : {}) })),
  APPLIER,
  LOOSE
]

export const APPLY_CRDS: readonly ApplyCRD[] = [...CAPI_CRDS, ...TEST_APPLY_CRDS]

/** The CRD of a kind by name. */
export function applyCRD (kind: string): ApplyCRD {
  const crd = APPLY_CRDS.find(c => c.kind === kind)
  if (crd === undefined) throw new Error(`no apply test CRD ${kind}`)
  return crd
}

/** The CustomResourceDefinition object of one. */
export function applyCRDObject (crd: ApplyCRD): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${crd.plural}.${crd.group}` },
    spec: {
      group: crd.group,
      scope: 'Namespaced',
      names: { plural: crd.plural, singular: crd.kind.toLowerCase(), kind: crd.kind, listKind: `${crd.kind}List` },
      versions: [{
        name: crd.version,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: crd.schema },
        ...(crd.statusSubresource ? { subresources: { status: {} } } : {})
      }]
    }
  }
}
