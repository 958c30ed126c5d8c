// A candidate extension given as a recording of its traffic (`serve --record`): each call is answered with the
// answer it gave to the same request (settings compared redacted, as recorded). A request it never answered is an
// error that says so: the recording cannot tell what the candidate would do.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { parseApiVersion } from '../catalog/identity.js'
import { RuntimeCallError } from '../client/errors.js'
import { answeredOutcome } from '../client/outcomes.js'
import type { CallResult, KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { stableJson } from '../client/wire.js'
import { redactRequest, type RecordedCall } from '../server/recording.js'

/** The part of a request that identifies it: without kind and apiVersion (versions convert), settings redacted. */
function requestKey (hook: string, handler: string, request: unknown): string {
  const { kind: _k, apiVersion: _a, ...rest } = (redactRequest(request) ?? {}) as Record<string, unknown>
  return `${hook} ${handler} ${stableJson(rest)}`
}

/** Answers calls for ExtensionConfig `name` from a recording of the candidate. */
export class RecordedRuntimeClient implements RuntimeClient {
  readonly #answers = new Map<string, unknown>()
  readonly #handlers = new Map<string, Set<string>>()
  readonly #versions = new Map<string, string>()
  readonly #name: string

  constructor (calls: readonly RecordedCall[], name: string) {
    this.#name = name
    for (const call of calls) {
      if (call.handler === '') continue
      this.#versions.set(call.hook, call.apiVersion)
      this.#answers.set(requestKey(call.hook, call.handler, call.request), call.response)
      const handlers = this.#handlers.get(call.hook) ?? new Set()
      handlers.add(`${call.handler}.${name}`)
      this.#handlers.set(call.hook, handlers)
    }
  }

  warmUp (): void {}
  isReady (): boolean { return true }
  register (): void {}
  unregister (): void {}
  async discover (extensionConfig: ExtensionConfig): Promise<ExtensionConfig> { return extensionConfig }

  async getAllExtensions (hook: HookDefinition): Promise<string[]> {
    return [...this.#handlers.get(hook.hook) ?? []].sort()
  }

  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const [name, ...more] = await this.getAllExtensions(hook)
    if (name === undefined || more.length > 0) throw new RuntimeCallError(`${hook.hook}: the recording holds ${more.length + (name ? 1 : 0)} handlers of it; a recorded candidate answers one`)
    return await this.callExtension(hook, forObject, name, request)
  }

  async callExtension<H extends HookDefinition> (hook: H, _forObject: KubeObject, name: string, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const handler = name.slice(0, -(this.#name.length + 1))
    const response = this.#answers.get(requestKey(hook.hook, handler, request))
    if (response === undefined) throw new RuntimeCallError(`failed to call extension handler "${name}": the recording holds no answer to this ${hook.hook} request: record the candidate while it serves this Cluster`)
    const outcome = answeredOutcome({ name, gvh: { ...parseApiVersion(this.#versions.get(hook.hook) ?? ''), hook: hook.hook } }, response as Record<string, unknown>, 0)
    if (outcome.error) throw new RuntimeCallError(`failed to call extension handler "${name}": ${outcome.error}`, [outcome])
    return { response: response as ResponseOf<H>, handlers: [outcome] }
  }
}
