// Polls a condition until it holds; the failure names what was awaited.
import { setTimeout as sleep } from 'node:timers/promises'

export interface WaitOptions {
  timeoutMs?: number
  intervalMs?: number
  /** message names what was awaited, for the timeout error. */
  message?: string
}

export async function waitFor<T> (check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  let lastError: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined && value !== false) return value
    } catch (err) {
      lastError = err
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting: ${options.message ?? 'condition'}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`)
    }
    await sleep(options.intervalMs ?? 20)
  }
}
