// An extension mounted in an existing fastify app, next to the app's own routes:
// - BeforeClusterUpgrade blocks an upgrade until a backup is marked done (POST /backups/<namespace>/<cluster>).
// - GeneratePatches adds a label to every template with a JSON patch.
// - DiscoverVariables declares the typed variable the patch reads.
// Run: node dist/main.js [port] [cert-dir]; it prints one JSON line with its URL and CA file.
import Fastify from 'fastify'
import { readFileSync } from 'node:fs'
import { runtimeExtension, v1alpha1 } from 'runtime-sdk'
import { writeLoopbackServingCertificate } from 'runtime-sdk/testing'

const port = Number(process.argv[2] ?? 9443)
const certs = await writeLoopbackServingCertificate(process.argv[3] ?? 'certs', 'example CA')
const backedUp = new Set<string>()

const app = Fastify({ https: { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) } })
app.post<{ Params: { namespace: string, name: string } }>('/backups/:namespace/:name', async (request) => {
  backedUp.add(`${request.params.namespace}/${request.params.name}`)
  return { backedUp: [...backedUp] }
})

await app.register(runtimeExtension({
  handlers: [
    {
      hook: v1alpha1.BeforeClusterUpgrade,
      name: 'wait-for-backup',
      timeoutSeconds: 5,
      failurePolicy: 'Fail',
      handler: (request) => {
        const key = `${request.cluster.metadata.namespace ?? ''}/${request.cluster.metadata.name ?? ''}`
        return backedUp.has(key)
          ? { status: 'Success', message: `backup of ${key} done, upgrading to ${request.toKubernetesVersion}` }
          : { status: 'Success', message: `waiting for the backup of ${key}`, retryAfterSeconds: 30 }
      }
    },
    {
      hook: v1alpha1.GeneratePatches,
      name: 'team-label',
      handler: (request) => ({
        status: 'Success',
        items: (request.items ?? []).map(item => {
          const team = [...(request.variables ?? []), ...(item.variables ?? [])].find(v => v.name === 'team')?.value
          const patch = [{ op: 'add', path: '/metadata/labels', value: { 'example.com/team': typeof team === 'string' ? team : 'platform' } }]
          return { uid: item.uid, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') }
        })
      })
    },
    {
      hook: v1alpha1.DiscoverVariables,
      name: 'team-variable',
      handler: async () => ({
        status: 'Success',
        variables: [{ name: 'team', required: false, schema: { openAPIV3Schema: { type: 'string', description: 'team owning the cluster', default: 'platform' } } }]
      })
    }
  ]
}))

const url = await app.listen({ port, host: '127.0.0.1' })
console.log(JSON.stringify({ url, caFile: certs.caFile }))
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { app.close().catch(() => process.exit(1)) })
