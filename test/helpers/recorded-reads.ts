// What a read-only tool read from a management cluster, kept to run it again without one: every GET and LIST answer
// by path (managedFields dropped: nothing reads them), and an ApiReader that answers from them.
import { KubeApiError } from '../../src/kube/errors.js'
import type { ApiReader, ListOf } from '../../src/simulate/index.js'

/** The answers of a recording: by path, `get <path>` or `list <path>`; an error as `{ error: { code, reason, message } }`. */
export type Reads = Record<string, unknown>

const withoutManagedFields = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v: unknown) => k === 'managedFields' ? undefined : v))

/** A reader that records what `api` answers. */
export function recordingReader (api: ApiReader): { api: ApiReader, reads: Reads } {
  const reads: Reads = {}
  const record = async <T>(key: string, read: () => Promise<T>): Promise<T> => {
    try {
      const value = await read()
      reads[key] = withoutManagedFields(value)
      return value
    } catch (err) {
      const e = err as Partial<KubeApiError>
      reads[key] = { error: { code: e.code ?? 0, reason: e.reason ?? '', message: e.message ?? '' } }
      throw err
    }
  }
  return {
    reads,
    api: {
      get: async <T>(path: string) => await record(`get ${path}`, async () => await api.get<T>(path)),
      list: async <T>(path: string) => await record(`list ${path}`, async () => await api.list<T>(path))
    }
  }
}

/** A reader answering from a recording; a path it does not hold is an error naming it. */
export function replayingReader (reads: Reads): ApiReader {
  const answer = (key: string) => {
    const value = reads[key]
    if (value === undefined) throw new Error(`not recorded: ${key}`)
    if (typeof value === 'object' && value !== null && 'error' in value) {
      const { code, reason, message } = (value as { error: { code: number, reason: string, message: string } }).error
      throw new KubeApiError(code, reason, message)
    }
    return structuredClone(value)
  }
  return {
    get: async <T>(path: string) => answer(`get ${path}`) as T,
    list: async <T>(path: string) => answer(`list ${path}`) as ListOf<T>
  }
}
