// Recording of the hook calls an extension server answers, for `runtime-sdk replay`: one JSON line per call (the
// request as received and the answer as sent), settings values redacted as everywhere else in runtime-sdk (they
// often carry tokens), written in the background so that a call never waits for the disk, bounded in size: the file
// is rotated to `.1`, `.2`, ... once it holds maxBytes, the oldest dropped past maxFiles.
import { createWriteStream, existsSync, openSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs'

/** The format of every line of a recording (the `format` field), for readers to check. */
export const RECORDING_FORMAT = 'runtime-sdk.recording/v1'
/** What replaces the value of each setting in a recorded request. */
export const REDACTED = '<redacted>'

/** Where and how much to record. */
export interface RecordingOptions {
  /** file the calls are appended to, one JSON line each. */
  file: string
  /** maxBytes a file holds before it is rotated (default 100 MiB). */
  maxBytes?: number
  /** maxFiles kept, the current one included (default 5). */
  maxFiles?: number
}

/** One recorded call: a line of a recording. */
export interface RecordedCall {
  /** format is always RECORDING_FORMAT. */
  format: typeof RECORDING_FORMAT
  /** time the call arrived, RFC 3339. */
  time: string
  /** hook is the hook's name, e.g. GeneratePatches. */
  hook: string
  /** apiVersion of the hook, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1. */
  apiVersion: string
  /** handler is the handler's registered name ('' for Discovery). */
  handler: string
  /** requestId is the x-request-id of the call. */
  requestId: string
  /** durationMs is how long the answer took. */
  durationMs: number
  /** request is the request as received, settings values redacted (its raw text when it was not JSON). */
  request: unknown
  /** response is the answer as sent. */
  response: unknown
}

/** The request with the value of every setting redacted (its keys kept: they tell which settings replay needs). */
export function redactRequest (request: unknown): unknown {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return request
  const settings = (request as { settings?: unknown }).settings
  if (typeof settings !== 'object' || settings === null) return request
  return { ...request, settings: Object.fromEntries(Object.keys(settings).map(key => [key, REDACTED])) }
}

/** Appends recorded calls to a file, rotating it. */
export class HookRecorder {
  readonly #file: string
  readonly #maxBytes: number
  readonly #maxFiles: number
  #stream: WriteStream
  #bytes: number

  constructor (options: RecordingOptions) {
    this.#file = options.file
    this.#maxBytes = options.maxBytes ?? 100 * 1024 * 1024
    this.#maxFiles = Math.max(1, options.maxFiles ?? 5)
    this.#bytes = existsSync(this.#file) ? statSync(this.#file).size : 0
    this.#stream = this.#open()
  }

  /**
   * The file opened now (writes go out in the background): it exists at once, so that a rotation can rename it, and
   * a stream still writing to it after the rename writes to the renamed file.
   */
  #open (): WriteStream {
    return createWriteStream('', { fd: openSync(this.#file, 'a') })
  }

  /** Records one call (the request given as its raw text, parsed here off the hot path's result). */
  record (call: Omit<RecordedCall, 'format' | 'request' | 'response'>, rawRequest: string, responseText: string): void {
    let request: unknown
    try {
      request = redactRequest(JSON.parse(rawRequest))
    } catch {
      request = rawRequest
    }
    const line = `${JSON.stringify({ format: RECORDING_FORMAT, ...call, request, response: JSON.parse(responseText) as unknown })}\n`
    const size = Buffer.byteLength(line)
    if (this.#bytes > 0 && this.#bytes + size > this.#maxBytes) this.#rotate()
    this.#stream.write(line)
    this.#bytes += size
  }

  #rotate (): void {
    this.#stream.end()
    rmSync(`${this.#file}.${this.#maxFiles - 1}`, { force: true })
    for (let i = this.#maxFiles - 2; i >= 1; i--) if (existsSync(`${this.#file}.${i}`)) renameSync(`${this.#file}.${i}`, `${this.#file}.${i + 1}`)
    if (this.#maxFiles > 1) renameSync(this.#file, `${this.#file}.1`)
    else rmSync(this.#file, { force: true })
    this.#stream = this.#open()
    this.#bytes = 0
  }

  /** Flushes and closes the file. */
  async close (): Promise<void> {
    await new Promise<void>(resolve => this.#stream.end(resolve))
  }
}
