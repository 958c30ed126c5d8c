// ClusterClasses written by others, for the tests that compare `runtime-sdk simulate` with Cluster API itself: read
// from Cluster API v1.14.2's own test module in the Go module cache (never copied into this repository), their
// clusterctl variables substituted, and switched to CAPD's in-memory backend where they use Docker (the inMemory
// backend is added beside the docker one, which CAPD then ignores, so every patch applies to the templates as their
// authors wrote them).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseAllDocuments } from 'yaml'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** A Kubernetes object of a class file. */
export type Obj = Record<string, any> & { kind: string, metadata: { name: string, namespace?: string } }

/** The directory of sigs.k8s.io/cluster-api/test in the module cache (tools/cluster-api requires it). */
export function clusterApiTestDir (): string {
  const r = spawnSync('go', ['list', '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/cluster-api/test'], { cwd: join(repoRoot, 'tools/cluster-api'), encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' } })
  const dir = r.stdout.trim()
  if (r.status !== 0 || dir === '') throw new Error(`go list sigs.k8s.io/cluster-api/test: ${r.stderr}`)
  return dir
}

/**
 * Free loopback ports for the workload API servers of the in-memory backend. CAPD gives the others ports from 20000
 * up to 30000, counting on from the highest port it was given: these come from near the top of that range, so that
 * neither collides with the other whichever Cluster comes first.
 */
export async function inMemoryEndpointPorts (count: number): Promise<number[]> {
  const ports: number[] = []
  for (let port = 29980; ports.length < count && port < 29995; port++) {
    const free = await new Promise<boolean>(resolve => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)))
    })
    if (free) ports.push(port)
  }
  return ports
}

/** clusterctl's variable substitution: `${NAME}` and `${NAME:-default}` (quotes around a default kept as YAML reads them). */
function substitute (text: string, values: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => values[name] ?? fallback ?? '')
}

/** Fast in-memory machines: a second for each part to come up. */
const IN_MEMORY_MACHINE = {
  vm: { provisioning: { startupDuration: '1s' } },
  node: { provisioning: { startupDuration: '1s' } },
  apiServer: { provisioning: { startupDuration: '1s' } },
  etcd: { provisioning: { startupDuration: '1s' } }
}

/**
 * Adds the inMemory backend to CAPD's Dev* templates that only have docker. CAPD's webhook gives a DevCluster with a
 * docker backend the endpoint port 6443, on which the in-memory backend would then serve every such Cluster: each
 * class gets a port of its own instead (one Cluster per class).
 */
function inMemory (object: Obj, endpointPort: number | undefined): Obj {
  const spec = object['spec']?.template?.spec as Record<string, any> | undefined
  const backend = spec?.['backend'] as Record<string, unknown> | undefined
  if (!spec || !backend || 'inMemory' in backend) return object
  if (object.kind === 'DevClusterTemplate') {
    backend['inMemory'] = {}
    if (endpointPort !== undefined) spec['controlPlaneEndpoint'] = { port: endpointPort }
  }
  if (object.kind === 'DevMachineTemplate') backend['inMemory'] = IN_MEMORY_MACHINE
  return object
}

/**
 * The objects of a class file under the test module, substituted, switched to in-memory (its workload API server on
 * endpointPort when the class used Docker), put in a namespace.
 */
export function clusterApiClass (file: string, namespace: string, options: { variables?: Record<string, string>, endpointPort?: number } = {}): Obj[] {
  const text = substitute(readFileSync(join(clusterApiTestDir(), file), 'utf8'), options.variables ?? {})
  return parseAllDocuments(text).map(d => d.toJS() as Obj | null).filter((o): o is Obj => o !== null)
    .map(o => inMemory({ ...o, metadata: { ...o.metadata, namespace } }, options.endpointPort))
}
