// A budget of time and memory for one piece of work: each Cluster that simulate, rollout-impact and held compute.
// A Cluster's class and variables are written by others; one that would compute forever, or fill the heap, must
// cost its own line (`could not be computed: ...`) and leave the other Clusters alone.
//
// Evaluation is synchronous JavaScript on the main thread, which nothing can interrupt from outside, so the budget
// is checked from inside: the evaluators' loops (Go template execution, CEL, YAML decoding, schema checks, patch
// application) call spend(), which counts down and looks at the clock and the heap every CHECK_EVERY steps (a
// decrement on the hot path; the check itself takes a few microseconds). What is counted is the work's own processor
// time and heap growth: its budget travels with it through its awaits (AsyncLocalStorage), and async hooks, enabled
// only while some budget runs, note when it runs and when it waits (a simulated Cluster's life is some 600 slices),
// so that Clusters computed concurrently are each charged for their own slices, not for the time a hostile neighbour
// held the thread, nor for the extensions' and the API server's answers (which have timeouts of their own), nor for
// the time other processes of a busy machine took the processor.
// Why not a worker thread per Cluster, which could be terminated and given resourceLimits: measured on 2 cores, a
// worker needs 630-1150 ms to start and load the simulation modules, more than computing a typical Cluster takes,
// and the work of a Cluster calls the extensions through the caller's RuntimeClient and reads through the caller's
// ApiReader, objects a worker cannot share. What a check cannot cut is one long step (a regular expression over a
// multi-megabyte string, parsing a multi-megabyte YAML document): linear in its input, which the API server bounds;
// such steps spend in proportion to their input, so the check comes right after them.
import { AsyncLocalStorage, createHook } from 'node:async_hooks'
import { getHeapStatistics } from 'node:v8'
import { codedError } from '../errors/index.js'
import { durationString } from '../go/time.js'

/** The time and memory one piece of work may take. */
export interface Budget {
  /** timeoutMs is how long it may run (its own processor time: not waiting for answers); 0: no limit. */
  timeoutMs: number
  /** memoryBytes is how much the heap may grow while it runs (net of what the garbage collector frees); 0: no limit. */
  memoryBytes: number
}

/** The default per Cluster: far above what a Cluster takes (under a second, tens of MB), far below a stall. */
export const DEFAULT_CLUSTER_BUDGET: Budget = { timeoutMs: 30_000, memoryBytes: 512 * 1024 * 1024 }

/** The work went over its budget; message is the one line to report, e.g. `could not be computed: took longer than 1m0s`. */
export class BudgetExceeded extends codedError('ERR_RUNTIME_SDK_BUDGET_EXCEEDED') {}

interface Running {
  budget: Budget
  /** spentMs and grownBytes are what the work's finished slices took. */
  spentMs: number
  grownBytes: number
  /** slice is where the running slice started, in processor time (ms) and heap (depth counts nested callbacks). */
  slice?: { start: number, heap: number }
  depth: number
  exceeded?: BudgetExceeded
}

const storage = new AsyncLocalStorage<Running>()
const CHECK_EVERY = 1000
let countdown = CHECK_EVERY

const heapUsed = (): number => getHeapStatistics().used_heap_size

/** The processor time the process has used, in milliseconds. */
function cpuMs (): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

function resume (running: Running): void {
  if (running.depth++ === 0) running.slice = { start: cpuMs(), heap: heapUsed() }
}

function suspend (running: Running): void {
  if (--running.depth > 0 || running.slice === undefined) return
  running.spentMs += cpuMs() - running.slice.start
  running.grownBytes += heapUsed() - running.slice.heap
  running.slice = undefined
}

// Which work each callback resumes, innermost last (undefined for callbacks outside any budget).
const resumed: Array<Running | undefined> = []
const slices = createHook({
  before: () => {
    const running = storage.getStore()
    resumed.push(running)
    if (running) resume(running)
  },
  after: () => {
    const running = resumed.pop()
    if (running) suspend(running)
  }
})
let budgetsRunning = 0

/** `536870912` -> `512Mi`. */
export function quantity (bytes: number): string {
  for (const [unit, size] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`
  return String(bytes)
}

function exceed (running: Running, why: string): BudgetExceeded {
  running.exceeded ??= new BudgetExceeded(`could not be computed: ${why}`)
  return running.exceeded
}

function check (running: Running): void {
  if (running.exceeded) throw running.exceeded
  const { budget, slice } = running
  const spent = running.spentMs + (slice ? cpuMs() - slice.start : 0)
  if (budget.timeoutMs > 0 && spent > budget.timeoutMs) throw exceed(running, `took longer than ${durationString(BigInt(Math.round(budget.timeoutMs * 1e6)))}`)
  const grown = running.grownBytes + (slice ? heapUsed() - slice.heap : 0)
  if (budget.memoryBytes > 0 && grown > budget.memoryBytes) throw exceed(running, `used more than ${quantity(budget.memoryBytes)} of memory`)
}

/**
 * Counts steps of work (one by default; a step over a large input may count more) against the budget of the work
 * running, if any; throws BudgetExceeded once it is spent. Cheap enough for the innermost loops.
 */
export function spend (steps = 1): void {
  countdown -= steps
  if (countdown > 0) return
  countdown = CHECK_EVERY
  const running = storage.getStore()
  if (running) check(running)
}

/** Runs work within a budget: its result, or BudgetExceeded when its own time or heap growth went over. */
export async function withBudget<T> (budget: Budget, work: () => Promise<T>): Promise<T> {
  if (budget.timeoutMs <= 0 && budget.memoryBytes <= 0) return await work()
  const running: Running = { budget, spentMs: 0, grownBytes: 0, depth: 0 }
  if (budgetsRunning++ === 0) slices.enable()
  try {
    // The work's first slice runs now, up to its first await.
    resume(running)
    let done: Promise<T>
    try {
      done = storage.run(running, work)
    } finally {
      suspend(running)
    }
    return await done
  } finally {
    if (--budgetsRunning === 0) slices.disable()
  }
}

/** Whether an error is a spent budget: such an error is never turned into a message of the work, it ends it. */
export const isBudgetExceeded = (err: unknown): err is BudgetExceeded => err instanceof BudgetExceeded
