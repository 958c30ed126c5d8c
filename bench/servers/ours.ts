// Scenario 2: our extension server (createExtensionServer) with a trivial BeforeClusterCreate handler and the
// reference extension's GeneratePatches handler, named like Cluster API's Go peer so the paths are the same.
// Logging is at warn: fastify's per-request info logs would be measured otherwise (they are off in production
// configurations that care about throughput; the Go peer's handlers log one line per call to stderr).
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer, defineHandler } from '../../src/server/index.js'
import { join } from 'node:path'
import { announce, childOptions, exitOnSignal } from './child.js'

const options = childOptions()
const generatePatches = referenceHandlers().find(h => h.name === 'generate-patches')
if (!generatePatches) throw new Error('the reference extension has no generate-patches handler')

const server = createExtensionServer({
  handlers: [
    defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: () => ({ status: 'Success' }) }),
    generatePatches
  ],
  ...(options.transport === 'https' ? { tls: { certFile: join(options.certDir, 'tls.crt'), keyFile: join(options.certDir, 'tls.key') } } : { insecureHttp: true }),
  logLevel: process.env['BENCH_LOG_LEVEL'] ?? 'warn'
})
const url = await server.listen({ port: 0, host: '127.0.0.1' })
announce({ url })
exitOnSignal(() => server.close())
