// A management cluster in memory, for the tests and the benchmark of what reads one (simulate on live Clusters,
// rollout-impact): Clusters as `simulate` leaves them once created (the Cluster, its ClusterClass and templates, what
// the topology controller made, a Machine per replica), copied into as many namespaces as asked, served through the
// ApiReader interface with discovery, GET of objects, lists across or within namespaces and equality and existence
// label selectors, as the API server answers them.
import crds from '../../hooks/v1alpha1/crds.json' with { type: 'json' }
import type { ApiReader, Unstructured, SimulationResult } from '../../src/simulate/index.js'

interface Resource { apiVersion: string, kind: string, plural: string, namespaced: boolean }

const RESOURCES: Resource[] = [
  ...(crds as unknown as { crds: Resource[] }).crds.map(c => ({ apiVersion: c.apiVersion, kind: c.kind, plural: c.plural, namespaced: c.namespaced })),
  { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', plural: 'extensionconfigs', namespaced: false },
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }
]

/** An API error as KubeApi throws it. */
class NotFound extends Error {
  readonly code = 404
  readonly reason = 'NotFound'
}

function matches (labels: Record<string, string> | undefined, selector: string | null): boolean {
  if (!selector) return true
  return selector.split(',').every(term => {
    const [k = '', v] = term.split('=')
    return v === undefined ? labels?.[k] !== undefined : labels?.[k] === v
  })
}

/** The objects of a management cluster, read as an API server serves them. */
export class MemoryManagementCluster implements ApiReader {
  readonly #objects = new Map<string, Unstructured[]>()
  /** gets counts the GET requests answered, lists the LIST requests. */
  gets = 0
  lists = 0

  constructor (objects: readonly Unstructured[]) {
    for (const o of objects) {
      const resource = RESOURCES.find(r => r.apiVersion === o.apiVersion && r.kind === o.kind)
      if (!resource) throw new Error(`no resource for ${String(o.apiVersion)} ${String(o.kind)}`)
      const key = `${resource.apiVersion} ${resource.plural}`
      this.#objects.set(key, [...this.#objects.get(key) ?? [], o])
    }
  }

  async get<T> (path: string): Promise<T> {
    this.gets++
    const discovery = /^\/apis?\/([^/]+(?:\/[^/]+)?)$/.exec(path)
    if (discovery) {
      const groupVersion = discovery[1] as string
      if (groupVersion.includes('/') || path.startsWith('/api/')) {
        return { resources: RESOURCES.filter(r => r.apiVersion === groupVersion).map(r => ({ kind: r.kind, name: r.plural, namespaced: r.namespaced })) } as T
      }
      const preferred = RESOURCES.find(r => r.apiVersion.startsWith(`${groupVersion}/`))
      if (!preferred) throw new NotFound(`the server could not find the requested resource (get ${path})`)
      return { preferredVersion: { groupVersion: preferred.apiVersion } } as T
    }
    const { apiVersion, plural, namespace, name } = this.#parse(path)
    const found = (this.#objects.get(`${apiVersion} ${plural}`) ?? []).find(o => o.metadata?.name === name && (namespace === undefined || o.metadata?.namespace === namespace))
    if (!found) throw new NotFound(`${plural} "${name ?? ''}" not found`)
    return structuredClone(found) as T
  }

  async list<T> (path: string): Promise<{ items: T[] }> {
    this.lists++
    const url = new URL(path, 'http://memory')
    const { apiVersion, plural, namespace } = this.#parse(url.pathname)
    const items = (this.#objects.get(`${apiVersion} ${plural}`) ?? [])
      .filter(o => (namespace === undefined || o.metadata?.namespace === namespace) && matches(o.metadata?.labels, url.searchParams.get('labelSelector')))
    return { items: structuredClone(items) as T[] }
  }

  #parse (path: string): { apiVersion: string, plural: string, namespace?: string, name?: string } {
    const parts = path.split('/').filter(Boolean)
    const core = parts[0] === 'api'
    const apiVersion = core ? parts[1] as string : `${parts[1] ?? ''}/${parts[2] ?? ''}`
    const rest = parts.slice(core ? 2 : 3)
    if (rest[0] === 'namespaces' && rest.length >= 3) return { apiVersion, plural: rest[2] as string, namespace: rest[1] as string, ...(rest[3] ? { name: rest[3] } : {}) }
    return { apiVersion, plural: rest[0] as string, ...(rest[1] ? { name: rest[1] } : {}) }
  }
}

/** The objects of a Cluster as `simulate` (delete: false) left it: what the API server would hold for it. */
export function liveObjects (inputs: readonly Unstructured[], result: SimulationResult): Unstructured[] {
  const state = result.state
  if (!state) throw new Error('the simulation left no state')
  const { current } = state
  const objects: Unstructured[] = [state.cluster as Unstructured, ...inputs.filter(o => o.kind !== 'Cluster')]
  if (current.infrastructureCluster) objects.push(current.infrastructureCluster)
  if (current.controlPlane.object) objects.push(current.controlPlane.object)
  if (current.controlPlane.infrastructureMachineTemplate) objects.push(current.controlPlane.infrastructureMachineTemplate)
  for (const [name, md] of current.machineDeployments) {
    objects.push(md.object, md.bootstrap, md.infrastructure)
    const replicas = Number((md.object['spec'] as { replicas?: number } | undefined)?.replicas ?? 1)
    for (let i = 0; i < replicas; i++) {
      objects.push({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Machine',
        metadata: {
          name: `${md.object.metadata?.name ?? name}-${i}`,
          namespace: md.object.metadata?.namespace ?? '',
          labels: { 'cluster.x-k8s.io/cluster-name': state.cluster.metadata.name, 'cluster.x-k8s.io/deployment-name': md.object.metadata?.name ?? '' }
        },
        spec: { clusterName: state.cluster.metadata.name, version: current.machineVersions.get(name) ?? '' }
      })
    }
  }
  return objects
}

/** The objects copied into another namespace (every metadata.namespace replaced). */
export function inNamespace (objects: readonly Unstructured[], namespace: string): Unstructured[] {
  return objects.map(o => ({ ...structuredClone(o), metadata: { ...o.metadata, namespace } }))
}

/** A Namespace, with the name label the API server sets and the labels given. */
export function namespaceObject (name: string, labels: Record<string, string> = {}): Unstructured {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } }
}
