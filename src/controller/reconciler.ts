// Reconciles one ExtensionConfig, whatever its source (Kubernetes or files): pause, CA injection from a Secret,
// discovery, status and registration, following Cluster API's core/reconcilers/extensionconfig. Differences:
// a missing CA Secret is a wait (a condition, no retry loop), and deprecated hook versions are reported.
import { codedError } from '../errors/index.js'
import { isDeepStrictEqual } from 'node:util'
import type { Condition, ExtensionConfig, ExtensionConfigStatus, V1Beta1Condition } from '../api/extension-config/types.js'
import {
  CONDITION_DEPRECATED_HOOKS, CONDITION_DISCOVERED, CONDITION_PAUSED, DISCOVERY_ERROR_PREFIX, INJECT_CA_FROM_SECRET_ANNOTATION,
  PAUSED_ANNOTATION, PAUSED_MESSAGE, REASON_DEPRECATED_HOOKS, REASON_DISCOVERED, REASON_DISCOVERY_FAILED, REASON_INVALID_CA_SECRET_REFERENCE,
  REASON_NOT_DISCOVERED, REASON_NOT_PAUSED, REASON_PAUSED, REASON_WAITING_FOR_CA_SECRET
} from '../api/extension-config/constants.js'
import type { HttpRuntimeClient } from '../client/client.js'
import { findCondition, removeCondition, setCondition } from './conditions.js'
import { describeProblem, hookVersionProblems } from './preflight.js'
import type { ExtensionConfigSource } from './source.js'
import { ATTRIBUTES, endSpan, tracer } from '../telemetry/trace.js'

/** Where reconciled ExtensionConfigs are registered (the controller buffers them until warm-up). */
export interface RegistrySink {
  register: (ec: ExtensionConfig) => void
  unregister: (name: string) => void
}

/**
 * What a reconcile of an ExtensionConfig came to: `discovered` (its extension was discovered, status written, handlers
 * registered), `registered` (read-only: the handlers another controller discovered were registered), `not-ready`
 * (read-only: not discovered at its current generation yet), `waiting` (for its CA Secret), `paused` (it has the
 * paused annotation) or `removed` (it is gone or being deleted: its handlers were unregistered).
 */
export type ReconcileOutcome = 'removed' | 'paused' | 'waiting' | 'discovered' | 'registered' | 'not-ready'

interface ReconcileResult {
  outcome: ReconcileOutcome
  /** message explains a wait or why a read-only registration is not possible yet. */
  message?: string
  /** dependency is the `<namespace>/<name>` of the CA Secret the object waits for. */
  dependency?: string
}

/** A discovery error: the status says so; the caller retries with backoff. */
export class DiscoveryError extends codedError('ERR_RUNTIME_SDK_DISCOVERY') {}

interface ReconcilerOptions {
  source: ExtensionConfigSource
  client: HttpRuntimeClient
  sink: RegistrySink
  now?: () => Date
}

type CABundle = { caBundle?: string } | { wait: { reason: string, message: string, dependency?: string } }

export class Reconciler {
  readonly #source: ExtensionConfigSource
  readonly #client: HttpRuntimeClient
  readonly #sink: RegistrySink
  readonly #now: () => Date

  constructor (options: ReconcilerOptions) {
    this.#source = options.source
    this.#client = options.client
    this.#sink = options.sink
    this.#now = options.now ?? (() => new Date())
  }

  /** Discovers the extension, writes status and registers its handlers (the leader's work), as one span. */
  async reconcile (name: string): Promise<ReconcileResult> {
    return await tracer.startActiveSpan('reconcile ExtensionConfig', { attributes: { [ATTRIBUTES.extensionConfig]: name } }, async span => {
      try {
        const result = await this.#reconcile(name)
        span.setAttribute('runtime_sdk.reconcile.outcome', result.outcome)
        endSpan(span)
        return result
      } catch (err) {
        endSpan(span, (err as Error).message)
        throw err
      }
    })
  }

