// Second versions of the reference extension, for the rollout impact tests (test/impact, test/capi/impact.test.ts):
// - `command`: its GeneratePatches also adds `echo v2` to the preKubeadmCommands of every MachineDeployment's
//   KubeadmConfigTemplate (a spec change of a MachineDeployment's template only);
// - `label`: it also labels every MachineDeployment's templates (metadata only);
// - `in-place`: as `command`, and its CanUpdateMachineSet and CanUpdateMachine take any change in place (they patch
//   the current MachineSet and templates, or Machine and its objects, into the desired ones);
// - changes Cluster API's API server refuses, so that the topology stops reconciling: `undeclared` writes a field the
//   KubeadmConfigTemplate's schema does not declare, `wrong-type` the workers' preKubeadmCommands as a string,
//   `forbidden` a KubeadmControlPlane field its webhook does not let change (certificatesDir), `conflicting-file` a
//   file with both content and contentFrom (the KubeadmConfigTemplate webhook refuses it);
// - `default-value`: the workers' bootstrap format set to `cloud-config`, what the KubeadmConfigTemplate webhook
//   defaults on the topology controller's dry runs: nothing changes;
// - `bad-duration`: the workers' DevMachineTemplate's startupDuration `soon`, which the schema takes (a string) and
//   CAPD's webhook cannot decode (a metav1.Duration): refused;
// - `init-configuration`: a preflight error ignored in the control plane's initConfiguration, which only the first
//   Machine's kubeadm init reads: KCP replaces no Machine;
// - `files`: a file more on every node (the KubeadmControlPlane's and the MachineDeployments' bootstrap templates)
//   and the control plane's local etcd image tag, what version 1's in-place hooks take in place (as Cluster API's
//   own e2e changes them).
// `runtime-sdk serve --handlers` serves the one RUNTIME_SDK_V2_CHANGE names (default `command`).
import { applyPatch, type Operation } from 'rfc6902'
import { CanUpdateMachine, CanUpdateMachineSet, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler, type ExtensionHandler } from '../../src/server/types.js'
import { createJsonPatch } from '../../src/topology/json-patch.js'
import { applyMergePatch } from '../../src/topology/merge-patch.js'
import { isControlPlaneTemplate, isMachineDeploymentBootstrapTemplate, isMachineDeploymentInfrastructureTemplate } from '../../src/topology/holders.js'

/** What version 2 changes. */
export type V2Change = 'command' | 'label' | 'in-place' | 'undeclared' | 'wrong-type' | 'forbidden' | 'conflicting-file' | 'default-value' | 'files' | 'bad-duration' | 'init-configuration'

type Item = { uid: string, holderReference: { kind: string, fieldPath: string }, object: Record<string, any> }
type Answer = { status: string, message?: string, items?: Array<{ uid: string, patchType: string, patch: string }> }

const decode = (patch: string) => JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as unknown
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')

/** What version 2 does to a template after version 1's patch. */
function change (item: Item, object: Record<string, any>, what: V2Change): void {
  const holder = item.holderReference
  if (what === 'label') {
    if (isMachineDeploymentBootstrapTemplate(holder) || isMachineDeploymentInfrastructureTemplate(holder)) object['metadata'] = { ...object['metadata'], labels: { ...object['metadata']?.labels, 'example.com/extension-version': 'v2' } }
    return
  }
  const spec = object['spec']?.template?.spec ?? {}
  const withSpec = (changed: Record<string, unknown>) => { object['spec'] = { ...object['spec'], template: { ...object['spec']?.template, spec: changed } } }
  if (what === 'bad-duration') {
    if (isMachineDeploymentInfrastructureTemplate(holder)) withSpec({ ...spec, backend: { inMemory: { ...spec.backend?.inMemory, vm: { provisioning: { startupDuration: 'soon' } } } } })
    return
  }
  if (what === 'init-configuration') {
    const config = spec.kubeadmConfigSpec ?? {}
    if (isControlPlaneTemplate(holder)) withSpec({ ...spec, kubeadmConfigSpec: { ...config, initConfiguration: { ...config.initConfiguration, nodeRegistration: { ...config.initConfiguration?.nodeRegistration, ignorePreflightErrors: ['NumCPU'] } } } })
    return
  }
  if (what === 'files') {
    const file = { path: '/etc/runtime-sdk/v2', content: 'version 2', owner: 'root:root', permissions: '0600' }
    if (isControlPlaneTemplate(holder)) {
      const config = spec.kubeadmConfigSpec ?? {}
      const etcd = { ...config.clusterConfiguration?.etcd, local: { ...config.clusterConfiguration?.etcd?.local, imageTag: '3.6.5-0' } }
      withSpec({ ...spec, kubeadmConfigSpec: { ...config, files: [...config.files ?? [], file], clusterConfiguration: { ...config.clusterConfiguration, etcd } } })
    } else if (isMachineDeploymentBootstrapTemplate(holder)) withSpec({ ...spec, files: [...spec.files ?? [], file] })
    return
  }
  if (what === 'forbidden') {
    if (isControlPlaneTemplate(holder)) withSpec({ ...spec, kubeadmConfigSpec: { ...spec.kubeadmConfigSpec, clusterConfiguration: { ...spec.kubeadmConfigSpec?.clusterConfiguration, certificatesDir: '/etc/v2/pki' } } })
    return
  }
  if (!isMachineDeploymentBootstrapTemplate(holder)) return
  if (what === 'default-value') withSpec({ ...spec, format: 'cloud-config' })
  else if (what === 'undeclared') withSpec({ ...spec, notAKubeadmField: 'v2' })
  else if (what === 'wrong-type') withSpec({ ...spec, preKubeadmCommands: 'echo v2' })
  else if (what === 'conflicting-file') withSpec({ ...spec, files: [{ path: '/etc/v2', content: 'v2', contentFrom: { secret: { name: 'v2', key: 'v2' } } }] })
  else withSpec({ ...spec, preKubeadmCommands: [...spec.preKubeadmCommands ?? [], 'echo v2'] })
}

