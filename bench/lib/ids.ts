// Case ids, shared by the scenarios that produce the cases and the targets and tables that read them.

export type Transport = 'http' | 'https'

/** e.g. ours/bcc-5k/https/c10 */
export function serverCaseId (key: string, workloadId: string, transport: Transport, connections: number): string {
  return `${key}/${workloadId}/${transport}/c${connections}`
}

export const callAllId = (handlers: number, latencyMs: number, sequential: boolean): string =>
  `client/call-all/k${handlers}/${latencyMs}ms/${sequential ? 'sequential' : 'parallel'}`

export const deadId = (handlers: number, sequential: boolean): string => `client/dead/k${handlers}/${sequential ? 'sequential' : 'parallel'}`

export const OVERHEAD_IDS = { raw: 'client/overhead/raw-undici', callExtension: 'client/overhead/call-extension', callAll: 'client/overhead/call-all-1' } as const

/** The server workloads by id (bench/lib/workloads.ts) and the connection counts of the server scenarios. */
export const WORKLOAD_IDS = ['bcc-5k', 'gp-64k', 'gp-1m'] as const
export const CONNECTIONS = [1, 10] as const
export const HANDLER_COUNTS = [1, 5, 10] as const
export const LATENCIES_MS = [0, 5, 20, 50] as const
/** The dead handlers' timeoutSeconds, in ms. */
export const DEAD_TIMEOUT_MS = 1000

/** Scenario 6: our server's footprint. */
export const FOOTPRINT_IDS = { idle: 'footprint/idle-rss', startup: 'footprint/first-answer', storm: 'footprint/after-fuzz-storm' } as const

/**
 * Scenario 7's servers of the project, all made by src/http's one builder: the extension server (compared with
 * capi-go, Cluster API's), the controller's endpoint on plain HTTP and with --metrics-secure, the conversion webhook.
 * By case key: what targets call them, and whether clients speak TLS to them.
 */
export const HOSTILE_SERVERS = {
  ours: { name: 'extension server, reference extension', tls: true },
  controller: { name: 'controller endpoint, plain HTTP', tls: false },
  'controller-secure': { name: 'controller endpoint, --metrics-secure', tls: true },
  webhook: { name: 'conversion webhook', tls: true }
} as const

/** Scenario 7's healthy clients: over keep-alive connections, or a new connection per call. */
export type HostileConnection = 'keep-alive' | 'new-connection'

/** Scenario 7: a healthy client beside hostile sockets; system is a key of HOSTILE_SERVERS, or capi-go. */
export const hostileId = (system: string, connection: HostileConnection, hostile: boolean): string =>
  `hostile/${system}/${connection}/${hostile ? 'with-1000-hostile' : 'baseline'}`
export const hostileClosedId = (system: string): string => `hostile/${system}/idle-sockets-closed`

/** Scenario 5: how many ExtensionConfigs the controller discovers. */
export const EXTENSION_CONFIG_COUNTS = [1, 100, 1000] as const
export const controllerId = (count: number): string => `controller/discover/n${count}`

/** Scenario 8: rollout impact (or the peer, each desired state once) over `clusters` Clusters. */
export const impactId = (computation: 'impact' | 'dry-run', clusters: number): string => `impact/${computation}/n${clusters}`
