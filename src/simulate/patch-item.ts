// A patch a hook answers (GeneratePatches' items, CanUpdateMachineSet's and CanUpdateMachine's patches), decoded and
// applied as Cluster API applies it: the patch engine's applyPatchToRequest and internal/util/patch's
// ApplyPatchToObject, which follows its structure. Base64 JSON; a JSON Patch (RFC 6902) that is not a list of
// operations or does not apply is an error, an empty one changes nothing; a JSON merge patch (RFC 7386) that is
// empty or `{}` changes nothing. One function for the patch engine, the in-place checks and replay: only what a
// failure becomes differs (an error, or undefined for replay, which reports a patch that does not apply as such).
import { applyPatch, type Operation } from 'rfc6902'
import { spend } from '../budget/index.js'
import { applyMergePatch } from '../topology/merge-patch.js'
import { isObject, jsonCopy } from './objects.js'

/** A patch as a hook answers it: its type (JSONPatch or JSONMergePatch) and its base64 JSON. */
export interface PatchItem {
  /** patchType is JSONPatch or JSONMergePatch. */
  patchType?: string | null | undefined
  /** patch is the patch, base64 JSON. */
  patch?: string | null | undefined
}

/** A patch that cannot be applied; the message names the patch (PatchItemOptions.where) and says why. */
export class PatchItemError extends Error {}

/** How to name a patch in errors, and what its failure becomes. */
export interface PatchItemOptions {
  /** where names the patch in errors: `GeneratePatches x (patch y): the patch of Kind name (role)`; default `the patch`. */
  where?: string
  /**
   * onFailure is what a patch that cannot be applied becomes: by default a PatchItemError thrown; the error a function
   * makes of the message, thrown (the patch engine's PatchFailure); or `undefined` returned (replay, which compares
   * what two answers make of a template).
   */
  onFailure?: 'undefined' | ((message: string) => Error)
}

/**
 * The object with the patch applied: a patched copy, or the object itself when the patch changes nothing (Cluster
 * API returns early then). A patch that is not JSON or does not apply is a PatchItemError, or undefined with
 * `onFailure: 'undefined'`.
 */
export function applyPatchItem (object: unknown, item: PatchItem, options: PatchItemOptions = {}): unknown {
  try {
    return applyOrThrow(object, item, options.where ?? 'the patch')
  } catch (err) {
    if (!(err instanceof PatchItemError) || options.onFailure === undefined) throw err
    if (options.onFailure === 'undefined') return undefined
    throw options.onFailure(err.message)
  }
}

function applyOrThrow (object: unknown, item: PatchItem, where: string): unknown {
  // A budget step per KB of patch: it is decoded, parsed and copied.
  spend(1 + ((item.patch?.length ?? 0) >> 10))
  const patch = decode(item.patch, where)
  if (item.patchType === 'JSONPatch') {
    if (!Array.isArray(patch)) throw new PatchItemError(`${where}: failed to apply patch: error decoding json patch (RFC6902): expected an array of operations`)
    if (patch.length === 0) return object
    spend(patch.length)
    const patched = jsonCopy(object)
    const errors = applyPatch(patched, patch as Operation[])
    const failed = errors.findIndex(e => e !== null)
    if (failed >= 0) {
      const op = patch[failed] as { op?: unknown, path?: unknown }
      throw new PatchItemError(`${where} does not apply: operation ${failed} (${String(op.op)} ${String(op.path)}): ${errors[failed]?.name ?? 'error'}: ${errors[failed]?.message ?? ''}`.trim())
    }
    return patched
  }
  if (item.patchType !== 'JSONMergePatch') throw new PatchItemError(`${where}: failed to apply patch: ${item.patchType ? `unknown patchType ${item.patchType}` : 'patchType is not set'}`)
  if (patch === undefined || (isObject(patch) && Object.keys(patch).length === 0)) return object
  return applyMergePatch(object, patch)
}

/** The patch's JSON; undefined when it is empty. */
function decode (patch: string | null | undefined, where: string): unknown {
  const text = Buffer.from(patch ?? '', 'base64').toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new PatchItemError(`${where} is not JSON`)
  }
}
