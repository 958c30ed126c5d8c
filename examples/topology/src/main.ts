// A topology mutation extension written with runtime-sdk/topology (src/patches.ts, the README's example verbatim),
// run on the sample requests of its hooks: it prints the variables it announces, each template's patch decoded, and
// what ValidateTopology answers. Run: node dist/main.js
import { createExtensionServer, v1alpha1 } from 'runtime-sdk'
import { handlers } from './patches.js'

const server = createExtensionServer({ insecureHttp: true, handlers, logLevel: 'error' })
const call = async (hook: string, name: string, request: unknown) =>
  (await server.inject({ method: 'POST', url: `/${v1alpha1.API_VERSION}/${hook.toLowerCase()}/${name}`, payload: JSON.stringify(request) })).json()

const discovered = await call('DiscoverVariables', 'variables', v1alpha1.sampleRequest(v1alpha1.DiscoverVariables))
console.log(`DiscoverVariables: ${discovered.variables.map((variable: { name: string }) => variable.name).join(', ')}`)

const patches = v1alpha1.sampleRequest(v1alpha1.GeneratePatches)
patches.variables = [
  ...(patches.variables ?? []).filter(variable => variable.name !== 'imageRepository'),
  { name: 'imageRepository', value: 'mirror.example.com' },
  { name: 'nodeFiles', value: [{ path: '/etc/motd', content: 'hello' }] }
]
for (const patchFormat of ['JSONPatch', 'JSONMergePatch']) {
  const answer = await call('GeneratePatches', 'patches', { ...patches, settings: { patchFormat } })
  for (const item of answer.items) console.log(`GeneratePatches ${item.patchType} ${item.uid}: ${Buffer.from(item.patch, 'base64').toString()}`)
}

const topology = v1alpha1.sampleRequest(v1alpha1.ValidateTopology)
console.log(`ValidateTopology: ${(await call('ValidateTopology', 'validate', topology)).status}`)
topology.variables?.push({ name: 'imageRepository', value: 'docker.io' })
const refused = await call('ValidateTopology', 'validate', topology)
console.log(`ValidateTopology with docker.io: ${refused.status}: ${refused.message}`)
await server.close()
