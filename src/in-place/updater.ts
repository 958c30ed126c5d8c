// UpdateMachine as Cluster API drives it: it calls the hook again and again (after each answer's retryAfterSeconds)
// until an answer says done (retryAfterSeconds 0). The update runs in the background, one per Machine and desired
// state: the first call starts it, later calls find it in progress (never started twice) and report its progress;
// once it ended, calls for the same desired state answer done (a call retried after a lost answer does not update
// again), and a failure is answered once (Cluster API's Failure answer, with the message), so that Cluster API's
// next call tries again. An update that runs past its deadline is cancelled through its signal.
import { createHash } from 'node:crypto'
import type { UpdateMachineRequest } from '../api/hooks/v1alpha1/types.generated.js'
import { isJsonObject } from '../topology/json.js'

/** What an update gets: the desired objects, a signal that aborts at its deadline, and a way to say how far it got. */
export interface UpdateContext {
  /** signal aborts when the update runs past its deadline (`deadlineSeconds`). */
  signal: AbortSignal
  /** progress sets the message the in-progress answers carry. */
  progress: (message: string) => void
}

/** The objects an update is asked to reach: the Machine, its bootstrap config and infrastructure machine as desired. */
export type DesiredMachine = NonNullable<UpdateMachineRequest['desired']>

/** Performs the update of one Machine; resolves when it is done, rejects (with the message Cluster API shows) when it failed. */
export type UpdateFunction = (desired: DesiredMachine, ctx: UpdateContext) => Promise<void>

/** What UpdateMachine answers now. */
type UpdateAnswer =
  | { state: 'in progress', message: string }
  | { state: 'done', message: string }
  | { state: 'failed', message: string }

/** How many Machines' updates are remembered, running or done. */
const MAX_TRACKED = 10_000

interface Running {
  digest: string
  message: string
  outcome?: { ok: true } | { ok: false, message: string }
  abort: AbortController
  timer: NodeJS.Timeout
}

/** The Machine an UpdateMachine request is about, and a digest of what it should become. */
function keyOf (desired: DesiredMachine): { machine: string, digest: string } {
  const meta = desired.machine?.metadata
  const digest = createHash('sha256').update(JSON.stringify([desired.machine?.spec, specOf(desired.bootstrapConfig), specOf(desired.infrastructureMachine)])).digest('hex')
  return { machine: `${meta?.namespace ?? ''}/${meta?.name ?? ''}`, digest }
}

const specOf = (o: unknown) => isJsonObject(o) ? o['spec'] : undefined

/** The updates in flight, by Machine. */
export class MachineUpdates {
  readonly #running = new Map<string, Running>()
  readonly #update: UpdateFunction
  readonly #deadlineMs: number

  constructor (update: UpdateFunction, options: { deadlineSeconds?: number } = {}) {
    this.#update = update
    this.#deadlineMs = (options.deadlineSeconds ?? 600) * 1000
  }

  /** How the update of the Machine stands; starts it when none runs for this desired state. */
  answer (desired: DesiredMachine): UpdateAnswer {
    const { machine, digest } = keyOf(desired)
    let running = this.#running.get(machine)
    if (running && running.digest !== digest && running.outcome) {
      this.#forget(machine)
      running = undefined
    }
    running ??= this.#start(machine, digest, desired)
    if (!running.outcome) return { state: 'in progress', message: running.message }
    if (running.outcome.ok) return { state: 'done', message: `updated Machine ${machine} in place` }
    this.#forget(machine)
    return { state: 'failed', message: running.outcome.message }
  }

  #start (machine: string, digest: string, desired: DesiredMachine): Running {
    const abort = new AbortController()
    const running: Running = {
      digest,
      message: `updating Machine ${machine} in place`,
      abort,
      timer: setTimeout(() => abort.abort(new Error(`the update of Machine ${machine} did not finish within ${this.#deadlineMs / 1000}s`)), this.#deadlineMs).unref()
    }
    if (this.#running.size >= MAX_TRACKED) this.#forgetOldestDone()
    this.#running.set(machine, running)
    const progress = (message: string) => { running.message = message }
    // Called now, so that what it reports before its first await is in the first answer.
    let update: Promise<void>
    try {
      update = Promise.resolve(this.#update(desired, { signal: abort.signal, progress }))
    } catch (err) {
      update = Promise.reject(err)
    }
    update.then(
      () => { running.outcome = { ok: true } },
      (err: unknown) => { running.outcome = { ok: false, message: abort.signal.aborted ? String((abort.signal.reason as Error).message) : (err as Error)?.message ?? String(err) } }
    ).finally(() => clearTimeout(running.timer))
    return running
  }

  /** Keeps the memory bounded: the longest-known finished update is forgotten. */
  #forgetOldestDone (): void {
    for (const [machine, running] of this.#running) {
      if (running.outcome) {
        this.#forget(machine)
        return
      }
    }
  }

  #forget (machine: string): void {
    const running = this.#running.get(machine)
    if (!running) return
    clearTimeout(running.timer)
    if (!running.outcome) running.abort.abort(new Error('cancelled'))
    this.#running.delete(machine)
  }
}
