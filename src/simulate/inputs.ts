// The simulation's input: the Cluster, its ClusterClass and the templates the class references, found among the
// objects given, each as the API server stores it when applied (pruned, defaulted and validated against its CRD:
// Cluster API's own, or one among the inputs) and resolved by reference. Every problem is a SimulationInputError
// naming the object, where it came from and the API server's message.
import type { Cluster, ClusterClass, ClusterClassTemplateReference } from '../api/hooks/v1alpha1/types.generated.js'
import { ApiServerSchemaError } from '../apiserver/index.js'
import { ApiServerSchemas } from './crds.js'
import { SimulationInputError } from './errors.js'
import { describeObject, getPath, type Unstructured } from './objects.js'

const CORE = 'cluster.x-k8s.io/v1beta2'

/** kube-apiserver's bound on a request body (MaxRequestBodyBytes): a larger object cannot be applied. */
const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024

/** Where an object was read from (a file, for the CLI), for messages. */
export type SourceOf = (object: unknown) => string | undefined

/** A template of the ClusterClass, and the reference that named it. */
export interface ClassTemplate {
  /** place says which reference of the ClusterClass names it, e.g. `spec.workers.machineDeployments[0].bootstrap`. */
  place: string
  ref: { apiVersion: string, kind: string, name: string }
  object: Unstructured
}

/** Everything a simulation starts from, checked. */
export interface SimulationInputs {
  /** cluster is the Cluster as given: the API server stores it once Cluster API's webhook defaulted its variables (admitCluster). */
  cluster: Cluster & { metadata: { name: string, namespace: string } }
  /** clusterSource names the Cluster and where it came from, for messages. */
  clusterSource: string
  clusterClass: ClusterClass & { metadata: { name: string, namespace: string } }
  /** templates by the ClusterClass reference place (see ClassTemplate). */
  templates: Map<string, ClassTemplate>
  /** schemas are the kinds the API server serves, to store what the topology controller writes as it would. */
  schemas: ApiServerSchemas
}

/** A lower bound of an object's size as JSON, in bytes: the length of its strings (UTF-8 takes a byte or more per UTF-16 unit). */
function stringBytesAtLeast (object: object): number {
  let bytes = 0
  const pending: unknown[] = [object]
  while (pending.length > 0) {
    const value = pending.pop()
    if (typeof value === 'string') bytes += value.length
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        bytes += k.length
        pending.push(v)
      }
    }
  }
  return bytes
}

/** kube-apiserver's refusal of a request body larger than it takes (the bound first: serialising megabytes takes a while). */
function refuseTooLarge (object: object, where: () => string): void {
  if (stringBytesAtLeast(object) > MAX_REQUEST_BODY_BYTES || Buffer.byteLength(JSON.stringify(object)) > MAX_REQUEST_BODY_BYTES) throw new SimulationInputError(`${where()}: Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`)
}

/** The object given for each object as stored, to name where it came from. */
const origins = new WeakMap<object, object>()

function where (object: unknown, sourceOf: SourceOf | undefined): string {
  const source = sourceOf?.(origins.get(object as object) ?? object)
  return `${describeObject(object as Unstructured)}${source ? ` (${source})` : ''}`
}

/**
 * The object as the API server stores it when applied (kubectl apply's strict field validation: an unknown field is
 * refused, as is an object its CRD's schema refuses).
 */
function admitted<T extends Unstructured> (schemas: ApiServerSchemas, object: T, sourceOf: SourceOf | undefined): T {
  refuseTooLarge(object, () => where(object, sourceOf))
  if (typeof object.metadata?.name !== 'string' || object.metadata.name === '') throw new SimulationInputError(`${where(object, sourceOf)}: metadata.name: is required`)
  let admission
  try {
    admission = schemas.admit(object)
  } catch (error) {
    if (error instanceof ApiServerSchemaError) throw new SimulationInputError(`${where(object, sourceOf)}: the CustomResourceDefinition of ${object.kind ?? ''} is not usable: ${error.message}`)
    throw error
  }
  if (!admission.ok) throw new SimulationInputError(`${where(object, sourceOf)}: ${admission.message}`)
  refuseUnknownFields(schemas, object, sourceOf)
  origins.set(admission.object, object)
  return admission.object as T
}

