// The timeline of a simulation: every hook call as Cluster API would make it, at the virtual time it would make it,
// with its request and the answer of each handler; and the checks the conformance suite makes on each answer (the
// same request answered twice alike, a sensible retryAfterSeconds, no stack trace in a message).
import { spend } from '../budget/index.js'
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { Catalog } from '../catalog/catalog.js'
import { RuntimeCallError } from '../client/errors.js'
import { catalogHook } from '../client/outcomes.js'
import type { CallResult, HandlerOutcome, KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { MAX_RETRY_AFTER_SECONDS } from '../conformance/cases/behaviour.js'
import { findStackTrace } from '../conformance/stack-trace.js'

/** One line of the timeline: a handler's answer to a hook call, or what happened to the cluster (hook ''). */
export interface TimelineEntry {
  /** at is the virtual time, in seconds since the simulation started. */
  at: number
  /** hook is the hook called, e.g. BeforeClusterCreate; empty for the cluster's own steps. */
  hook: string
  /** handler is the registered handler name; empty for an event or a hook no handler implements. */
  handler: string
  /** status: the handler's Success or Failure, `Error` for a call that failed on the way, `Event` for the cluster's own steps. */
  status: string
  /** retryAfterSeconds is the answer's, when it asks to be called again. */
  retryAfterSeconds?: number
  /** message is the answer's message, or what happened. */
  message?: string
  /** step says what the call is for, e.g. `patch reference` or `upgrade to v1.35.0`. */
  step?: string
  /** request is the request as sent. */
  request?: Record<string, unknown>
  /** response is the answer as received. */
  response?: Record<string, unknown>
}

/** A hook failed, blocked too long, answered inconsistently, or a patch did not apply: the simulation stops (exit 1). */
export class SimulationFailure extends Error {}

/** How the simulation calls hooks. */
export interface HookCaller {
  /** Calls the handler the ClusterClass names (GeneratePatches, ValidateTopology, DiscoverVariables, GenerateUpgradePlan). */
  callExtension: <H extends HookDefinition>(hook: H, name: string, request: Omit<RequestOf<H>, 'kind' | 'apiVersion'>, step?: string, forObject?: KubeObject) => Promise<ResponseOf<H>>
  /** Calls every handler of a lifecycle hook; undefined when none implements it (Cluster API goes on). */
  callAll: <H extends HookDefinition>(hook: H, request: Omit<RequestOf<H>, 'kind' | 'apiVersion'>, step?: string) => Promise<ResponseOf<H> | undefined>
}

/** A HookCaller over a RuntimeClient that records the timeline and checks every answer. */
export class Recorder implements HookCaller {
  readonly entries: TimelineEntry[] = []
  /** warnings: answers Cluster API takes but should not get (a stack trace, a long retry). */
  readonly warnings: string[] = []
  /** calls counts every handler call made, the determinism checks' second calls included. */
  calls = 0
  readonly #client: RuntimeClient
  readonly #forObject: () => KubeObject
  readonly #now: () => number
  readonly #checkDeterminism: boolean
  readonly #catalog: Catalog

  constructor (client: RuntimeClient, options: { catalog: Catalog, forObject: () => KubeObject, now: () => number, checkDeterminism: boolean }) {
    this.#client = client
    this.#catalog = options.catalog
    this.#forObject = options.forObject
    this.#now = options.now
    this.#checkDeterminism = options.checkDeterminism
  }

  /** Records a step of the cluster's own (no hook call). */
  event (what: string, message: string): void {
    this.entries.push({ at: this.#now(), hook: '', handler: '', status: 'Event', step: what, message })
  }

  /** `forObject` is the object whose namespace is matched (default: the Cluster; DiscoverVariables: the ClusterClass). */
  async callExtension<H extends HookDefinition> (hook: H, name: string, request: Omit<RequestOf<H>, 'kind' | 'apiVersion'>, step?: string, forObject?: KubeObject): Promise<ResponseOf<H>> {
    const call = async () => await this.#client.callExtension(hook, forObject ?? this.#forObject(), name, request as RequestOf<H>)
    const result = await this.#run(hook, request, step, call)
    return result.response
  }

  /** The registered handlers of a hook for the Cluster. */
  async handlersOf (hook: HookDefinition): Promise<string[]> {
    return await this.#client.getAllExtensions(hook, this.#forObject())
  }

  async callAll<H extends HookDefinition> (hook: H, request: Omit<RequestOf<H>, 'kind' | 'apiVersion'>, step?: string): Promise<ResponseOf<H> | undefined> {
    if ((await this.#client.getAllExtensions(hook, this.#forObject())).length === 0) return undefined
    const call = async () => await this.#client.callAllExtensions(hook, this.#forObject(), request as RequestOf<H>)
    return (await this.#run(hook, request, step, call)).response
  }

  async #run<R> (hook: HookDefinition, request: unknown, step: string | undefined, call: () => Promise<CallResult<R>>): Promise<CallResult<R>> {
    spend()
    const entry = catalogHook(this.#catalog, hook)
    // A copy: the patch engine goes on changing the templates it sent.
    const wire = structuredClone({ kind: entry.requestKind, apiVersion: entry.apiVersion, ...(request as Record<string, unknown>) })
    const name = entry.gvh.hook
    const first = await this.#attempt(call)
    this.#record(name, wire, step, first.handlers)
    if (first.error) throw new SimulationFailure(`${name}${step ? ` (${step})` : ''}: ${first.error.message}`)
    if (this.#checkDeterminism) {
      const again = await this.#attempt(call)
      const changed = first.handlers.map((h, i) => [h, again.handlers[i]] as const).find(([a, b]) => !b || a.status !== b.status || (a.message ?? '') !== (b.message ?? ''))
      if (changed) {
        const [a, b] = changed
        throw new SimulationFailure(`${name} ${a.name}${step ? ` (${step})` : ''} answered the same request twice differently: ${describe(a)}, then ${b ? describe(b) : 'no answer'}; Cluster API calls a hook again and again and requires the same message for the same request (a changing message makes reconcile storms)`)
      }
    }
    return first.result as CallResult<R>
  }

  async #attempt<R> (call: () => Promise<CallResult<R>>): Promise<{ handlers: HandlerOutcome[], result?: CallResult<R>, error?: RuntimeCallError }> {
    try {
      const result = await call()
      this.calls += result.handlers.length
      return { handlers: result.handlers, result }
    } catch (err) {
      if (!(err instanceof RuntimeCallError)) throw err
      this.calls += err.handlers.length
      return { handlers: err.handlers, error: err }
    }
  }

  #record (hook: string, request: Record<string, unknown>, step: string | undefined, handlers: readonly HandlerOutcome[]): void {
    for (const h of handlers) {
      const retry = h.retryAfterSeconds ?? (typeof h.response?.['retryAfterSeconds'] === 'number' ? h.response['retryAfterSeconds'] : undefined)
      this.entries.push({
        at: this.#now(),
        hook,
        handler: h.name,
        status: h.outcome === 'success' || h.outcome === 'failure' ? String(h.status) : h.outcome === 'ignored' ? 'Ignored' : 'Error',
        ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
        ...(h.error !== undefined && h.outcome !== 'failure' ? { message: h.error } : h.message !== undefined ? { message: h.message } : {}),
        ...(step ? { step } : {}),
        request,
        ...(h.response ? { response: h.response } : {})
      })
      this.#check(hook, h, retry)
    }
  }

  #check (hook: string, h: HandlerOutcome, retry: number | undefined): void {
    const found = h.message ? findStackTrace(h.message) : undefined
    if (found) this.#warn(`${hook} ${h.name}: the message carries ${found.kind}; Cluster API shows messages in the Cluster's conditions`)
    if (retry !== undefined && retry > MAX_RETRY_AFTER_SECONDS) this.#warn(`${hook} ${h.name}: retryAfterSeconds ${retry} is more than ${MAX_RETRY_AFTER_SECONDS} (24 h, how long Cluster API remembers a blocking answer)`)
    if (retry !== undefined && retry > 0 && h.status === 'Failure') this.#warn(`${hook} ${h.name}: a Failure answer has retryAfterSeconds ${retry}; Cluster API reports the failure and does not wait`)
  }

  #warn (text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text)
  }
}

function describe (h: HandlerOutcome): string {
  return `${h.status ?? h.outcome}${h.message ? ` ${JSON.stringify(h.message)}` : ''}`
}
