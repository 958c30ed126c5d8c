// What a CanUpdateMachine or CanUpdateMachineSet answer does to the request's current objects: each patch applied to
// its object and the spec Cluster API keeps of it (patch.ApplyPatchToObject: spec, or a template's spec.template.spec),
// for comparing two extensions' answers by their effect.
import { applyPatch, type Operation } from 'rfc6902'
import { applyMergePatch } from '../../src/topology/merge-patch.js'

type Json = Record<string, any>

const OBJECTS: Record<string, Array<[string, string]>> = {
  CanUpdateMachine: [['machine', 'machinePatch'], ['bootstrapConfig', 'bootstrapConfigPatch'], ['infrastructureMachine', 'infrastructureMachinePatch']],
  CanUpdateMachineSet: [['machineSet', 'machineSetPatch'], ['bootstrapConfigTemplate', 'bootstrapConfigTemplatePatch'], ['infrastructureMachineTemplate', 'infrastructureMachineTemplatePatch']]
}

/** The spec of each current object of the request once the answer's patches are applied, by object. */
export function patchedObjects (hook: string, request: Json, response: Json): Record<string, unknown> {
  const specOf = (o: Json) => hook === 'CanUpdateMachineSet' ? o['spec']?.template?.spec : o['spec']
  return Object.fromEntries((OBJECTS[hook] ?? []).map(([object, patchField]) => {
    let value: Json = structuredClone(request['current']?.[object] ?? {})
    const patch = response[patchField] as { patchType?: string, patch?: string } | undefined
    if (patch?.patch) {
      const decoded = JSON.parse(Buffer.from(patch.patch, 'base64').toString('utf8')) as unknown
      if (patch.patchType === 'JSONMergePatch') value = applyMergePatch(value, decoded) as Json
      else applyPatch(value, decoded as Operation[])
    }
    return [object, specOf(value)]
  }))
}
