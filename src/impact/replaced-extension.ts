// The extensions as Cluster API has them registered, with one ExtensionConfig's handlers answered by a candidate
// instead: what Cluster API would call once that ExtensionConfig points at the new version. The candidate gets what
// the ExtensionConfig gives its handlers: its settings in every request, and only the namespaces it selects.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { CallOptions, CallResult, KubeObject, RuntimeClient } from '../client/runtime-client.js'

/** Whether a registered handler name (`<handler>.<ExtensionConfig>`) belongs to the ExtensionConfig. */
const servedBy = (handlerName: string, extensionConfig: string): boolean => handlerName.endsWith(`.${extensionConfig}`)

/** What the ExtensionConfig the candidate answers for gives its handlers. */
export interface ReplacedExtensionConfig {
  /** settings are the ExtensionConfig's spec.settings, sent in every request. */
  settings?: Readonly<Record<string, string>>
  /** serves says whether its namespaceSelector selects the namespace of the object a hook is called for. */
  serves?: (forObject: KubeObject) => boolean | Promise<boolean>
}

/** A RuntimeClient calling `candidate` for the handlers of ExtensionConfig `name`, `registered` for the others. */
export class ReplacedExtensionClient implements RuntimeClient {
  readonly #registered: RuntimeClient
  readonly #candidate: RuntimeClient
  readonly #name: string
  readonly #config: ReplacedExtensionConfig

  constructor (registered: RuntimeClient, candidate: RuntimeClient, name: string, config: ReplacedExtensionConfig = {}) {
    this.#registered = registered
    this.#candidate = candidate
    this.#name = name
    this.#config = config
  }

  /** The candidate's handlers of a hook for the object: none where the ExtensionConfig does not select it. */
  async #candidateHandlers (hook: HookDefinition, forObject: KubeObject): Promise<string[]> {
    if (this.#config.serves && !await this.#config.serves(forObject)) return []
    return await this.#candidate.getAllExtensions(hook, forObject)
  }

  /** The request with the ExtensionConfig's settings, as Cluster API sends them. */
  #withSettings<R> (request: R): R {
    return this.#config.settings ? { ...request, settings: { ...this.#config.settings } } : request
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
    return [...others, ...await this.#candidateHandlers(hook, forObject)].sort()
  }

  /** Cluster API calls the handlers one by one in name order: the candidate's and the others' alike. */
  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    const mine = await this.#candidateHandlers(hook, forObject)
    const others = (await this.#registered.getAllExtensions(hook, forObject)).filter(n => !servedBy(n, this.#name))
    if (others.length === 0) return await this.#candidate.callAllExtensions(hook, forObject, this.#withSettings(request), options)
    if (mine.length === 0) return await this.#registered.callAllExtensions(hook, forObject, request, options)
    throw new Error(`${hook.hook}: handlers of the candidate and of other extensions both match; rollout impact compares topology hooks, called one handler at a time`)
  }

  async callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>> {
    if (servedBy(name, this.#name)) return await this.#candidate.callExtension(hook, forObject, name, this.#withSettings(request), options)
    return await this.#registered.callExtension(hook, forObject, name, request, options)
  }
}
