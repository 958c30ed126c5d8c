// The responses file of the reference extension: per lifecycle hook, the answer to give, so that a user can
// make a hook block (retryAfterSeconds > 0) or fail, and later release it by editing the file; GeneratePatches
// answers a preset Failure instead of its patches.
//
//   # responses.yaml (JSON works too; keys are matched case-insensitively, like Go's decoder does)
//   BeforeClusterUpgrade: { status: Success, message: waiting for approval, retryAfterSeconds: 10 }
//   BeforeClusterDelete: { status: Failure, message: deletion is disabled }
//   GeneratePatches: { status: Failure, message: patches are frozen }
//
// The file is checked on every call and re-read when its modification time or size changed.
import { readFile, stat } from 'node:fs/promises'
import { HookError } from '../server/errors.js'

export interface PresetResponse {
  status: 'Success' | 'Failure'
  message?: string
  retryAfterSeconds?: number
}

export class ResponsesFile {
  #stamp = ''
  #responses = new Map<string, PresetResponse>()
  #error: string | undefined

  constructor (readonly path: string) {}

  /** The preset response for a hook, undefined when the file has none; throws when the file is unusable. */
  async get (hook: string): Promise<PresetResponse | undefined> {
    await this.#refresh()
    if (this.#error) throw new Error(this.#error)
    return this.#responses.get(hook.toLowerCase())
  }

  async #refresh (): Promise<void> {
    let stamp: string
    try {
      const s = await stat(this.path)
      stamp = `${s.mtimeMs}:${s.size}:${s.ino}`
    } catch {
      // No file (yet): every hook answers the default.
      this.#stamp = ''
      this.#responses = new Map()
      this.#error = undefined
      return
    }
    if (stamp === this.#stamp) return
    this.#stamp = stamp
    try {
      const { parse } = await import('yaml')
      this.#responses = parseResponses(parse(await readFile(this.path, 'utf8')) as unknown)
      this.#error = undefined
    } catch (err) {
      this.#error = `responses file ${this.path} is not valid: ${(err as Error).message.split('\n')[0]}`
    }
  }
}

export function parseResponses (document: unknown): Map<string, PresetResponse> {
  const responses = new Map<string, PresetResponse>()
  if (document === null || document === undefined) return responses
  if (typeof document !== 'object' || Array.isArray(document)) throw new Error('must map hook names to responses')
  for (const [hook, value] of Object.entries(document)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${hook}: must be an object with status, message and retryAfterSeconds`)
    const fields = new Map(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v as unknown]))
    const status = fields.get('status') ?? 'Success'
    const message = fields.get('message')
    const retryAfterSeconds = fields.get('retryafterseconds') ?? 0
    if (status !== 'Success' && status !== 'Failure') throw new Error(`${hook}.status: must be "Success" or "Failure"`)
    if (message !== undefined && typeof message !== 'string') throw new Error(`${hook}.message: must be a string`)
    if (typeof retryAfterSeconds !== 'number' || !Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0 || retryAfterSeconds > 2 ** 31 - 1) {
      throw new Error(`${hook}.retryAfterSeconds: must be a non-negative 32-bit integer`)
    }
    responses.set(hook.toLowerCase(), { status, ...(message !== undefined ? { message } : {}), retryAfterSeconds })
  }
  return responses
}

/** The preset answer of a hook, if the file has one; a file that cannot be read fails the call with why. */
export async function presetFor (responses: ResponsesFile | undefined, hook: string): Promise<PresetResponse | undefined> {
  try {
    return await responses?.get(hook)
  } catch (err) {
    throw new HookError((err as Error).message)
  }
}
