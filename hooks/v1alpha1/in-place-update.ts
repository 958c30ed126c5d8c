// In-place update hooks: deciding whether, and performing, machine changes without a rollout
// (inplaceupdate_types.go in Cluster API).
import { defineHook } from '../define.js'
import { Machine, MachineSet } from '../embedded/core-v1beta2.js'
import { named, Optional, RawObject, Type } from '../schema.js'
import { commonResponse, COMPONENT_PREFIX, Patch, request, response, retryResponse } from './common.js'

const TAGS = ['In-Place Update Hooks']

const MachineObjects = (component: string) => named(`${COMPONENT_PREFIX}.${component}`, Type.Object({
  machine: Machine,
  infrastructureMachine: RawObject({ description: 'infrastructureMachine is the provider\'s infrastructure machine.' }),
  bootstrapConfig: Optional(RawObject({ description: 'bootstrapConfig is the bootstrap config of the machine.' }))
}, { description: `${component} groups a Machine and its provider objects.` }))

export const CanUpdateMachineRequestObjects = MachineObjects('CanUpdateMachineRequestObjects')
export const UpdateMachineRequestObjects = MachineObjects('UpdateMachineRequestObjects')

export const CanUpdateMachineSetRequestObjects = named(`${COMPONENT_PREFIX}.CanUpdateMachineSetRequestObjects`, Type.Object({
  machineSet: MachineSet,
  infrastructureMachineTemplate: RawObject({ description: 'infrastructureMachineTemplate is the provider\'s machine template.' }),
  bootstrapConfigTemplate: Optional(RawObject({ description: 'bootstrapConfigTemplate is the bootstrap config template.' }))
}, { description: 'CanUpdateMachineSetRequestObjects groups a MachineSet and its templates.' }))

export const CanUpdateMachine = defineHook({
  hook: 'CanUpdateMachine',
  request: request('CanUpdateMachine', {
    current: CanUpdateMachineRequestObjects,
    desired: CanUpdateMachineRequestObjects
  }, 'CanUpdateMachineRequest carries the current and desired Machine and provider objects.'),
  response: response('CanUpdateMachine', commonResponse, {
    machinePatch: Optional(Patch),
    infrastructureMachinePatch: Optional(Patch),
    bootstrapConfigPatch: Optional(Patch)
  }, 'CanUpdateMachineResponse holds patches for the changes the extension can make in place.'),
  meta: {
    tags: TAGS,
    summary: 'Tells which changes to a Machine an extension can make in place',
    description: 'The patches are applied to the current objects; when the result equals the desired objects the Machine is updated in place, ' +
      'otherwise it is replaced. At most one extension may implement this hook for a Machine.'
  }
})

export const CanUpdateMachineSet = defineHook({
  hook: 'CanUpdateMachineSet',
  request: request('CanUpdateMachineSet', {
    current: CanUpdateMachineSetRequestObjects,
    desired: CanUpdateMachineSetRequestObjects
  }, 'CanUpdateMachineSetRequest carries the current and desired MachineSet and templates.'),
  response: response('CanUpdateMachineSet', commonResponse, {
    machineSetPatch: Optional(Patch),
    infrastructureMachineTemplatePatch: Optional(Patch),
    bootstrapConfigTemplatePatch: Optional(Patch)
  }, 'CanUpdateMachineSetResponse holds patches for the changes the extension can make in place.'),
  meta: {
    tags: TAGS,
    summary: 'Tells which changes to a MachineSet an extension can make in place',
    description: 'Only spec.template.spec changes need to be covered. At most one extension may implement this hook for a MachineSet.'
  }
})

export const UpdateMachine = defineHook({
  hook: 'UpdateMachine',
  request: request('UpdateMachine', {
    desired: UpdateMachineRequestObjects
  }, 'UpdateMachineRequest carries the desired Machine and provider objects.'),
  response: response('UpdateMachine', retryResponse, {}, 'UpdateMachineResponse: Success with retryAfterSeconds > 0 is in progress, Success with 0 is done, Failure failed.'),
  meta: {
    tags: TAGS,
    summary: 'Performs an in-place update of a Machine',
    description: 'Called repeatedly until the update is done or failed, so it must be idempotent. Exactly one extension must implement it for a Machine.'
  }
})
