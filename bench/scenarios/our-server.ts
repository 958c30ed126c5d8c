// Scenario 2: our extension server (createExtensionServer) on the same requests as the floor.
import { nodeScript, type Scenario } from '../lib/context.js'
import { serverCaseId } from '../lib/ids.js'

export const ourServerScenario: Scenario = {
  id: '2',
  name: 'Our server: createExtensionServer',
  description: 'createExtensionServer with a trivial BeforeClusterCreate handler returning Success, and the reference extension\'s ' +
    'GeneratePatches handler (one JSON patch per template). Every request is read, schema-validated, handled against its ' +
    'deadline, the response validated and counted in the metrics; logging at `warn`. Ratio: req/s of the floor (scenario 1) ' +
    'on the same body, transport and connections.',
  columns: ['workload', 'transport', 'connections'],
  rateUnit: 'req/s',
  server: (ctx) => ({
    key: 'ours',
    system: 'runtime-sdk server',
    transports: ['http', 'https'],
    command: async (transport, nodeFlags) => [...nodeScript('servers/ours.ts', nodeFlags), '--transport', transport, '--cert-dir', ctx.certDir],
    compare: (workload, transport, connections) => ({ kind: 'throughput', baseline: serverCaseId('floor', workload.id, transport, connections) })
  })
}
