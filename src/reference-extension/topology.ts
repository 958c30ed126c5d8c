// Topology mutation hooks of the reference extension, written with runtime-sdk/topology the way Cluster API's own
// test extension writes its patches (test/extension/handlers/topologymutation/handler.go). Its variables:
// - referenceAnnotation (string, default "reference-extension"): the annotation runtime-sdk.x-k8s.io/patched-by on
//   every template; a template's own value overrides the global one;
// - files (a list of {path, content}) and preKubeadmCommands (a list of strings): appended to the
//   KubeadmControlPlaneTemplate's kubeadmConfigSpec and to every KubeadmConfigTemplate (files owned by root:root,
//   mode 0600, as Cluster API's extension writes them);
// and the builtin versions: control plane and worker kubelets get the node label kubernetesVersion=<version>, and the
// DevMachines made from each DevMachineTemplate the label runtime-sdk.x-k8s.io/kubernetes-version, both from
// builtin.controlPlane.version or builtin.machineDeployment.version ('+' written '_', as label values need).
// GeneratePatches answers JSON Patches, or JSON merge patches when the ExtensionConfig's setting patchFormat says so.
// ValidateTopology rejects a topology where a variable named in the setting requiredVariables (comma separated) is
// missing, or where referenceAnnotation is set but not a non-empty string.
import { DiscoverVariables, GeneratePatches, PATCH_TYPES, ValidateTopology } from '../api/hooks/v1alpha1/index.js'
import { defineHandler, type ExtensionHandler } from '../server/types.js'
import { HookError } from '../server/errors.js'
import { presetFor, type ResponsesFile } from './responses.js'
import {
  defineVariables, ensurePath, getString, getValue, getVariable, isKind, templates, toVariables, variableSchema as v,
  walkTemplates, type PatchFormat, type TemplateBase, type TemplateContext, type Unstructured, type Variables
} from '../topology/index.js'

export const VARIABLE = 'referenceAnnotation'
export const ANNOTATION = 'runtime-sdk.x-k8s.io/patched-by'
/** The label of the DevMachines whose template the extension patched, valued with the Kubernetes version. */
export const VERSION_LABEL = 'runtime-sdk.x-k8s.io/kubernetes-version'
const DEFAULT_VALUE = 'reference-extension'

const schemas = {
  [VARIABLE]: v.string({
    description: `The value of the ${ANNOTATION} annotation the reference extension sets on every template.`,
    default: DEFAULT_VALUE,
    example: 'team-a',
    maxLength: 256
  }),
  files: v.array(v.object({ path: v.string({ minLength: 1, maxLength: 512 }), content: v.string({ maxLength: 10240 }) }, { required: ['path'] }), {
    description: 'Files written on every node by kubeadm (control plane and workers).',
    maxItems: 32
  }),
  preKubeadmCommands: v.array(v.string({ maxLength: 10240 }), { description: 'Commands run on every node before kubeadm.', maxItems: 32 })
}

const variables = defineVariables([
  { name: VARIABLE, required: false, schema: schemas[VARIABLE] },
  { name: 'files', required: false, schema: schemas.files },
  { name: 'preKubeadmCommands', required: false, schema: schemas.preKubeadmCommands }
])

/** The Kubernetes version of the control plane or the MachineDeployment a template belongs to. */
function versionOf (vars: Variables): string | undefined {
  return getString(vars, 'builtin.controlPlane.version') ?? getString(vars, 'builtin.machineDeployment.version') ?? getString(vars, 'builtin.machinePool.version')
}

/** Sets a kubelet argument (kubeadm v1beta2's list of name and value), replacing one of the same name. */
function setKubeletArg (spec: templates.NodeRegistrationOptions, name: string, value: string): void {
  spec.kubeletExtraArgs = [...(spec.kubeletExtraArgs ?? []).filter(arg => arg.name !== name), { name, value }]
}

