// The API server of a simulation: the schemas of the kinds it serves (Cluster API's own CRDs, from
// hooks/v1alpha1/crds.json, and any CustomResourceDefinition among the inputs, which wins) and what it does to an
// object written to it: prune, default, run Cluster API's providers' defaulting webhooks, validate (OpenAPI and CEL
// rules), with its messages. Kinds without a schema are stored as given.
import crds from '../../hooks/v1alpha1/crds.json' with { type: 'json' }
import { compileSchema, type CompiledSchema, createCustomResource, type FieldError, type JSONSchemaProps, prune, updateCustomResource } from '../apiserver/index.js'
import { isObject, type KubeDocument } from './objects.js'
import { type Defaulter, providerWebhook } from './provider-webhooks.js'

/** A kind the API server serves. */
interface ServedKind {
  group: string
  version: string
  kind: string
  props: JSONSchemaProps
  compiled?: CompiledSchema
}

/** What the API server did with an object: stored (pruned, defaulted), or refused with its message and errors. */
type Admission =
  | { ok: true, object: KubeDocument, pruned: string[] }
  | { ok: false, message: string, errors: FieldError[], pruned: string[] }

const CAPI_CRDS = (crds as unknown as { crds: Array<{ apiVersion: string, kind: string, schema: JSONSchemaProps }> }).crds

const key = (apiVersion: unknown, kind: unknown): string => `${String(apiVersion)} ${String(kind)}`

/** The served versions of a CustomResourceDefinition given as an input, with their schemas. */
function servedByDefinition (crd: KubeDocument): ServedKind[] {
  const spec = isObject(crd['spec']) ? crd['spec'] : {}
  const group = typeof spec['group'] === 'string' ? spec['group'] : ''
  const kind = isObject(spec['names']) && typeof spec['names']['kind'] === 'string' ? spec['names']['kind'] : ''
  const versions = Array.isArray(spec['versions']) ? spec['versions'].filter(isObject) : []
  return versions.flatMap(v => {
    const schema = isObject(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined
    return typeof v['name'] === 'string' && v['served'] !== false && isObject(schema) ? [{ group, version: v['name'], kind, props: schema as JSONSchemaProps }] : []
  })
}

/** The kinds a simulation's API server serves: Cluster API's, then the CRDs among the inputs. */
export class ApiServerSchemas {
  readonly #kinds = new Map<string, ServedKind>()

  constructor (inputs: readonly KubeDocument[] = []) {
    for (const crd of CAPI_CRDS) {
      const [group = '', version = ''] = crd.apiVersion.split('/')
      this.#kinds.set(key(crd.apiVersion, crd.kind), { group, version, kind: crd.kind, props: crd.schema })
    }
    for (const o of inputs) {
      if (o.apiVersion !== 'apiextensions.k8s.io/v1' || o.kind !== 'CustomResourceDefinition') continue
      for (const served of servedByDefinition(o)) this.#kinds.set(key(`${served.group}/${served.version}`, served.kind), served)
    }
  }

  /** Whether the API server knows the object's kind (else it is stored as given). */
  serves (object: KubeDocument): boolean {
    return this.#kinds.has(key(object.apiVersion, object.kind))
  }

  /** The paths of the fields the object's CRD does not declare (what strict field validation refuses), sorted. */
  unknownFields (object: KubeDocument): string[] {
    const served = this.#kinds.get(key(object.apiVersion, object.kind))
    if (!served) return []
    served.compiled ??= compileSchema(served.props)
    return prune(served.compiled, object, { resourceRoot: true }).pruned
  }

  /**
   * What the API server does when the object is created (or, with `old`, updated from what is stored): decoding,
   * then the defaulting webhooks (the provider's, then `webhook`, which may throw to refuse), then validation. A
   * status is kept as given: inputs may be objects read back from a cluster.
   */
  admit (object: KubeDocument, old?: KubeDocument, webhook?: Defaulter): Admission {
    const served = this.#kinds.get(key(object.apiVersion, object.kind))
    if (!served) {
      const copy = structuredClone(object)
      webhook?.(copy)
      return { ok: true, object: copy, pruned: [] }
    }
    served.compiled ??= compileSchema(served.props)
    const provider = providerWebhook(object)
    const mutate = (o: Record<string, unknown>) => { provider?.(o as KubeDocument); webhook?.(o as KubeDocument) }
    const options = { kind: served.kind, group: served.group, version: served.version, mutate }
    const result = old
      ? updateCustomResource(served.compiled, object as Record<string, unknown>, old as Record<string, unknown>, options)
      : createCustomResource(served.compiled, object as Record<string, unknown>, options)
    if (result.errors.length > 0) return { ok: false, message: result.message ?? '', errors: result.errors, pruned: result.pruned }
    return { ok: true, object: result.object as KubeDocument, pruned: result.pruned }
  }
}