  async #reconcile (name: string): Promise<ReconcileResult> {
    const ec = await this.#source.get(name)
    if (!ec || ec.metadata.deletionTimestamp) {
      this.#sink.unregister(name)
      return { outcome: 'removed' }
    }
    const generation = ec.metadata.generation ?? 0
    let status = structuredClone(ec.status ?? {}) as ExtensionConfigStatus
    const paused = isPaused(ec)
    status.conditions = setCondition<Condition>(status.conditions, paused
      ? { type: CONDITION_PAUSED, status: 'True', reason: REASON_PAUSED, message: PAUSED_MESSAGE, observedGeneration: generation }
      : { type: CONDITION_PAUSED, status: 'False', reason: REASON_NOT_PAUSED, message: '', observedGeneration: generation }, this.#now)
    if (paused) {
      await this.#writeStatus(ec, status)
      return { outcome: 'paused' }
    }

    const ca = await this.#caBundle(ec)
    if ('wait' in ca) {
      status = this.#discovered(status, generation, false, ca.wait.reason, ca.wait.message, 'Info')
      await this.#writeStatus(ec, status)
      return { outcome: 'waiting', message: ca.wait.message, ...(ca.wait.dependency ? { dependency: ca.wait.dependency } : {}) }
    }
    let current = ec
    if (ca.caBundle !== undefined && ca.caBundle !== ec.spec.clientConfig.caBundle) {
      current = await this.#source.updateCABundle(ec, ca.caBundle)
    }
    const currentGeneration = current.metadata.generation ?? generation
    status.conditions = status.conditions?.map(c => c.type === CONDITION_PAUSED ? { ...c, observedGeneration: currentGeneration } : c)

    let discovered: ExtensionConfig
    try {
      discovered = await this.#client.discover(current)
    } catch (err) {
      const message = `${DISCOVERY_ERROR_PREFIX}${(err as Error).message}`
      await this.#writeStatus(current, this.#discovered(status, currentGeneration, false, REASON_NOT_DISCOVERED, message, 'Error'))
      throw new DiscoveryError(message)
    }
    status.handlers = discovered.status?.handlers ?? []
    status = this.#discovered(status, currentGeneration, true, REASON_DISCOVERED, '')
    const problems = hookVersionProblems(this.#client.catalog, status.handlers)
    status.conditions = problems.length > 0
      ? setCondition<Condition>(status.conditions, {
        type: CONDITION_DEPRECATED_HOOKS, status: 'True', reason: REASON_DEPRECATED_HOOKS, message: problems.map(describeProblem).join('; '), observedGeneration: currentGeneration
      }, this.#now)
      : removeCondition(status.conditions, CONDITION_DEPRECATED_HOOKS)
    const written = await this.#writeStatus(current, status)
    this.#sink.register(written)
    return { outcome: 'discovered' }
  }

  /** Registers what another controller discovered (read-only mode and standby replicas): no writes, no calls. */
  async register (name: string): Promise<ReconcileResult> {
    const ec = await this.#source.get(name)
    if (!ec || ec.metadata.deletionTimestamp) {
      this.#sink.unregister(name)
      return { outcome: 'removed' }
    }
    if (findCondition(ec.status?.conditions, CONDITION_PAUSED)?.status === 'True') return { outcome: 'paused' }
    const discovered = findCondition(ec.status?.conditions, CONDITION_DISCOVERED)
    if (discovered?.status !== 'True' || discovered.observedGeneration !== ec.metadata.generation) {
      return { outcome: 'not-ready', message: `ExtensionConfig ${name} has not been discovered at generation ${ec.metadata.generation ?? 0}` }
    }
    this.#sink.register(ec)
    return { outcome: 'registered' }
  }

  async #caBundle (ec: ExtensionConfig): Promise<CABundle> {
    const ref = ec.metadata.annotations?.[INJECT_CA_FROM_SECRET_ANNOTATION]
    if (ref === undefined) return {}
    const slash = ref.indexOf('/')
    const namespace = ref.slice(0, slash)
    const secretName = ref.slice(slash + 1)
    if (slash < 0 || namespace === '' || secretName === '') {
      return { wait: { reason: REASON_INVALID_CA_SECRET_REFERENCE, message: `secret name ${JSON.stringify(ref)} must be in the form <namespace>/<name>` } }
    }
    const dependency = `${namespace}/${secretName}`
    const data = await this.#source.getSecret(namespace, secretName)
    if (!data) return { wait: { reason: REASON_WAITING_FOR_CA_SECRET, message: `waiting for secret ${dependency} to exist`, dependency } }
    const caBundle = data['ca.crt']
    if (!caBundle) return { wait: { reason: REASON_WAITING_FOR_CA_SECRET, message: `secret ${dependency} does not contain a "ca.crt" entry`, dependency } }
    return { caBundle }
  }

  #discovered (status: ExtensionConfigStatus, generation: number, ok: boolean, reason: string, message: string, severity?: string): ExtensionConfigStatus {
    const conditions = setCondition<Condition>(status.conditions, {
      type: CONDITION_DISCOVERED, status: ok ? 'True' : 'False', reason, message, observedGeneration: generation
    }, this.#now)
    const legacy = setCondition<V1Beta1Condition>(status.deprecated?.v1beta1?.conditions, ok
      ? { type: CONDITION_DISCOVERED, status: 'True' }
      : { type: CONDITION_DISCOVERED, status: 'False', reason: reason === REASON_NOT_DISCOVERED ? REASON_DISCOVERY_FAILED : reason, severity: severity ?? 'Error', message }, this.#now)
    return { ...status, conditions, deprecated: { ...status.deprecated, v1beta1: { ...status.deprecated?.v1beta1, conditions: legacy } } }
  }

  /** Writes status when it changed; the source's answer carries the new resourceVersion. */
  async #writeStatus (ec: ExtensionConfig, status: ExtensionConfigStatus): Promise<ExtensionConfig> {
    if (isDeepStrictEqual(ec.status ?? {}, status)) return ec
    return await this.#source.updateStatus(ec, status)
  }
}

function isPaused (ec: ExtensionConfig): boolean {
  return ec.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined
}