function refuseUnknownFields (schemas: ApiServerSchemas, object: Unstructured, sourceOf: SourceOf | undefined): void {
  const unknown = schemas.unknownFields(object)
  if (unknown.length > 0) throw new SimulationInputError(`${where(object, sourceOf)}: strict decoding error: ${unknown.map(p => `unknown field ${JSON.stringify(p)}`).join(', ')}`)
}

/**
 * The Cluster as the API server stores it when applied: decoded, its variables defaulted and checked by Cluster
 * API's defaulting webhook (`webhook`, which throws its refusal), then validated against its CRD.
 */
export function admitCluster<T extends object> (inputs: SimulationInputs, cluster: T, webhook: (cluster: T) => void): T {
  refuseTooLarge(cluster, () => inputs.clusterSource)
  let admission
  try {
    admission = inputs.schemas.admit(cluster as unknown as Unstructured, undefined, webhook as unknown as (o: Unstructured) => void)
  } catch (error) {
    if (error instanceof SimulationInputError) throw new SimulationInputError(`${inputs.clusterSource}: ${error.message}`)
    throw error
  }
  if (!admission.ok) throw new SimulationInputError(`${inputs.clusterSource}: ${admission.message}`)
  return admission.object as unknown as T
}

function checkApiVersion (object: Unstructured, sourceOf: SourceOf | undefined): void {
  if (object.apiVersion !== CORE) throw new SimulationInputError(`${where(object, sourceOf)}: apiVersion must be ${CORE}, got ${JSON.stringify(object.apiVersion)}`)
}

/** The one object of a kind among the given ones (by name when given). */
function findOne (objects: readonly Unstructured[], kind: string, what: string, name?: string): Unstructured {
  const found = objects.filter(o => o?.kind === kind && (name === undefined || o.metadata?.name === name))
  if (found.length === 0) throw new SimulationInputError(`no ${what} among the inputs: pass the file that holds it`)
  if (found.length > 1) throw new SimulationInputError(`${found.length} ${what}s among the inputs (${found.map(o => describeObject(o)).join(', ')}): pass one`)
  return found[0] as Unstructured
}

/** Every template reference of a ClusterClass, by place. */
function templateRefs (clusterClass: ClusterClass): Array<[string, ClusterClassTemplateReference | undefined]> {
  const spec = clusterClass.spec ?? {}
  const refs: Array<[string, ClusterClassTemplateReference | undefined]> = [
    ['spec.infrastructure', spec.infrastructure?.templateRef],
    ['spec.controlPlane', spec.controlPlane?.templateRef]
  ]
  if (spec.controlPlane?.machineInfrastructure) refs.push(['spec.controlPlane.machineInfrastructure', spec.controlPlane.machineInfrastructure.templateRef])
  ;(spec.workers?.machineDeployments ?? []).forEach((md, i) => {
    refs.push([`spec.workers.machineDeployments[${i}].bootstrap`, md.bootstrap?.templateRef], [`spec.workers.machineDeployments[${i}].infrastructure`, md.infrastructure?.templateRef])
  })
  ;(spec.workers?.machinePools ?? []).forEach((mp, i) => {
    refs.push([`spec.workers.machinePools[${i}].bootstrap`, mp.bootstrap?.templateRef], [`spec.workers.machinePools[${i}].infrastructure`, mp.infrastructure?.templateRef])
  })
  return refs
}

