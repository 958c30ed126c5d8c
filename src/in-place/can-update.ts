// The answer to CanUpdateMachine and CanUpdateMachineSet computed from what an updater declares it can change, as
// Cluster API's own test extension computes it (test/extension/handlers/inplaceupdate): every declared field of the
// current objects takes the desired value, and the answer is the JSON Patch from the current objects as received to
// the changed ones. Cluster API then applies the patches to the current objects and updates the Machines in place
// only when the result equals the desired objects: a change of any field not declared leaves it to a rollout.
import type { Patch } from '../api/hooks/v1alpha1/types.generated.js'
import { createJsonPatch } from '../topology/json-patch.js'
import { isJsonObject, jsonCopy, jsonEqual } from '../topology/json.js'

/** A field's path under an object's spec, dotted (`clusterConfiguration.etcd.local.imageTag`). */
export type FieldPath = string

/**
 * What an updater can change in place, as paths under each object's `spec`: the Machine's, and the bootstrap config's
 * and infrastructure machine's by kind. A MachineSet and the templates a MachineDeployment uses are covered by the
 * same paths under `spec.template.spec` (a KubeadmConfigTemplate by the paths of KubeadmConfig).
 */
export interface UpdatableFields {
  /** machine lists the Machine spec fields (e.g. `version`, `failureDomain`). */
  machine?: readonly FieldPath[]
  /** bootstrap lists fields by bootstrap config kind (e.g. `{ KubeadmConfig: ['files'] }`). */
  bootstrap?: Readonly<Record<string, readonly FieldPath[]>>
  /** infrastructure lists fields by infrastructure machine kind (e.g. `{ DevMachine: ['backend.docker.bootstrapTimeout'] }`). */
  infrastructure?: Readonly<Record<string, readonly FieldPath[]>>
}

type Json = Record<string, unknown>

const segments = (path: FieldPath) => path.split('.').filter(Boolean)

function valueAt (object: unknown, path: readonly string[]): unknown {
  let at = object
  for (const key of path) at = isJsonObject(at) ? at[key] : undefined
  return at
}

/** Sets (or, for undefined, removes) the value at a path, making the objects on the way. */
function setAt (object: Json, path: readonly string[], value: unknown): void {
  let at = object
  for (const key of path.slice(0, -1)) {
    if (!isJsonObject(at[key])) at[key] = {}
    at = at[key] as Json
  }
  const last = path.at(-1) as string
  if (value === undefined) delete at[last]
  else at[last] = jsonCopy(value)
}

/** The current object with every declared field of the spec at `specPath` taking the desired value. */
function withDesired (current: Json, desired: Json, specPath: readonly string[], fields: readonly FieldPath[]): Json {
  const changed = jsonCopy(current)
  for (const field of fields) {
    const path = [...specPath, ...segments(field)]
    const want = valueAt(desired, path)
    if (!jsonEqual(valueAt(current, path), want)) setAt(changed, path, want)
  }
  return changed
}

/** The JSON Patch (RFC 6902, base64 as the wire carries it) from the current object to the current object with the declared fields updated. */
export function canUpdatePatch (current: unknown, desired: unknown, specPath: readonly string[], fields: readonly FieldPath[]): Patch {
  const from = isJsonObject(current) ? current : {}
  const to = withDesired(from, isJsonObject(desired) ? desired : {}, specPath, fields)
  return { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(createJsonPatch(from, to))).toString('base64') }
}

/** The fields declared for an object of a kind (its own kind, or a template's kind without `Template`). */
export function fieldsOf (byKind: Readonly<Record<string, readonly FieldPath[]>> | undefined, object: unknown): readonly FieldPath[] {
  const kind = String((isJsonObject(object) ? object['kind'] : undefined) ?? '')
  return byKind?.[kind] ?? byKind?.[kind.replace(/Template$/, '')] ?? []
}
