// Type tests of runtime-sdk/topology (see handlers.ts for how they are checked). Nothing here runs.
import { v1alpha1 } from 'runtime-sdk'
import {
  ensurePath, getObject, getString, getValue, templateKind, templates, variableSchema as v, walkTemplates, type TemplateBase, type Unstructured, type VariableValue
} from 'runtime-sdk/topology'
import { exact, type Equal } from './expect.js'

const request = v1alpha1.sampleRequest(v1alpha1.GeneratePatches)

// Compiles: the kinds type the mutate function's template, a union narrowed by its kind.
walkTemplates(request, (template, { variables, holder }) => {
  exact<Equal<typeof holder, v1alpha1.HolderReference>>()
  if (template.kind === 'KubeadmControlPlaneTemplate') {
    exact<Equal<typeof template, templates.KubeadmControlPlaneTemplate>>()
    ensurePath(template, 'spec', 'template', 'spec', 'kubeadmConfigSpec').preKubeadmCommands = [getString(variables, 'command') ?? 'true']
  } else {
    exact<Equal<typeof template, templates.KubeadmConfigTemplate>>()
    ensurePath(template, 'spec', 'template', 'spec').files = [{ path: '/etc/motd', content: 'hi' }]
  }
}, { kinds: [templates.KubeadmControlPlaneTemplate, templates.KubeadmConfigTemplate] })

// Compiles: without kinds every template is an Unstructured & TemplateBase; an async function; a kind of your own.
walkTemplates(request, async (template) => { exact<Equal<typeof template, Unstructured & TemplateBase>>() })
interface AWSMachineTemplate { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSMachineTemplate', spec?: { template?: { spec?: { instanceType?: string } } } }
walkTemplates(request, (template) => { ensurePath(template, 'spec', 'template', 'spec').instanceType = 'm5.large' }, {
  kinds: [templateKind<AWSMachineTemplate>('infrastructure.cluster.x-k8s.io/v1beta2', 'AWSMachineTemplate')]
})

walkTemplates(request, (template) => {
  // @ts-expect-error TS2551 a field KubeadmControlPlaneTemplate does not have
  ensurePath(template, 'spec', 'template', 'spec').kubeadmConfig = {}
}, { kinds: [templates.KubeadmControlPlaneTemplate] })

walkTemplates(request, (template) => {
  // @ts-expect-error TS2322 a field of the wrong type
  ensurePath(template, 'spec', 'template', 'spec').preKubeadmCommands = 'echo one'
}, { kinds: [templates.KubeadmConfigTemplate] })

// @ts-expect-error TS2322 a mutate function returns nothing (or a promise of nothing)
walkTemplates(request, () => 'patched')

// The getters' types: a string getter gives a string, a schema gives the value's type.
const vars = { builtin: { controlPlane: { version: 'v1.34.0' } } }
exact<Equal<ReturnType<typeof getString>, string | undefined>>()
// @ts-expect-error TS2322 getString does not give a number
export const replicas: number | undefined = getString(vars, 'builtin.controlPlane.replicas')

const file = v.object({ path: v.string(), mode: v.string({ enum: ['0600', '0644'] }) }, { required: ['path'] })
exact<Equal<VariableValue<typeof file>, { path: string, mode?: '0600' | '0644' }>>()
export const read = getValue(vars, 'file', file)
exact<Equal<typeof read, { path: string, mode?: '0600' | '0644' } | undefined>>()
// @ts-expect-error TS2339 a field the schema does not declare
export const owner = getObject(vars, 'file', file)?.owner
// @ts-expect-error TS2322 required names only declared properties
v.object({ path: v.string() }, { required: ['mode'] })
// @ts-expect-error TS2322 a default of another type than the schema's
v.integer({ default: 'three' })
