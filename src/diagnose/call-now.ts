// What a blocking hook answers now, to the request Cluster API would send: `simulate` goes on from where the live
// Cluster stands, and the only lifecycle hook it calls is the one asked about (topology hooks, which act on nothing,
// are called as Cluster API calls them, to build the request); every other lifecycle hook gets an empty Success
// without a call. Its first call is the answer.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { CallOptions, CallResult, KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { createCatalog } from '../catalog/index.js'
import { type LiveCluster, simulate, type TimelineEntry } from '../simulate/index.js'

/** The hooks that act on nothing, called to build the requests as Cluster API builds them. */
const TOPOLOGY_HOOKS = new Set(['DiscoverVariables', 'GeneratePatches', 'ValidateTopology', 'GenerateUpgradePlan'])

/** A client that calls `hook` and the topology hooks, and answers every other hook an empty Success. */
class OneHookClient implements RuntimeClient {
  readonly #client: RuntimeClient
  readonly #hook: string
  readonly #catalog = createCatalog()

  constructor (client: RuntimeClient, hook: string) {
    this.#client = client
    this.#hook = hook
  }

  warmUp (_extensionConfigs: readonly ExtensionConfig[]): void {}
  isReady (): boolean { return this.#client.isReady() }
  async discover (extensionConfig: ExtensionConfig): Promise<ExtensionConfig> { return await this.#client.discover(extensionConfig) }
  register (): void {}
  unregister (): void {}
  async getAllExtensions (hook: HookDefinition, forObject: KubeObject): Promise<string[]> { return await this.#client.getAllExtensions(hook, forObject) }

  #called (hook: HookDefinition): boolean {
    return hook.hook === this.#hook || TOPOLOGY_HOOKS.has(hook.hook)
  }

  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    if (this.#called(hook)) return await this.#client.callAllExtensions(hook, forObject, request, options)
    const entry = this.#catalog.of(hook)
    return { response: { kind: entry?.responseKind, apiVersion: entry?.apiVersion, status: 'Success' } as ResponseOf<H>, handlers: [] }
  }

  async callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    return await this.#client.callExtension(hook, forObject, name, request, options)
  }
}

/** The first call of `hook` when the live Cluster goes on from where it stands (undefined when it is not called). */
export async function callNow (live: LiveCluster, hook: string, client: RuntimeClient): Promise<TimelineEntry | undefined> {
  const result = await simulate({ client: new OneHookClient(client, hook), objects: live.objects, current: live.state, delete: false, checkDeterminism: false, maxBlockedSeconds: 0 })
  return result.timeline.find(e => e.hook === hook && e.status !== 'Event')
}