/** The reference extension's handlers, version 2 (see the header). */
export function referenceHandlersV2 (what: V2Change = 'command'): ExtensionHandler[] {
  const v1 = referenceHandlers()
  const generate = v1.find(h => h.hook.hook === 'GeneratePatches') as ExtensionHandler
  const v2Generate = defineHandler({
    hook: GeneratePatches,
    name: generate.name,
    handler: async (request, ctx) => {
      const answer = await (generate.handler as (r: unknown, c: unknown) => Promise<Answer> | Answer)(request, ctx)
      if (answer.status !== 'Success') return answer as never
      const items = (request.items ?? []) as unknown as Item[]
      return {
        ...answer,
        items: items.map(item => {
          const own = (answer.items ?? []).find(a => a.uid === item.uid)
          const before = structuredClone(item.object)
          let after: Record<string, any> = structuredClone(item.object)
          if (own?.patchType === 'JSONMergePatch') after = applyMergePatch(after, decode(own.patch)) as Record<string, any>
          else if (own) applyPatch(after, decode(own.patch) as Operation[])
          change(item, after, what)
          return { uid: item.uid, patchType: 'JSONPatch', patch: encode(createJsonPatch(before, after)) }
        })
      } as never
    }
  })
  const inPlace = defineHandler({
    hook: CanUpdateMachineSet,
    name: 'can-update-machineset',
    handler: (request) => {
      const patchTo = (desired: any) => ({ patchType: 'JSONMergePatch' as const, patch: encode({ spec: { template: { spec: desired?.spec?.template?.spec } } }) })
      return {
        status: 'Success' as const,
        message: 'version 2 updates MachineDeployments\' templates in place',
        machineSetPatch: patchTo(request.desired?.machineSet),
        bootstrapConfigTemplatePatch: patchTo(request.desired?.bootstrapConfigTemplate),
        infrastructureMachineTemplatePatch: patchTo(request.desired?.infrastructureMachineTemplate)
      }
    }
  })
  const inPlaceMachine = defineHandler({
    hook: CanUpdateMachine,
    name: 'can-update-machine',
    handler: (request) => {
      const patchTo = (desired: any) => ({ patchType: 'JSONPatch' as const, patch: encode([{ op: 'replace', path: '/spec', value: desired?.spec ?? {} }]) })
      return {
        status: 'Success' as const,
        message: 'version 2 updates Machines in place',
        machinePatch: patchTo(request.desired?.machine),
        bootstrapConfigPatch: patchTo(request.desired?.bootstrapConfig),
        infrastructureMachinePatch: patchTo(request.desired?.infrastructureMachine)
      }
    }
  })
  const replaced = what === 'in-place' ? [v2Generate, inPlace, inPlaceMachine] : [v2Generate]
  return v1.map(h => replaced.find(r => r.hook.hook === h.hook.hook) ?? h)
}

export default referenceHandlersV2((process.env['RUNTIME_SDK_V2_CHANGE'] as V2Change | undefined) ?? 'command')
