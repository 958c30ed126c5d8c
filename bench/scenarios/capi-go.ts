// Scenario 3: Cluster API's Go server SDK (sigs.k8s.io/cluster-api/exp/runtime/server, CAPI v1.14) serving the same
// requests over HTTPS, started like the interop tests do (tools/capi-interop, built and cached by tools/build.sh).
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { buildCapiInterop } from '../../tools/harness/capi-interop.js'
import type { Scenario } from '../lib/context.js'
import type { ServerUnderTest } from '../lib/types.js'
import { serverCaseId } from '../lib/ids.js'

export const capiGoScenario: Scenario = {
  id: '3',
  name: 'Cluster API Go server SDK',
  description: 'Cluster API\'s own server SDK (v1.14, `tools/capi-interop/cmd/extension`), its handlers named like ours: ' +
    '`before-cluster-create` answers Success with a message and logs one line per call (as Cluster API\'s test extension ' +
    'does), `generate-patches` builds one patch per template. HTTPS only, like Cluster API. Pinned to one core, Go runs with ' +
    'GOMAXPROCS=1, as Node runs JavaScript on one thread; `capi-go-all` is unpinned, with its default GOMAXPROCS (all cores), ' +
    'against `serve --workers 2`. Ratio: req/s of the floor (scenario 1).',
  columns: ['system', 'workload', 'transport', 'connections'],
  rateUnit: 'req/s',
  servers: (ctx) => {
    let bin: string | undefined
    const go: ServerUnderTest = {
      key: 'capi-go',
      system: 'Cluster API Go server (GOMAXPROCS=1)',
      transports: ['https'],
      unavailable: async () => {
        bin = await buildCapiInterop()
        return bin === undefined ? 'go is not installed (needed to build tools/capi-interop)' : undefined
      },
      command: async () => [join(bin as string, 'extension'), '--port', '0', '--cert-dir', mkdtempSync(join(ctx.workDir, 'capi-go-certs-'))],
      compare: (workload, transport, connections) => ({ kind: 'throughput', baseline: serverCaseId('floor', workload.id, transport, connections) })
    }
    // Unpinned, Go schedules goroutines on every core (GOMAXPROCS defaults to their number): the peer of serve --workers.
    const goAllCores: ServerUnderTest = {
      ...go,
      key: 'capi-go-all',
      system: 'Cluster API Go server (all cores)',
      allCores: true,
      only: (workload, _transport, connections) => workload.id === 'bcc-5k' && connections === 10,
      compare: undefined
    }
    return [go, goAllCores]
  }
}