/**
 * Finds and checks the Cluster (the one with a topology), its ClusterClass (by spec.topology.classRef, in the
 * Cluster's namespace unless the ref names one) and every template the class references (apiVersion, kind, name,
 * in the class's namespace). Objects of other kinds are ignored; objects without a namespace take the Cluster's.
 */
export function resolveInputs (objects: readonly unknown[], sourceOf?: SourceOf): SimulationInputs {
  const documents = objects.filter((o): o is Unstructured => typeof o === 'object' && o !== null && !Array.isArray(o))
  const clusters = documents.filter(o => o.kind === 'Cluster')
  const schemas = new ApiServerSchemas(documents)
  const given = clusters.length === 1 ? clusters[0] as Unstructured : findOne(clusters.filter(c => getPath(c, ['spec', 'topology']) !== undefined), 'Cluster', 'Cluster with a spec.topology')
  // First, as the API server refuses such a body before reading it: the checks below would walk its megabytes.
  refuseTooLarge(given, () => where(given, sourceOf))
  checkApiVersion(given, sourceOf)
  refuseUnknownFields(schemas, given, sourceOf)
  if (typeof given.metadata?.name !== 'string' || given.metadata.name === '') throw new SimulationInputError(`${where(given, sourceOf)}: metadata.name: is required`)
  const cluster = given
  const namespace = cluster.metadata?.namespace || 'default'
  const topology = getPath(cluster, ['spec', 'topology']) as NonNullable<Cluster['spec']>['topology']
  if (topology === undefined) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology: is required (simulate takes Clusters with a managed topology)`)
  if (!topology.classRef?.name) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.classRef.name: is required`)
  if (!topology.version) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.version: is required`)
  const classNamespace = topology.classRef.namespace || namespace
  const inNamespace = (o: Unstructured) => (o.metadata?.namespace || namespace) === classNamespace
  const classes = documents.filter(o => o.kind === 'ClusterClass' && o.metadata?.name === topology.classRef?.name && inNamespace(o))
  if (classes.length !== 1) {
    throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.classRef names ClusterClass ${classNamespace}/${topology.classRef?.name ?? ''}, ${classes.length === 0 ? 'which is not among the inputs: pass the file that holds it' : 'which is defined more than once'}`)
  }
  checkApiVersion(classes[0] as Unstructured, sourceOf)
  const clusterClass = admitted(schemas, classes[0] as Unstructured, sourceOf)
  const templates = new Map<string, ClassTemplate>()
  for (const [place, ref] of templateRefs(clusterClass as ClusterClass)) {
    if (!ref?.apiVersion || !ref.kind || !ref.name) throw new SimulationInputError(`${where(clusterClass, sourceOf)}: ${place}.templateRef: apiVersion, kind and name are required`)
    const matching = documents.filter(o => o.apiVersion === ref.apiVersion && o.kind === ref.kind && o.metadata?.name === ref.name && inNamespace(o))
    if (matching.length !== 1) {
      throw new SimulationInputError(`${where(clusterClass, sourceOf)}: ${place}.templateRef names ${ref.kind} ${classNamespace}/${ref.name} (${ref.apiVersion}), ${matching.length === 0 ? 'which is not among the inputs: pass the file that holds it' : 'which is defined more than once'}`)
    }
    const object = admitted(schemas, matching[0] as Unstructured, sourceOf)
    templates.set(place, { place, ref: { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name }, object })
  }
  const withNamespace = <T extends Unstructured>(o: T, ns: string) => ({ ...o, metadata: { ...o.metadata, namespace: o.metadata?.namespace || ns } })
  return {
    cluster: withNamespace(cluster, namespace) as SimulationInputs['cluster'],
    clusterSource: where(cluster, sourceOf),
    clusterClass: withNamespace(clusterClass, classNamespace) as SimulationInputs['clusterClass'],
    templates: new Map([...templates].map(([place, t]) => [place, { ...t, object: withNamespace(t.object, classNamespace) }])),
    schemas
  }
}
