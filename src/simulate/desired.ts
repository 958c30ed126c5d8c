// The desired state Cluster API computes before it patches (exp/topology/desiredstate): the objects' generated names,
// the labels and annotations it gives them, and from those the GeneratePatches request items: every ClusterClass
// template as its API server stores it, with the desired object's metadata synced in, its holder, and the builtin
// variables of its place (patches/engine.go createRequest, patches/variables).
import { createHash } from 'node:crypto'
import type {
  Builtins, Cluster, GeneratePatchesRequestItem, HolderReference, MachineDeploymentTopology, MachinePoolTopology
} from '../api/hooks/v1alpha1/types.generated.js'
import type { ClassTemplate, SimulationInputs } from './inputs.js'
import { getPath, groupOf, type JsonObject, jsonCopy, type KubeDocument, setPath } from './objects.js'

const CORE = 'cluster.x-k8s.io/v1beta2'
export const LABELS = {
  clusterName: 'cluster.x-k8s.io/cluster-name',
  owned: 'topology.cluster.x-k8s.io/owned',
  deploymentName: 'topology.cluster.x-k8s.io/deployment-name',
  poolName: 'topology.cluster.x-k8s.io/pool-name'
} as const
const CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name'
const CLONED_FROM_GROUP_KIND = 'cluster.x-k8s.io/cloned-from-groupkind'
/** The annotations Cluster API drops from objects it sends to extensions (last-applied configuration, conversion data). */
export const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration', 'cluster.x-k8s.io/conversion-data']
const NOT_PROPAGATED = ['topology.cluster.x-k8s.io/hold-upgrade-sequence', 'topology.cluster.x-k8s.io/defer-upgrade']

/** Kubernetes' random-name alphabet (no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** A generated name `<prefix><5 characters>`, like Kubernetes' SimpleNameGenerator, but the same for the same seed. */
function generatedName (prefix: string, seed: string): string {
  const digest = createHash('sha256').update(`${seed}\0${prefix}`).digest()
  return prefix + Array.from(digest.subarray(0, 5), b => ALPHABET[b % ALPHABET.length]).join('')
}

