// The mutations of tools/capi-interop/internal/walk (Cluster API's WalkTemplates), written with runtime-sdk/topology:
// change one, change both. Where Go's encoding drops a value (omitempty: an empty string or list, an empty map of
// a struct), this side does not write it, so that both sides mean the same object.
import {
  ensurePath, getBoolean, getString, getValue, templates, variableSchema as v, walkTemplates, type PatchFormat, type TemplateContext, type TemplateOf, type Variables
} from '../../src/topology/index.js'
import type { GeneratePatchesRequest, GeneratePatchesResponse } from '../../src/api/hooks/v1alpha1/types.generated.js'

const VERSION_LABEL = 'example.com/kubernetes-version'
const kinds = templates.templateKinds
/** Go's []struct{Path, Content string} and []string, as the getters check them. */
const files = v.array(v.object({ path: v.string(), content: v.string() }))
const commands = v.array(v.string())

function version (vars: Variables): string | undefined {
  return getString(vars, 'builtin.controlPlane.version') ?? getString(vars, 'builtin.machineDeployment.version') ?? getString(vars, 'builtin.machinePool.version')
}

function setArg (args: templates.Arg[] | undefined, name: string, value: string): templates.Arg[] {
  return [...(args ?? []).filter(a => a.name !== name), { name, value }]
}

function mutate (template: TemplateOf<typeof kinds>, { variables: vars, holder }: TemplateContext): void {
  const content = getString(vars, 'content')
  const flag = getBoolean(vars, 'flag') ?? false
  const v = version(vars)
  switch (template.kind) {
    case 'KubeadmControlPlaneTemplate': {
      const spec = ensurePath(template, 'spec', 'template', 'spec', 'kubeadmConfigSpec')
      // (The generated files always have a path.)
      const added = (getValue(vars, 'files', files) ?? []).map(f => ({ path: f.path ?? '', ...(f.content ? { content: f.content } : {}), owner: 'root:root' }))
      if (added.length > 0) spec.files = [...spec.files ?? [], ...added]
      if (v !== undefined) (template.metadata ??= {}).annotations = { ...template.metadata?.annotations, 'example.com/cp~version': v }
      if (flag) delete spec.preKubeadmCommands
      else if (content !== undefined && spec.preKubeadmCommands?.length) spec.preKubeadmCommands[0] = content
      const apiServer = ensurePath(spec, 'clusterConfiguration', 'apiServer')
      apiServer.extraArgs = [...apiServer.extraArgs ?? [], { name: 'v', value: '2' }]
      break
    }
    case 'KubeadmConfigTemplate': {
      const spec = ensurePath(template, 'spec', 'template', 'spec')
      if (content !== undefined) (template.metadata ??= {}).labels = { ...template.metadata?.labels, 'a/b~c': content }
      const more = getValue(vars, 'commands', commands) ?? []
      if (more.length > 0) spec.preKubeadmCommands = [...spec.preKubeadmCommands ?? [], ...more]
      if (v !== undefined) {
        const registration = ensurePath(spec, 'joinConfiguration', 'nodeRegistration')
        registration.kubeletExtraArgs = setArg(registration.kubeletExtraArgs, 'node-labels', `version=${v.replaceAll('+', '_')}`)
      }
      break
    }
    case 'DevMachineTemplate': {
      if (v !== undefined) {
        const metadata = ensurePath(template, 'spec', 'template', 'metadata')
        metadata.labels = { ...metadata.labels, [VERSION_LABEL]: v }
      }
      if (flag) delete template.spec?.template?.spec?.providerID
      break
    }
    case 'DevMachinePoolTemplate': {
      const metadata = ensurePath(template, 'spec', 'template', 'metadata')
      metadata.annotations = { ...metadata.annotations, 'example.com/holder': holder.name }
      if (metadata.labels) {
        delete metadata.labels['cluster.x-k8s.io/cluster-name']
        if (Object.keys(metadata.labels).length === 0) delete metadata.labels
      }
      break
    }
    case 'DevClusterTemplate':
      break
  }
}

/** Answers a request with the mutations, handing over only the kinds Cluster API's side decodes. */
export function generatePatches (request: GeneratePatchesRequest, patchFormat: PatchFormat): Promise<GeneratePatchesResponse> {
  return walkTemplates(request, mutate, { kinds, patchFormat })
}
