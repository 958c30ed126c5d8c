// A Cluster of a running management cluster, read and never written: the Cluster, its ClusterClass and the templates
// the class references, and what the topology controller made for the Cluster (the infrastructure cluster, the
// control plane and its machine template, each MachineDeployment with its templates and the version its Machines
// run, each MachinePool with its objects), as the API server returns them (defaults applied). Reads go through any
// client with get and list (KubeApi is one); paths come from the API server's discovery of each group version.
import { CLUSTER_NAME_LABEL, CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL, CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL, CLUSTER_TOPOLOGY_OWNED_LABEL, CORE_API_VERSION, MACHINE_CONTROL_PLANE_LABEL, MACHINE_DEPLOYMENT_NAME_LABEL } from '../api/core/constants.js'
import { SimulationInputError } from './errors.js'
import { type Stored, getPath, type Unstructured } from './objects.js'
import type { WorkerState } from './scope.js'
import { compareKubernetesVersions } from './versions.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** Read access to an API server: GET of an object and of a collection. */
export interface ApiReader {
  /** get reads one object (or a discovery document) by its path; rejects with the API server's error. */
  get: <T = unknown>(path: string) => Promise<T>
  /** list reads a collection by its path (query included); its items. */
  list: <T = unknown>(path: string) => Promise<ListOf<T>>
}

/** A collection as the API server lists it. */
export interface ListOf<T> {
  /** items are the objects of the collection. */
  items: T[]
}

/** What the topology controller made for a Cluster, as stored. */
export interface LiveState {
  /** infrastructureCluster is the Cluster's infrastructure object (a DevCluster, ...). */
  infrastructureCluster?: Unstructured
  /** controlPlane is the control plane object and the machine template it references. */
  controlPlane: ControlPlaneState
  /** machineDeployments by topology name, each with its templates. */
  machineDeployments: Map<string, WorkerState>
  /** machinePools by topology name, each with its objects. */
  machinePools: Map<string, WorkerState>
  /** machineVersions: the oldest Kubernetes version the Machines of each MachineDeployment run, by topology name. */
  machineVersions: Map<string, string>
}

/** A control plane as stored: its object and its machine infrastructure template. */
export interface ControlPlaneState {
  /** object is the control plane (a KubeadmControlPlane, ...). */
  object?: Unstructured
  /** infrastructureMachineTemplate is the template its Machines' infrastructure is made from. */
  infrastructureMachineTemplate?: Unstructured
  /** machines are its Machines with their bootstrap configs and infrastructure machines, when read from a cluster. */
  machines?: MachineObjects[]
}

/** A Machine with the objects it references. */
export interface MachineObjects {
  /** machine is the Machine as stored. */
  machine: Unstructured
  /** bootstrapConfig is its bootstrap config (a KubeadmConfig, ...). */
  bootstrapConfig?: Unstructured
  /** infrastructureMachine is its infrastructure machine (a DevMachine, ...). */
  infrastructureMachine?: Unstructured
}

/** A live Cluster: the inputs of a simulation (Cluster, ClusterClass, templates) and where it stands. */
export interface LiveCluster {
  cluster: Stored<Cluster, 'namespaced'>
  objects: Unstructured[]
  state: LiveState
}

/** Which Clusters to read. */
export interface ClusterSelection {
  /** namespace of the Clusters (default: every namespace). */
  namespace?: string
  /** name of one Cluster (needs namespace). */
  name?: string
  /** labelSelector, as kubectl takes it (`a=b,c!=d`). */
  labelSelector?: string
  /** clusterClass keeps the Clusters of this ClusterClass (`name` or `namespace/name`). */
  clusterClass?: string
}

/** Finds the REST paths of kinds through the API server's discovery, once per group version. */
export class ResourcePaths {
  readonly #api: ApiReader
  readonly #resources = new Map<string, Promise<Map<string, { name: string, namespaced: boolean }>>>()

  constructor (api: ApiReader) {
    this.#api = api
  }

