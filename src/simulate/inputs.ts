// The simulation's input: the Cluster, its ClusterClass and the templates the class references, found among the
// objects given, checked against Cluster API's own schemas (as its API server would) and resolved by reference.
// Every problem is a SimulationInputError naming the object, where it came from and the field.
import type { Cluster, ClusterClass, ClusterClassTemplateReference } from '../api/hooks/v1alpha1/types.generated.js'
import { definitionSchema } from '../api/hooks/v1alpha1/schemas.js'
import { BeforeClusterCreate } from '../api/hooks/v1alpha1/hooks.js'
import { validate } from '../catalog/validate.js'
import { SimulationInputError } from './errors.js'
import { describeObject, getPath, type KubeDocument } from './objects.js'

const CORE = 'cluster.x-k8s.io/v1beta2'
const CLUSTER_CLASS = 'sigs.k8s.io.cluster-api.api.core.v1beta2.ClusterClass'

/** Where an object was read from (a file, for the CLI), for messages. */
export type SourceOf = (object: unknown) => string | undefined

/** A template of the ClusterClass, and the reference that named it. */
export interface ClassTemplate {
  /** place says which reference of the ClusterClass names it, e.g. `spec.workers.machineDeployments[0].bootstrap`. */
  place: string
  ref: { apiVersion: string, kind: string, name: string }
  object: KubeDocument
}

/** Everything a simulation starts from, checked. */
export interface SimulationInputs {
  cluster: Cluster & { metadata: { name: string, namespace: string } }
  clusterClass: ClusterClass & { metadata: { name: string, namespace: string } }
  /** templates by the ClusterClass reference place (see ClassTemplate). */
  templates: Map<string, ClassTemplate>
}

function where (object: unknown, sourceOf: SourceOf | undefined): string {
  const source = sourceOf?.(object)
  return `${describeObject(object as KubeDocument)}${source ? ` (${source})` : ''}`
}

/**
 * Checks an object against Cluster API's schema of its kind, as the API server would when it is applied. A Cluster
 * is checked as the cluster of a hook request, whose validator is generated ahead of time.
 */
function checkSchema (kind: 'Cluster' | 'ClusterClass', object: KubeDocument, sourceOf: SourceOf | undefined): void {
  if (object.apiVersion !== CORE) throw new SimulationInputError(`${where(object, sourceOf)}: apiVersion must be ${CORE}, got ${JSON.stringify(object.apiVersion)}`)
  const problem = kind === 'Cluster'
    ? validate(BeforeClusterCreate.request, { cluster: object }, 'request')?.replace(/^cluster\.?/, '')
    : validate(definitionSchema(CLUSTER_CLASS), object, 'request')
  if (problem) throw new SimulationInputError(`${where(object, sourceOf)}: ${problem}`)
  if (typeof object.metadata?.name !== 'string' || object.metadata.name === '') throw new SimulationInputError(`${where(object, sourceOf)}: metadata.name: is required`)
}

/** The one object of a kind among the given ones (by name when given). */
function findOne (objects: readonly KubeDocument[], kind: string, what: string, name?: string): KubeDocument {
  const found = objects.filter(o => o?.kind === kind && (name === undefined || o.metadata?.name === name))
  if (found.length === 0) throw new SimulationInputError(`no ${what} among the inputs: pass the file that holds it`)
  if (found.length > 1) throw new SimulationInputError(`${found.length} ${what}s among the inputs (${found.map(o => describeObject(o)).join(', ')}): pass one`)
  return found[0] as KubeDocument
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
  const documents = objects.filter((o): o is KubeDocument => typeof o === 'object' && o !== null && !Array.isArray(o))
  const clusters = documents.filter(o => o.kind === 'Cluster')
  const cluster = clusters.length === 1 ? clusters[0] as KubeDocument : findOne(clusters.filter(c => getPath(c, ['spec', 'topology']) !== undefined), 'Cluster', 'Cluster with a spec.topology')
  checkSchema('Cluster', cluster, sourceOf)
  const namespace = cluster.metadata?.namespace || 'default'
  const topology = getPath(cluster, ['spec', 'topology']) as NonNullable<Cluster['spec']>['topology']
  if (topology === undefined) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology: is required (simulate takes Clusters with a managed topology)`)
  if (!topology.classRef?.name) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.classRef.name: is required`)
  if (!topology.version) throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.version: is required`)
  const classNamespace = topology.classRef.namespace || namespace
  const inNamespace = (o: KubeDocument) => (o.metadata?.namespace || namespace) === classNamespace
  const classes = documents.filter(o => o.kind === 'ClusterClass' && o.metadata?.name === topology.classRef?.name && inNamespace(o))
  if (classes.length !== 1) {
    throw new SimulationInputError(`${where(cluster, sourceOf)}: spec.topology.classRef names ClusterClass ${classNamespace}/${topology.classRef?.name ?? ''}, ${classes.length === 0 ? 'which is not among the inputs: pass the file that holds it' : 'which is defined more than once'}`)
  }
  const clusterClass = classes[0] as KubeDocument
  checkSchema('ClusterClass', clusterClass, sourceOf)
  const templates = new Map<string, ClassTemplate>()
  for (const [place, ref] of templateRefs(clusterClass as ClusterClass)) {
    if (!ref?.apiVersion || !ref.kind || !ref.name) throw new SimulationInputError(`${where(clusterClass, sourceOf)}: ${place}.templateRef: apiVersion, kind and name are required`)
    const matching = documents.filter(o => o.apiVersion === ref.apiVersion && o.kind === ref.kind && o.metadata?.name === ref.name && inNamespace(o))
    if (matching.length !== 1) {
      throw new SimulationInputError(`${where(clusterClass, sourceOf)}: ${place}.templateRef names ${ref.kind} ${classNamespace}/${ref.name} (${ref.apiVersion}), ${matching.length === 0 ? 'which is not among the inputs: pass the file that holds it' : 'which is defined more than once'}`)
    }
    const object = matching[0] as KubeDocument
    if (getPath(object, ['spec', 'template']) === undefined) throw new SimulationInputError(`${where(object, sourceOf)}: spec.template: is required (a ClusterClass references templates)`)
    templates.set(place, { place, ref: { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name }, object })
  }
  const withNamespace = <T extends KubeDocument>(o: T, ns: string) => ({ ...o, metadata: { ...o.metadata, namespace: o.metadata?.namespace || ns } })
  return {
    cluster: withNamespace(cluster, namespace) as SimulationInputs['cluster'],
    clusterClass: withNamespace(clusterClass, classNamespace) as SimulationInputs['clusterClass'],
    templates: new Map([...templates].map(([place, t]) => [place, { ...t, object: withNamespace(t.object, classNamespace) }]))
  }
}
