// kubectl against the e2e control plane, for the tests that put Cluster API in the loop: a failure throws with
// kubectl's stderr; objects come back parsed.
import type { ControlPlane } from '../../tools/harness/control-plane.js'
import type { Obj } from './capi-classes.js'

/** A condition as Cluster API writes it. */
export interface Condition { type: string, status: string, reason?: string, message?: string, observedGeneration?: number, lastTransitionTime?: string }

/** kubectl, get and list on the control plane, as the admin; each kubectl gets timeoutMs (default 120 s). */
export function kubectlOf (cp: ControlPlane, timeoutMs = 120_000) {
  const kubectl = async (args: string[], input?: string): Promise<string> => {
    const r = await cp.kubectl(args, input !== undefined ? { input, timeoutMs } : { timeoutMs })
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.code === null ? `killed after ${timeoutMs / 1000} s` : r.stderr}`)
    return r.stdout
  }
  const get = async (kind: string, name: string, namespace = 'default') => JSON.parse(await kubectl(['get', kind, name, '-n', namespace, '-o', 'json'])) as Obj
  const list = async (kind: string, namespace?: string) => (JSON.parse(await kubectl(['get', kind, ...(namespace ? ['-n', namespace] : ['-A']), '-o', 'json'])) as { items: Obj[] }).items
  return { kubectl, get, list }
}

/** The object's condition of a type. */
export const conditionOf = (o: Obj, type: string): Condition | undefined => (o['status']?.conditions as Condition[] | undefined)?.find(c => c.type === type)
