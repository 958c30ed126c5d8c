// The API server of a simulation: the schemas of the kinds it serves (Cluster API's own CRDs, from
// hooks/v1alpha1/crds.json, and any CustomResourceDefinition among the inputs, which wins) and what it does to an
// object written to it: prune, default, run Cluster API's providers' defaulting webhooks, validate (OpenAPI and CEL
// rules), with its messages. The topology controller writes with server-side apply (apply below): the object is
// first converted to its schema's type, which refuses what the schema does not declare or type, and Cluster API's
// providers' validating webhooks run last. Kinds without a schema are stored as given.
import crds from '../../hooks/v1alpha1/crds.json' with { type: 'json' }
import { compileSchema, type CompiledSchema, createCustomResource, type FieldError, invalidObjectMessage, type JSONSchemaProps, prune, typedPatchError, updateCustomResource } from '../apiserver/index.js'
import { isObject, jsonCopy, type Unstructured } from './objects.js'
import { decodeForWebhooks, providerWebhooks, TOPOLOGY_DRY_RUN_ANNOTATION, WebhookDenied } from './provider-webhooks.js'

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
  | { ok: true, object: Unstructured, pruned: string[] }
  | { ok: false, message: string, errors: FieldError[], pruned: string[] }

/**
 * The API server's refusal as controller-runtime's client returns it: the Status message and, for a refusal of the
 * object's content (schema or webhook), the Status details (kind, group, causes); the typed conversion of a
 * server-side apply has none.
 */
export interface ApiRefusal {
  message: string
  details?: { kind: string, group: string, causes: FieldError[] }
}

/** What a server-side apply did: the object as stored, or the refusal. */
type ApplyResult = { ok: true, object: Unstructured } | { ok: false, refusal: ApiRefusal }

/** The fields of the topology controller's intent (structuredmerge's defaultAllowedPaths): the rest is not applied. */
function intentOf (object: Unstructured): Unstructured {
  const meta = object.metadata ?? {}
  const metadata = Object.fromEntries(['name', 'namespace', 'uid', 'labels', 'annotations', 'ownerReferences'].filter(k => meta[k as keyof typeof meta] !== undefined).map(k => [k, meta[k as keyof typeof meta]]))
  return jsonCopy({ apiVersion: object.apiVersion, kind: object.kind, metadata, ...(object['spec'] !== undefined ? { spec: object['spec'] } : {}) }) as Unstructured
}

const CAPI_CRDS = (crds as unknown as { crds: Array<{ apiVersion: string, kind: string, schema: JSONSchemaProps }> }).crds

const key = (apiVersion: unknown, kind: unknown): string => `${String(apiVersion)} ${String(kind)}`

/** The served versions of a CustomResourceDefinition given as an input, with their schemas. */
function servedByDefinition (crd: Unstructured): ServedKind[] {
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

  constructor (inputs: readonly Unstructured[] = []) {
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
  serves (object: Unstructured): boolean {
    return this.#kinds.has(key(object.apiVersion, object.kind))
  }

  /** The paths of the fields the object's CRD does not declare (what strict field validation refuses), sorted. */
  unknownFields (object: Unstructured): string[] {
    const served = this.#served(object)
    return served ? prune(served.compiled as CompiledSchema, object, { resourceRoot: true }).pruned : []
  }

  /**
   * What the API server does when the object is created (or, with `old`, updated from what is stored): decoding,
   * then the defaulting webhooks (the provider's, then `webhook`, which may throw to refuse), then validation. A
   * status is kept as given: inputs may be objects read back from a cluster.
   */
  admit (object: Unstructured, old?: Unstructured, webhook?: (object: Unstructured) => void): Admission {
    const served = this.#served(object)
    if (!served) {
      const copy = structuredClone(object)
      webhook?.(copy)
      return { ok: true, object: copy, pruned: [] }
    }
    const provider = providerWebhooks(object)
    const mutate = (o: Record<string, unknown>) => { provider?.default?.({ object: o as Unstructured, old, dryRun: false }); webhook?.(o as Unstructured) }
    const options = { kind: served.kind, group: served.group, version: served.version, mutate }
    const compiled = served.compiled as CompiledSchema
    const result = old
      ? updateCustomResource(compiled, object as Record<string, unknown>, old as Record<string, unknown>, options)
      : createCustomResource(compiled, object as Record<string, unknown>, options)
    if (result.errors.length > 0) return { ok: false, message: result.message ?? '', errors: result.errors, pruned: result.pruned }
    return { ok: true, object: result.object as Unstructured, pruned: result.pruned }
  }

  /**
   * The topology controller's server-side apply of `desired` (its intent: type, name, labels, annotations, owners,
   * spec), over `current` when it exists, as a dry run or for real: the typed conversion, decoding, the providers'
   * defaulting webhooks, the schema's validation, the providers' validating webhooks. The stored object keeps
   * current's status.
   */
  apply (desired: Unstructured, current: Unstructured | undefined, dryRun: boolean): ApplyResult {
    const intent = intentOf(desired)
    if (dryRun) intent.metadata = { ...intent.metadata, annotations: { ...intent.metadata?.annotations, [TOPOLOGY_DRY_RUN_ANNOTATION]: '' } }
    const served = this.#served(intent)
    if (!served) return { ok: true, object: intent }
    const typeError = typedPatchError(served.compiled as CompiledSchema, intent as Record<string, unknown>)
    if (typeError !== undefined) return { ok: false, refusal: { message: typeError } }
    const webhooks = providerWebhooks(intent)
    const mutate = (o: Record<string, unknown>) => {
      decodeForWebhooks(webhooks, o as Unstructured)
      webhooks?.default?.({ object: o as Unstructured, old: current, dryRun })
    }
    const options = { kind: served.kind, group: served.group, version: served.version, statusSubresource: true, serverSideApply: true, mutate }
    const compiled = served.compiled as CompiledSchema
    let result
    try {
      result = current
        ? updateCustomResource(compiled, intent as Record<string, unknown>, current as Record<string, unknown>, options)
        : createCustomResource(compiled, intent as Record<string, unknown>, options)
    } catch (err) {
      if (err instanceof WebhookDenied) return { ok: false, refusal: { message: `admission webhook "${err.webhook}" denied the request: ${err.message}` } }
      throw err
    }
    const name = intent.metadata?.name ?? ''
    const details = (causes: FieldError[]) => ({ kind: served.kind, group: served.group, causes })
    if (result.errors.length > 0) return { ok: false, refusal: { message: result.message ?? '', details: details(result.errors) } }
    const object = result.object as Unstructured
    const denied = webhooks?.validate?.({ object, old: current, dryRun }) ?? []
    if (denied.length > 0) return { ok: false, refusal: { message: `admission webhook "${webhooks?.validating ?? ''}" denied the request: ${invalidObjectMessage(served.kind, served.group, name, denied)}`, details: details(denied) } }
    if (dryRun) delete object.metadata?.annotations?.[TOPOLOGY_DRY_RUN_ANNOTATION]
    if (object.metadata?.annotations && Object.keys(object.metadata.annotations).length === 0) delete object.metadata.annotations
    return { ok: true, object }
  }

  /** The kind the object is, when served, its schema compiled. */
  #served (object: Unstructured): ServedKind | undefined {
    const served = this.#kinds.get(key(object.apiVersion, object.kind))
    if (served) served.compiled ??= compileSchema(served.props)
    return served
  }
}