  async #resourcesOf (apiVersion: string): Promise<Map<string, { name: string, namespaced: boolean }>> {
    let found = this.#resources.get(apiVersion)
    if (!found) {
      const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`
      found = this.#api.get<{ resources?: Array<{ kind: string, name: string, namespaced: boolean }> }>(base)
        .then(list => new Map((list.resources ?? []).filter(r => !r.name.includes('/')).map(r => [r.kind, { name: r.name, namespaced: r.namespaced }])))
      this.#resources.set(apiVersion, found)
    }
    return await found
  }

  /** The collection path of a kind (in a namespace, when namespaced and one is given). */
  async collection (apiVersion: string, kind: string, namespace?: string): Promise<string> {
    const resource = (await this.#resourcesOf(apiVersion)).get(kind)
    if (!resource) throw new SimulationInputError(`the API server serves no ${kind} in ${apiVersion}: is its provider installed?`)
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`
    return resource.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}` : `${base}/${resource.name}`
  }

  /** The path of one object. */
  async object (apiVersion: string, kind: string, namespace: string, name: string): Promise<string> {
    return `${await this.collection(apiVersion, kind, namespace)}/${encodeURIComponent(name)}`
  }
}

/** The Clusters with a managed topology a selection picks, sorted by namespace and name. */
export async function listClusters (api: ApiReader, selection: ClusterSelection): Promise<Stored<Cluster, 'namespaced'>[]> {
  const base = `/apis/${CORE_API_VERSION}`
  const ns = selection.namespace ? `/namespaces/${encodeURIComponent(selection.namespace)}` : ''
  if (selection.name) {
    if (!selection.namespace) throw new SimulationInputError('a Cluster is named with its namespace: pass --namespace')
    return [await api.get<Stored<Cluster, 'namespaced'>>(`${base}${ns}/clusters/${encodeURIComponent(selection.name)}`)]
  }
  const query = selection.labelSelector ? `?labelSelector=${encodeURIComponent(selection.labelSelector)}` : ''
  const clusters = (await api.list<Stored<Cluster, 'namespaced'>>(`${base}${ns}/clusters${query}`)).items.filter(c => c.spec?.topology !== undefined)
  const wanted = selection.clusterClass
  const ofClass = wanted
    ? clusters.filter(c => {
      const ref = c.spec?.topology?.classRef
      const key = `${ref?.namespace || c.metadata.namespace}/${ref?.name ?? ''}`
      return wanted.includes('/') ? key === wanted : ref?.name === wanted
    })
    : clusters
  return ofClass.sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}` < `${b.metadata.namespace}/${b.metadata.name}` ? -1 : 1)
}

/** Every template reference of a ClusterClass. */
function classTemplateRefs (clusterClass: Unstructured): Array<{ apiVersion: string, kind: string, name: string }> {
  const spec = (clusterClass['spec'] ?? {}) as Record<string, any>
  const refs = [spec['infrastructure']?.templateRef, spec['controlPlane']?.templateRef, spec['controlPlane']?.machineInfrastructure?.templateRef]
  for (const w of [...spec['workers']?.machineDeployments ?? [], ...spec['workers']?.machinePools ?? []]) refs.push(w?.bootstrap?.templateRef, w?.infrastructure?.templateRef)
  const named = refs.filter((r): r is { apiVersion: string, kind: string, name: string } => typeof r?.name === 'string')
  // A template may serve several classes (a MachineDeployment's and a MachinePool's bootstrap template): read once.
  return named.filter((r, i) => named.findIndex(o => o.apiVersion === r.apiVersion && o.kind === r.kind && o.name === r.name) === i)
}

/** A referenced object, or undefined when the reference is not set. */
async function referenced (api: ApiReader, paths: ResourcePaths, ref: { apiGroup?: string, apiVersion?: string, kind?: string, name?: string } | undefined, namespace: string, versionOf: (group: string) => Promise<string>): Promise<Unstructured | undefined> {
  if (!ref?.name || !ref.kind) return undefined
  const apiVersion = ref.apiVersion ?? await versionOf(ref.apiGroup ?? '')
  return await api.get<Unstructured>(await paths.object(apiVersion, ref.kind, namespace, ref.name))
}

