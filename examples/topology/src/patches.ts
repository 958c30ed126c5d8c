import { defineHandler, HookError, v1alpha1 } from 'runtime-sdk'
import {
  defineVariables, ensurePath, getString, getValue, templates, validateTemplates, variableSchema as v, walkTemplates
} from 'runtime-sdk/topology'

// The variables the patches read: DiscoverVariables announces them, the getters check values against them.
const imageRepository = v.string({ description: 'Where kubeadm pulls images from', default: 'registry.k8s.io', pattern: '^[a-z0-9.:/-]+$' })
const nodeFiles = v.array(v.object({ path: v.string({ pattern: '^/' }), content: v.string() }, { required: ['path'] }), { maxItems: 10 })
const variables = defineVariables([
  { name: 'imageRepository', required: false, schema: imageRepository },
  { name: 'nodeFiles', required: false, schema: nodeFiles }
])

export const handlers = [
  defineHandler({
    hook: v1alpha1.DiscoverVariables,
    name: 'variables',
    handler: () => ({ status: 'Success', variables })
  }),
  defineHandler({
    hook: v1alpha1.GeneratePatches,
    name: 'patches',
    handler: (request, ctx) => walkTemplates(request, (template, { variables }) => {
      const files = getValue(variables, 'nodeFiles', nodeFiles) ?? []
      switch (template.kind) {
        case 'KubeadmControlPlaneTemplate': {
          const spec = ensurePath(template, 'spec', 'template', 'spec', 'kubeadmConfigSpec')
          ensurePath(spec, 'clusterConfiguration').imageRepository = getString(variables, 'imageRepository') ?? 'registry.k8s.io'
          if (files.length > 0) spec.files = [...spec.files ?? [], ...files]
          break
        }
        case 'KubeadmConfigTemplate': {
          const spec = ensurePath(template, 'spec', 'template', 'spec')
          if (files.length > 0) spec.files = [...spec.files ?? [], ...files]
          break
        }
        case 'DevMachineTemplate': {
          const version = getString(variables, 'builtin.machineDeployment.version') ?? getString(variables, 'builtin.controlPlane.version')
          const machine = ensurePath(template, 'spec', 'template', 'metadata')
          if (version !== undefined) machine.labels = { ...machine.labels, 'example.com/kubernetes-version': version }
        }
      }
    }, {
      kinds: [templates.KubeadmControlPlaneTemplate, templates.KubeadmConfigTemplate, templates.DevMachineTemplate],
      patchFormat: request.settings?.['patchFormat'] === 'JSONMergePatch' ? 'JSONMergePatch' : 'JSONPatch',
      signal: ctx.signal
    })
  }),
  defineHandler({
    hook: v1alpha1.ValidateTopology,
    name: 'validate',
    handler: (request) => validateTemplates(request, (_template, { variables }) => {
      if (getString(variables, 'imageRepository') === 'docker.io') throw new HookError('imageRepository docker.io limits pulls: use a mirror')
    })
  })
]
