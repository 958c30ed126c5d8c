// The extensions as Cluster API has them registered, with one ExtensionConfig's handlers answered by a candidate
// instead: what Cluster API would call once that ExtensionConfig points at the new version.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { CallOptions, CallResult, KubeObject, RuntimeClient } from '../client/runtime-client.js'

/** Whether a registered handler name (`<handler>.<ExtensionConfig>`) belongs to the ExtensionConfig. */
const servedBy = (handlerName: string, extensionConfig: string): boolean => handlerName.endsWith(`.${extensionConfig}`)

/** A RuntimeClient calling `candidate` for the handlers of ExtensionConfig `name`, `registered` for the others. */
export class ReplacedExtensionClient implements RuntimeClient {
  readonly #registered: RuntimeClient
  readonly #candidate: RuntimeClient
  readonly #name: string

  constructor (registered: RuntimeClient, candidate: RuntimeClient, name: string) {
    this.#registered = registered
    this.#candidate = candidate
    this.#name = name
  }

  warmUp (_extensionConfigs: readonly ExtensionConfig[]): void {}
  isReady (): boolean { return this.#registered.isReady() && this.#candidate.isReady() }
  async discover (extensionConfig: ExtensionConfig): Promise<ExtensionConfig> {
    return await (extensionConfig.metadata.name === this.#name ? this.#candidate : this.#registered).discover(extensionConfig)
  }

  register (): void {}
  unregister (): void {}

  async getAllExtensions (hook: HookDefinition, forObject: KubeObject): Promise<string[]> {
    const others = (await this.#registered.getAllExtensions(hook, forObject)).filter(n => !servedBy(n, this.#name))
    return [...others, ...await this.#candidate.getAllExtensions(hook, forObject)].sort()
  }

  /** Cluster API calls the handlers one by one in name order: the candidate's and the others' alike. */
  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    const mine = await this.#candidate.getAllExtensions(hook, forObject)
    const others = (await this.#registered.getAllExtensions(hook, forObject)).filter(n => !servedBy(n, this.#name))
    if (others.length === 0) return await this.#candidate.callAllExtensions(hook, forObject, request, options)
    if (mine.length === 0) return await this.#registered.callAllExtensions(hook, forObject, request, options)
    throw new Error(`${hook.hook}: handlers of the candidate and of other extensions both match; rollout impact compares topology hooks, called one handler at a time`)
  }

  async callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    return await (servedBy(name, this.#name) ? this.#candidate : this.#registered).callExtension(hook, forObject, name, request, options)
  }
}