/** Reads one Cluster with its ClusterClass, templates and the objects made for it. */
export async function readLiveCluster (api: ApiReader, cluster: Stored<Cluster, 'namespaced'>, paths = new ResourcePaths(api)): Promise<LiveCluster> {
  const namespace = cluster.metadata.namespace
  const where = `Cluster ${namespace}/${cluster.metadata.name}`
  const topology = cluster.spec?.topology
  if (!topology) throw new SimulationInputError(`${where}: spec.topology: is required (Clusters with a managed topology only)`)
  const classNamespace = topology.classRef?.namespace || namespace
  let clusterClass: Unstructured
  try {
    clusterClass = await api.get<Unstructured>(`/apis/${CORE_API_VERSION}/namespaces/${encodeURIComponent(classNamespace)}/clusterclasses/${encodeURIComponent(topology.classRef?.name ?? '')}`)
  } catch (err) {
    if ((err as { reason?: string }).reason === 'NotFound') throw new SimulationInputError(`${where}: spec.topology.classRef names ClusterClass ${classNamespace}/${topology.classRef?.name ?? ''}, which does not exist`)
    throw err
  }
  const templates: Unstructured[] = []
  for (const ref of classTemplateRefs(clusterClass)) {
    try {
      templates.push(await api.get<Unstructured>(await paths.object(ref.apiVersion, ref.kind, classNamespace, ref.name)))
    } catch (err) {
      if ((err as { reason?: string }).reason === 'NotFound') throw new SimulationInputError(`ClusterClass ${classNamespace}/${clusterClass.metadata?.name ?? ''}: references ${ref.kind} ${classNamespace}/${ref.name}, which does not exist`)
      throw err
    }
  }
  // The version of a group is the one the ClusterClass uses for it, else the API server's preferred one.
  const versionOf = async (group: string): Promise<string> => {
    const fromClass = [...templates, clusterClass].map(t => t.apiVersion ?? '').find(v => v.startsWith(`${group}/`))
    if (fromClass) return fromClass
    const found = await api.get<{ preferredVersion?: { groupVersion?: string } }>(`/apis/${group}`)
    return found.preferredVersion?.groupVersion ?? `${group}/v1beta2`
  }
  const spec = cluster.spec ?? {}
  const controlPlane = await referenced(api, paths, spec.controlPlaneRef, namespace, versionOf)
  const state: LiveState = {
    ...(await referenced(api, paths, spec.infrastructureRef, namespace, versionOf).then(o => o ? { infrastructureCluster: o } : {})),
    controlPlane: {},
    machineDeployments: new Map(),
    machinePools: new Map(),
    machineVersions: new Map()
  }
  if (controlPlane) {
    state.controlPlane.object = controlPlane
    const machineRef = (getPath(controlPlane, ['spec', 'machineTemplate', 'spec', 'infrastructureRef']) ?? getPath(controlPlane, ['spec', 'machineTemplate', 'infrastructureRef'])) as { apiGroup?: string, apiVersion?: string, kind?: string, name?: string } | undefined
    const machineTemplate = await referenced(api, paths, machineRef, namespace, versionOf)
    if (machineTemplate) state.controlPlane.infrastructureMachineTemplate = machineTemplate
  }
  const selector = encodeURIComponent(`${CLUSTER_NAME_LABEL}=${cluster.metadata.name},${CLUSTER_TOPOLOGY_OWNED_LABEL}`)
  const mds = await api.list<Unstructured>(`/apis/${CORE_API_VERSION}/namespaces/${encodeURIComponent(namespace)}/machinedeployments?labelSelector=${selector}`)
  const machines = await api.list<Unstructured>(`/apis/${CORE_API_VERSION}/namespaces/${encodeURIComponent(namespace)}/machines?labelSelector=${encodeURIComponent(`${CLUSTER_NAME_LABEL}=${cluster.metadata.name}`)}`)
  if (controlPlane) {
    const ofControlPlane = machines.items.filter(m => m.metadata?.labels?.[MACHINE_CONTROL_PLANE_LABEL] !== undefined)
    state.controlPlane.machines = await Promise.all(ofControlPlane.map(async machine => {
      const bootstrapConfig = await referenced(api, paths, getPath(machine, ['spec', 'bootstrap', 'configRef']) as never, namespace, versionOf)
      const infrastructureMachine = await referenced(api, paths, getPath(machine, ['spec', 'infrastructureRef']) as never, namespace, versionOf)
      return { machine, ...(bootstrapConfig ? { bootstrapConfig } : {}), ...(infrastructureMachine ? { infrastructureMachine } : {}) }
    }))
  }
  for (const md of mds.items) {
    const name = md.metadata?.labels?.[CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL]
    if (!name) continue
    const templateSpec = getPath(md, ['spec', 'template', 'spec']) as { bootstrap?: { configRef?: never }, infrastructureRef?: never, version?: string } | undefined
    const bootstrap = await referenced(api, paths, templateSpec?.bootstrap?.configRef, namespace, versionOf)
    const infrastructure = await referenced(api, paths, templateSpec?.infrastructureRef, namespace, versionOf)
    if (!bootstrap || !infrastructure) continue
    state.machineDeployments.set(name, { object: md, bootstrap, infrastructure })
    const versions = machines.items.filter(m => m.metadata?.labels?.[MACHINE_DEPLOYMENT_NAME_LABEL] === md.metadata?.name).map(m => getPath(m, ['spec', 'version']) as string).filter(Boolean)
    state.machineVersions.set(name, versions.sort(compareKubernetesVersions)[0] ?? templateSpec?.version ?? '')
  }
  const mps = await api.list<Unstructured>(`/apis/${CORE_API_VERSION}/namespaces/${encodeURIComponent(namespace)}/machinepools?labelSelector=${selector}`).catch(() => ({ items: [] as Unstructured[] }))
  for (const mp of mps.items) {
    const name = mp.metadata?.labels?.[CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL]
    if (!name) continue
    const templateSpec = getPath(mp, ['spec', 'template', 'spec']) as { bootstrap?: { configRef?: never }, infrastructureRef?: never } | undefined
    const bootstrap = await referenced(api, paths, templateSpec?.bootstrap?.configRef, namespace, versionOf)
    const infrastructure = await referenced(api, paths, templateSpec?.infrastructureRef, namespace, versionOf)
    if (bootstrap && infrastructure) state.machinePools.set(name, { object: mp, bootstrap, infrastructure })
  }
  return { cluster, objects: [cluster as Unstructured, clusterClass, ...templates], state }
}