/** What the variables and the version add to a kubeadm config (the control plane's or a worker template's). */
function patchKubeadmConfig (spec: templates.KubeadmConfigSpec, vars: Variables, controlPlane: boolean): void {
  const files = getValue(vars, 'files', schemas.files) ?? []
  if (files.length > 0) spec.files = [...spec.files ?? [], ...files.map(f => ({ path: f.path, content: f.content ?? '', owner: 'root:root', permissions: '0600' }))]
  const commands = getValue(vars, 'preKubeadmCommands', schemas.preKubeadmCommands) ?? []
  if (commands.length > 0) spec.preKubeadmCommands = [...spec.preKubeadmCommands ?? [], ...commands]
  const version = versionOf(vars)
  if (version === undefined) return
  const label = `kubernetesVersion=${version.replaceAll('+', '_')}`
  if (controlPlane) setKubeletArg(ensurePath(spec, 'initConfiguration', 'nodeRegistration'), 'node-labels', label)
  setKubeletArg(ensurePath(spec, 'joinConfiguration', 'nodeRegistration'), 'node-labels', label)
}

function mutate (template: Unstructured & TemplateBase, { variables: vars }: TemplateContext): void {
  const metadata = template.metadata ??= {}
  metadata.annotations = { ...metadata.annotations, [ANNOTATION]: getString(vars, VARIABLE) ?? DEFAULT_VALUE }
  if (isKind(template, templates.KubeadmControlPlaneTemplate)) {
    patchKubeadmConfig(ensurePath(template, 'spec', 'template', 'spec', 'kubeadmConfigSpec'), vars, true)
  } else if (isKind(template, templates.KubeadmConfigTemplate)) {
    patchKubeadmConfig(ensurePath(template, 'spec', 'template', 'spec'), vars, false)
  } else if (isKind(template, templates.DevMachineTemplate)) {
    const version = versionOf(vars)
    if (version !== undefined) {
      const machine = ensurePath(template, 'spec', 'template', 'metadata')
      machine.labels = { ...machine.labels, [VERSION_LABEL]: version.replaceAll('+', '_') }
    }
  }
}

/** The patch format the ExtensionConfig's settings ask for. */
function patchFormatOf (settings: Readonly<Record<string, string>> | undefined): PatchFormat {
  const format = settings?.['patchFormat'] ?? 'JSONPatch'
  if (!(PATCH_TYPES as readonly string[]).includes(format)) throw new HookError(`setting patchFormat must be one of ${PATCH_TYPES.join(', ')}, not ${JSON.stringify(format)}`)
  return format as PatchFormat
}

/** GeneratePatches: our patch on every template, unless the responses file makes it fail. */
function generatePatches (responses: ResponsesFile | undefined): ExtensionHandler {
  return defineHandler({
    hook: GeneratePatches,
    name: 'generate-patches',
    handler: async (request, ctx) => {
      const preset = await presetFor(responses, 'GeneratePatches')
      if (preset?.status === 'Failure') return { status: 'Failure' as const, ...(preset.message ? { message: preset.message } : {}) }
      return walkTemplates(request, mutate, { patchFormat: patchFormatOf(request.settings), signal: ctx.signal })
    }
  })
}

const validateTopology = defineHandler({
  hook: ValidateTopology,
  name: 'validate-topology',
  handler: (request) => {
    const problems: string[] = []
    const global = toVariables(request.variables)
    const required = (request.settings?.['requiredVariables'] ?? '').split(',').map(s => s.trim()).filter(Boolean)
    for (const name of required) if (getVariable(global, name) === undefined) problems.push(`required variable ${name} is not set`)
    const scopes: Array<[string, Variables]> = [['', global], ...(request.items ?? []).map((item, i): [string, Variables] => [`items[${i}] `, toVariables(item?.variables)])]
    for (const [where, vars] of scopes) {
      const value = getVariable(vars, VARIABLE)
      if (value !== undefined && (typeof value !== 'string' || value === '')) problems.push(`${where}variable ${VARIABLE} must be a non-empty string`)
    }
    return problems.length > 0 ? { status: 'Failure' as const, message: problems.join('; ') } : { status: 'Success' as const }
  }
})

const discoverVariables = defineHandler({
  hook: DiscoverVariables,
  name: 'discover-variables',
  handler: () => ({ status: 'Success' as const, variables })
})

export function topologyHandlers (responses?: ResponsesFile): ExtensionHandler[] {
  return [generatePatches(responses), validateTopology, discoverVariables]
}