/** A UID in the API server's format, the same for the same seed. */
export function generatedUid (seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** The names of the objects Cluster API generates for a Cluster, chosen once, at creation. */
export interface GeneratedNames {
  infrastructureCluster: string
  controlPlane: string
  controlPlaneMachineTemplate: string
  machineDeployments: Map<string, { name: string, bootstrap: string, infrastructure: string }>
  machinePools: Map<string, { name: string, bootstrap: string, infrastructure: string }>
}

/** The default naming templates of Cluster API (`{{ .cluster.name }}-{{ .random }}` and friends). */
export function generateNames (cluster: Cluster & { metadata: { name: string } }, seed: string): GeneratedNames {
  const name = cluster.metadata.name
  const workers = cluster.spec?.topology?.workers
  const named = (topologies: ReadonlyArray<{ name?: string }> | undefined) => new Map((topologies ?? []).map(t => [t.name ?? '', {
    name: generatedName(`${name}-${t.name ?? ''}-`, `${seed}/object`),
    bootstrap: generatedName(`${name}-${t.name ?? ''}-`, `${seed}/bootstrap`),
    infrastructure: generatedName(`${name}-${t.name ?? ''}-`, `${seed}/infrastructure`)
  }]))
  return {
    infrastructureCluster: generatedName(`${name}-`, `${seed}/infrastructure-cluster`),
    controlPlane: generatedName(`${name}-`, `${seed}/control-plane`),
    controlPlaneMachineTemplate: generatedName(`${name}-`, `${seed}/control-plane-machine-template`),
    machineDeployments: named(workers?.machineDeployments),
    machinePools: named(workers?.machinePools)
  }
}

/** What the desired state depends on besides the inputs: the versions picked and the Cluster as it is now. */
export interface DesiredVersions {
  controlPlane: string
  machineDeployments: Map<string, string>
  machinePools: Map<string, string>
}

/** One GeneratePatches item before variables are added, with where it sits. */
export interface RequestItem extends Omit<GeneratePatchesRequestItem, 'variables'> {
  /** role names the item's place: infrastructureCluster, controlPlane, controlPlaneMachineInfrastructure, or `<role> <topology name>` for workers. */
  role: string
  /** builtin is the item's own builtin variable (control plane or worker); the Cluster's is global. */
  builtin?: Builtins
  /** name is what Cluster API names the object or template made from this one. */
  generatedName: string
  /** original is the ClusterClass's template as given. */
  original: KubeDocument
  /** unpatched is the object as sent to the first patch. */
  unpatched: KubeDocument
}

type Labels = Record<string, string>

/** util.MergeMap: the first map wins on conflicts; undefined when all are empty. */
function mergeMaps (...maps: Array<Labels | undefined>): Labels | undefined {
  const out: Labels = {}
  for (const map of [...maps].reverse()) Object.assign(out, map)
  return Object.keys(out).length > 0 ? out : undefined
}

function withoutKeys (map: Labels | undefined, keys: readonly string[]): Labels | undefined {
  if (map === undefined) return undefined
  const out = { ...map }
  for (const key of keys) delete out[key]
  return out
}

/** The template as Cluster API reads it from its API server: server fields, the ClusterClass as owner, no managedFields. */
function storedTemplate (template: ClassTemplate, inputs: SimulationInputs, seed: string): KubeDocument {
  const object = jsonCopy(template.object)
  const metadata = object.metadata ?? {}
  delete metadata.managedFields
  const annotations = withoutKeys(metadata.annotations, DROPPED_ANNOTATIONS)
  if (annotations && Object.keys(annotations).length > 0) metadata.annotations = annotations
  else delete metadata.annotations
  const id = `${seed}/template/${template.ref.kind}/${template.ref.name}`
  metadata.uid ??= generatedUid(id)
  metadata.resourceVersion ??= '1'
  metadata.generation ??= 1
  metadata.creationTimestamp ??= new Date(0).toISOString().replace('.000', '')
  metadata.ownerReferences ??= [{
    apiVersion: CORE,
    kind: 'ClusterClass',
    name: inputs.clusterClass.metadata.name,
    uid: inputs.clusterClass.metadata.uid ?? generatedUid(`${seed}/clusterclass`)
  }]
  object.metadata = metadata
  return object
}

function clonedFrom (template: ClassTemplate): Labels {
  return { [CLONED_FROM_NAME]: template.ref.name, [CLONED_FROM_GROUP_KIND]: `${template.ref.kind}.${groupOf(template.ref.apiVersion)}` }
}

/** The metadata of an object made from `spec.template` (templateToObject): the template's own, then the given. */
function objectMetadata (template: KubeDocument, clusterName: string, labels: Labels | undefined, annotations: Labels | undefined, from: Labels): { labels: Labels, annotations: Labels } {
  const own = (getPath(template, ['spec', 'template', 'metadata']) ?? {}) as { labels?: Labels, annotations?: Labels }
  return {
    labels: { ...own.labels, ...labels, [LABELS.clusterName]: clusterName, [LABELS.owned]: '' },
    annotations: { ...own.annotations, ...annotations, ...from }
  }
}

/** The metadata of a template copied for the Cluster (templateToTemplate). */
function templateMetadata (template: KubeDocument, clusterName: string, extraLabels: Labels, from: Labels): { labels: Labels, annotations: Labels } {
  return {
    labels: { ...template.metadata?.labels, [LABELS.clusterName]: clusterName, [LABELS.owned]: '', ...extraLabels },
    annotations: withoutKeys({ ...template.metadata?.annotations, ...from }, DROPPED_ANNOTATIONS) ?? {}
  }
}

/** Copies the desired object's labels and annotations into the template (createRequest's patchUnstructured). */
function syncMetadata (stored: KubeDocument, metadata: { labels: Labels, annotations: Labels }, into: readonly string[]): KubeDocument {
  setPath(stored as JsonObject, [...into, 'labels'], metadata.labels)
  setPath(stored as JsonObject, [...into, 'annotations'], metadata.annotations)
  return stored
}

function holder (apiVersion: string, kind: string, namespace: string, name: string, fieldPath: string): HolderReference {
  return { apiVersion, kind, namespace, name, fieldPath }
}

function metaOf (labels: Labels | undefined, annotations: Labels | undefined): { metadata?: { labels?: Labels, annotations?: Labels } } {
  const cleaned = withoutKeys(annotations, DROPPED_ANNOTATIONS)
  const meta = { ...(labels && Object.keys(labels).length > 0 ? { labels } : {}), ...(cleaned && Object.keys(cleaned).length > 0 ? { annotations: cleaned } : {}) }
  return labels !== undefined || annotations !== undefined ? { metadata: meta } : {}
}

/** The item UIDs: new ones per request in Cluster API; the same per place here. */
function itemUid (seed: string, role: string): string {
  return generatedUid(`${seed}/item/${role}`)
}

/**
 * The GeneratePatches items of the desired state, in Cluster API's order: the infrastructure cluster, the control
 * plane, its machine infrastructure, then each MachineDeployment's bootstrap and infrastructure templates, then each
 * MachinePool's.
 */
export function requestItems (inputs: SimulationInputs, names: GeneratedNames, versions: DesiredVersions, seed: string): RequestItem[] {
  const { cluster, clusterClass, templates } = inputs
  const clusterName = cluster.metadata.name
  const namespace = cluster.metadata.namespace
  const topology = cluster.spec?.topology
  const spec = clusterClass.spec ?? {}
  const items: RequestItem[] = []
  const add = (role: string, template: ClassTemplate, stored: KubeDocument, holderRef: HolderReference, generatedName: string, builtin?: Builtins) => {
    items.push({ role, uid: itemUid(seed, role), holderReference: holderRef, object: stored, generatedName, original: template.object, unpatched: jsonCopy(stored), ...(builtin ? { builtin } : {}) })
  }
  const template = (place: string) => templates.get(place) as ClassTemplate

  const infra = template('spec.infrastructure')
  const infraMeta = objectMetadata(infra.object, clusterName, undefined, undefined, clonedFrom(infra))
  add('infrastructureCluster', infra, syncMetadata(storedTemplate(infra, inputs, seed), infraMeta, ['spec', 'template', 'metadata']),
    holder(CORE, 'Cluster', namespace, clusterName, 'spec.infrastructureRef'), names.infrastructureCluster)

  const cp = template('spec.controlPlane')
  const cpObjectMeta = objectMetadata(cp.object, clusterName, mergeMaps(topology?.controlPlane?.metadata?.labels, spec.controlPlane?.metadata?.labels),
    mergeMaps(topology?.controlPlane?.metadata?.annotations, spec.controlPlane?.metadata?.annotations), clonedFrom(cp))
  const cpMachine = templates.get('spec.controlPlane.machineInfrastructure')
  const cpKind = cp.ref.kind.replace(/Template$/, '')
  const replicas = topology?.controlPlane?.replicas
  const cpBuiltin: Builtins = {
    controlPlane: {
      version: versions.controlPlane,
      ...metaOf(cpObjectMeta.labels, cpObjectMeta.annotations),
      name: names.controlPlane,
      ...(replicas !== undefined ? { replicas } : {}),
      ...(cpMachine ? { machineTemplate: { infrastructureRef: { name: names.controlPlaneMachineTemplate } } } : {})
    }
  }
  add('controlPlane', cp, syncMetadata(storedTemplate(cp, inputs, seed), cpObjectMeta, ['spec', 'template', 'metadata']),
    holder(CORE, 'Cluster', namespace, clusterName, 'spec.controlPlaneRef'), names.controlPlane, cpBuiltin)
  if (cpMachine) {
    add('controlPlaneMachineInfrastructure', cpMachine, syncMetadata(storedTemplate(cpMachine, inputs, seed), templateMetadata(cpMachine.object, clusterName, {}, clonedFrom(cpMachine)), ['metadata']),
      holder(cp.ref.apiVersion, cpKind, namespace, names.controlPlane, 'spec.machineTemplate.spec.infrastructureRef'), names.controlPlaneMachineTemplate, cpBuiltin)
  }

  const mdClasses = spec.workers?.machineDeployments ?? []
  for (const md of topology?.workers?.machineDeployments ?? []) {
    const index = mdClasses.findIndex(c => c.class === md.class)
    const mdClass = mdClasses[index]
    const generated = names.machineDeployments.get(md.name ?? '')
    if (!mdClass || !generated) continue
    const builtin = machineBuiltins('machineDeployment', md, mdClass.metadata, clusterName, generated, versions.machineDeployments.get(md.name ?? '') ?? versions.controlPlane, LABELS.deploymentName)
    const mdLabel = { [LABELS.deploymentName]: md.name ?? '' }
    for (const [part, field, generatedName] of [['bootstrap', 'spec.template.spec.bootstrap.configRef', generated.bootstrap], ['infrastructure', 'spec.template.spec.infrastructureRef', generated.infrastructure]] as const) {
      const t = template(`spec.workers.machineDeployments[${index}].${part}`)
      add(`machineDeployment ${md.name ?? ''} ${part}`, t, syncMetadata(storedTemplate(t, inputs, seed), templateMetadata(t.object, clusterName, mdLabel, clonedFrom(t)), ['metadata']),
        holder(CORE, 'MachineDeployment', namespace, generated.name, field), generatedName, builtin)
    }
  }

  const mpClasses = spec.workers?.machinePools ?? []
  for (const mp of topology?.workers?.machinePools ?? []) {
    const index = mpClasses.findIndex(c => c.class === mp.class)
    const mpClass = mpClasses[index]
    const generated = names.machinePools.get(mp.name ?? '')
    if (!mpClass || !generated) continue
    const builtin = machineBuiltins('machinePool', mp, mpClass.metadata, clusterName, generated, versions.machinePools.get(mp.name ?? '') ?? versions.controlPlane, LABELS.poolName)
    for (const [part, field, generatedName] of [['bootstrap', 'spec.template.spec.bootstrap.configRef', generated.bootstrap], ['infrastructure', 'spec.template.spec.infrastructureRef', generated.infrastructure]] as const) {
      const t = template(`spec.workers.machinePools[${index}].${part}`)
      const meta = objectMetadata(t.object, clusterName, { [LABELS.poolName]: mp.name ?? '' }, undefined, clonedFrom(t))
      add(`machinePool ${mp.name ?? ''} ${part}`, t, syncMetadata(storedTemplate(t, inputs, seed), meta, ['spec', 'template', 'metadata']),
        holder(CORE, 'MachinePool', namespace, generated.name, field), generatedName, builtin)
    }
  }
  return items
}

/** The builtin variable of a MachineDeployment's or MachinePool's templates (patches/variables MachineDeployment). */
function machineBuiltins (key: 'machineDeployment' | 'machinePool', topology: MachineDeploymentTopology | MachinePoolTopology, classMetadata: { labels?: Labels, annotations?: Labels } | undefined,
  clusterName: string, generated: { name: string, bootstrap: string, infrastructure: string }, version: string, nameLabel: string): Builtins {
  const labels = { ...mergeMaps(topology.metadata?.labels, classMetadata?.labels), [LABELS.clusterName]: clusterName, [LABELS.owned]: '', [nameLabel]: topology.name ?? '' }
  const annotations = withoutKeys(mergeMaps(topology.metadata?.annotations, classMetadata?.annotations), NOT_PROPAGATED)
  return {
    [key]: {
      version,
      ...metaOf(labels, annotations),
      class: topology.class,
      name: generated.name,
      topologyName: topology.name,
      ...(topology.replicas !== undefined ? { replicas: topology.replicas } : {}),
      bootstrap: { configRef: { name: generated.bootstrap } },
      infrastructureRef: { name: generated.infrastructure }
    }
  }
}

/** The Cluster's builtin variable (variables.Global) from the desired Cluster. */
export function clusterBuiltins (desired: Cluster & { metadata: { name: string, namespace: string } }): Builtins {
  const classRef = desired.spec?.topology?.classRef
  const classNamespace = classRef?.namespace || desired.metadata.namespace
  const network = desired.spec?.clusterNetwork
  const networkBuiltins = {
    ...(network?.serviceDomain ? { serviceDomain: network.serviceDomain } : {}),
    ...(network?.services?.cidrBlocks ? { services: network.services.cidrBlocks } : {}),
    ...(network?.pods?.cidrBlocks ? { pods: network.pods.cidrBlocks } : {})
  }
  return {
    cluster: {
      name: desired.metadata.name,
      namespace: desired.metadata.namespace,
      uid: desired.metadata.uid ?? '',
      ...metaOf(desired.metadata.labels, desired.metadata.annotations),
      topology: {
        version: desired.spec?.topology?.version ?? '',
        classRef: { name: classRef?.name ?? '', namespace: classNamespace },
        class: classRef?.name ?? '',
        classNamespace
      },
      ...(Object.keys(networkBuiltins).length > 0 ? { network: networkBuiltins } : {})
    }
  }
}
