// Version 2 of the extension examples/simulate's ClusterClass calls (the reference extension): one change in its
// GeneratePatches, made with runtime-sdk/topology, on top of what version 1 patches. `ntp` turns NTP on in every
// worker's bootstrap template: a spec change, so every MachineDeployment replaces its Machines. `labels` labels
// those templates: metadata only, patched in place. docs/before-you-upgrade.md asks `runtime-sdk rollout-impact`
// what deploying each would do.
import { defineHandler, type ExtensionHandler, v1alpha1 } from 'runtime-sdk'
import { referenceHandlers } from 'runtime-sdk/testing'
import { ensurePath, templates, walkTemplates } from 'runtime-sdk/topology'

/** The reference extension with its GeneratePatches followed by `change` on the KubeadmConfigTemplates. */
export function version2 (change: 'ntp' | 'labels'): ExtensionHandler[] {
  const version1 = referenceHandlers()
  return version1.map(h => {
    if (h.hook !== v1alpha1.GeneratePatches) return h
    const patches = h as ExtensionHandler<typeof v1alpha1.GeneratePatches>
    return defineHandler({
      hook: v1alpha1.GeneratePatches,
      name: h.name,
      handler: async (request, ctx) => {
        const before = await patches.handler(request, ctx)
        if (before.status !== 'Success') return before
        const added = await walkTemplates(request, template => {
          if (change === 'ntp') ensurePath(template, 'spec', 'template', 'spec').ntp = { enabled: true, servers: ['time.example.com'] }
          else ensurePath(template, 'metadata').labels = { ...template.metadata?.labels, 'example.com/extension-version': '2' }
        }, { kinds: [templates.KubeadmConfigTemplate] })
        return { ...before, items: [...before.items ?? [], ...added.items ?? []] }
      }
    })
  })
}
