// The hook requests the server scenarios send: Cluster API-marshalled fixtures (test/fixtures/v1alpha1), made to
// the sizes of the benchmark plan. Every body is a valid request of its hook, so servers answer Success.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const fixtures = fileURLToPath(new URL('../../test/fixtures/v1alpha1/', import.meta.url))
const API = '/hooks.runtime.cluster.x-k8s.io/v1alpha1'

function fixture (name: string): Record<string, any> {
  return JSON.parse(readFileSync(`${fixtures}${name}.request.json`, 'utf8')) as Record<string, any>
}

/**
 * The topology variable a ClusterClass-based Cluster typically carries (shaped like CAREN's clusterConfig):
 * added to the fixture's Cluster it makes the ~5 KB BeforeClusterCreate body of the plan.
 */
const clusterConfig = {
  name: 'clusterConfig',
  value: {
    addons: {
      cni: { provider: 'Cilium', strategy: 'HelmAddon' },
      csi: { defaultStorage: { provider: 'local-path', storageClassConfig: 'default' }, providers: { 'local-path': { storageClassConfigs: { default: {} }, strategy: 'HelmAddon' } } },
      clusterAutoscaler: { strategy: 'HelmAddon' },
      nfd: { strategy: 'HelmAddon' },
      serviceLoadBalancer: { provider: 'MetalLB', configuration: { addressRanges: [{ start: '198.18.1.1', end: '198.18.1.10' }] } }
    },
    controlPlane: { docker: { customImage: 'ghcr.io/example/kind-node:v1.33.0' } },
    imageRegistries: [{ url: 'https://registry.example.com', credentials: { secretRef: { name: 'registry-credentials' } } }],
    dns: { coreDNS: { image: { repository: 'registry.k8s.io/coredns', tag: 'v1.12.0' } } },
    encryptionAtRest: { providers: [{ aescbc: {} }, { secretbox: {} }] },
    users: [{ name: 'ops', sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk0TD4ZmKz2uYqGQ8d8jZ1Qx9Jp3oM0xV7q0uG1bench ops@example.com'], sudo: 'ALL=(ALL) NOPASSWD:ALL' }]
  }
}

/** BeforeClusterCreate with a realistic Cluster of about 5 KB (compact JSON, as Go's encoder sends it). */
export function beforeClusterCreateRequest (): Record<string, any> {
  const request = fixture('beforeclustercreate')
  request['cluster'].spec.topology.variables.push(clusterConfig)
  return request
}

/**
 * GeneratePatches whose body is as close to `bytes` as whole items allow (never above it): the fixture's templates
 * repeated with unique uids, the way a large topology (many MachineDeployments) grows the request.
 */
export function generatePatchesRequest (bytes: number): Record<string, any> {
  const request = fixture('generatepatches')
  const templates = request['items'] as Array<Record<string, unknown>>
  const items: Array<Record<string, unknown>> = []
  request['items'] = items
  let size = Buffer.byteLength(JSON.stringify(request))
  for (let i = 0; ; i++) {
    const item = { ...templates[i % templates.length], uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}` }
    const itemSize = Buffer.byteLength(JSON.stringify(item)) + (items.length > 0 ? 1 : 0)
    if (size + itemSize > bytes) break
    items.push(item)
    size += itemSize
  }
  return request
}

export interface Workload {
  /** id is the case id part, e.g. bcc-5k. */
  id: string
  /** label names the hook and the exact body size. */
  label: string
  hook: 'BeforeClusterCreate' | 'GeneratePatches'
  /** path and query as Cluster API calls them (handler name of the peers, ?timeout=10s). */
  path: string
  body: Buffer
  /** minDurationS: a repetition runs at least this long, so that even a brief (smoke) run completes requests. */
  minDurationS: number
}

function workload (id: string, hook: Workload['hook'], path: string, request: unknown, minDurationS = 1): Workload {
  const body = Buffer.from(JSON.stringify(request))
  return { id, hook, path, body, minDurationS, label: `${hook} ${formatBytes(body.length)}` }
}

/** The hook workloads of scenarios 1-3: BeforeClusterCreate ~5 KB, GeneratePatches 64 KB and 1 MB. */
export function hookWorkloads (): Workload[] {
  return [
    workload('bcc-5k', 'BeforeClusterCreate', `${API}/beforeclustercreate/before-cluster-create?timeout=10s`, beforeClusterCreateRequest()),
    workload('gp-64k', 'GeneratePatches', `${API}/generatepatches/generate-patches?timeout=10s`, generatePatchesRequest(64 * 1024)),
    // At 10 connections a round of 1 MB requests can take over a second on a busy 2-core machine.
    workload('gp-1m', 'GeneratePatches', `${API}/generatepatches/generate-patches?timeout=10s`, generatePatchesRequest(1024 * 1024), 3)
  ]
}

/** 5.0 KB, 63.7 KB, 1.00 MB (binary units; from 1000 KB on in MB). */
export function formatBytes (bytes: number): string {
  if (bytes >= 1000 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MB`
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${bytes} B`
}
