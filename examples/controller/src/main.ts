// A controller's side: register an extension from an ExtensionConfig, discover its handlers, and call hooks.
// Run: node dist/main.js <extension-url> <ca-file>
import { readFileSync } from 'node:fs'
import { HttpRuntimeClient, RuntimeCallError, v1alpha1, type ExtensionConfig } from 'runtime-sdk'
import { sampleRequest } from 'runtime-sdk/testing'

const [url, caFile] = process.argv.slice(2)
if (!url || !caFile) {
  console.error('usage: node dist/main.js <extension-url> <ca-file>')
  process.exit(2)
}

const extensionConfig: ExtensionConfig = {
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'example' },
  spec: {
    clientConfig: { url, caBundle: readFileSync(caFile).toString('base64') },
    namespaceSelector: {}
  }
}

const client = new HttpRuntimeClient()
try {
  // Discovery fills status.handlers; warming up registers every ExtensionConfig at once and makes the client ready.
  const discovered = await client.discover(extensionConfig)
  client.warmUp([discovered])
  console.log('handlers:', discovered.status?.handlers?.map(h => `${h.name} (${h.requestHook.hook})`).join(', '))

  const upgrade = sampleRequest(v1alpha1.BeforeClusterUpgrade)
  const { response, handlers } = await client.callAllExtensions(v1alpha1.BeforeClusterUpgrade, upgrade.cluster, upgrade)
  console.log(`BeforeClusterUpgrade: retryAfterSeconds=${response.retryAfterSeconds} message=${JSON.stringify(response.message ?? '')}`)
  for (const h of handlers) console.log(`  ${h.name}: ${h.outcome} in ${h.durationMs.toFixed(1)} ms`)

  const patches = sampleRequest(v1alpha1.GeneratePatches)
  const result = await client.callExtension(v1alpha1.GeneratePatches, upgrade.cluster, 'team-label.example', patches)
  for (const item of result.response.items ?? []) console.log(`GeneratePatches ${item.uid}: ${Buffer.from(item.patch ?? '', 'base64').toString('utf8')}`)

  const variables = await client.callExtension(v1alpha1.DiscoverVariables, upgrade.cluster, 'team-variable.example', sampleRequest(v1alpha1.DiscoverVariables))
  console.log('DiscoverVariables:', (variables.response.variables ?? []).map(v => v.name).join(', '))
} catch (err) {
  if (!(err instanceof RuntimeCallError)) throw err
  console.error(`error: ${err.message}`)
  for (const h of err.handlers) console.error(`  ${h.name}: ${h.outcome} ${h.error ?? ''}`)
  process.exitCode = 1
} finally {
  await client.close()
}
