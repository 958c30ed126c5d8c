// Scenario 2: our extension server as the image runs it, the built `runtime-sdk serve` (logging at warn): with the
// trivial handlers of bench/servers/trivial-handlers.mjs, and with the reference extension; and `serve --workers 2`
// given all cores. Every request is read, schema-validated, answered against its deadline, the response validated
// and counted in the metrics.
import { join } from 'node:path'
import type { Scenario, ScenarioContext } from '../lib/context.js'
import { repoRoot } from '../lib/context.js'
import { serverCaseId, type Transport } from '../lib/ids.js'
import type { ServerUnderTest } from '../lib/types.js'
import { ensureBuilt, untracedCli } from '../lib/build.js'
import { cliCommand } from '../lib/shipped.js'

const READY = /^(?:serving .* at|\d+ workers serve) (https?:\/\/\S+?)[;]?$/

function serve (ctx: ScenarioContext, transport: Transport, nodeFlags: string[], extra: string[], cli?: string): string[] {
  const tls = transport === 'https' ? ['--tls-cert-file', join(ctx.certDir, 'tls.crt'), '--tls-private-key-file', join(ctx.certDir, 'tls.key')] : ['--insecure-http']
  return cliCommand('serve', ['--port', '0', '--host', '127.0.0.1', '--log-level', 'warn', ...tls, ...extra], nodeFlags, cli)
}

function ourServer (ctx: ScenarioContext, key: string, system: string, extra: string[], options: Partial<ServerUnderTest> = {}): ServerUnderTest {
  return {
    key,
    system,
    transports: ['http', 'https'],
    readyLine: READY,
    unavailable: async () => { ensureBuilt(); return undefined },
    command: async (transport, nodeFlags) => serve(ctx, transport, nodeFlags, extra),
    compare: (workload, transport, connections) => ({ kind: 'throughput', baseline: serverCaseId('floor', workload.id, transport, connections) }),
    ...options
  }
}

const trivialHandlers = ['--handlers', join(repoRoot, 'bench/servers/trivial-handlers.mjs')]
let untraced: string | undefined

export const ourServerScenario: Scenario = {
  id: '2',
  name: 'Our server: runtime-sdk serve',
  description: 'The built `runtime-sdk serve` at `--log-level warn`, with the image\'s NODE_OPTIONS: `ours` serves trivial synchronous handlers answering Success ' +
    '(`bench/servers/trivial-handlers.mjs`), `ours-untraced` the same built with `@opentelemetry/api` replaced by ' +
    '`bench/servers/otel-api-absent.mjs` (the hook path without tracing), `ours-ref` the reference extension (its GeneratePatches builds one JSON patch per ' +
    'template, like the Go peer\'s). Requests are validated, answered against their deadline, responses validated and counted. ' +
    'Ratio: req/s of the floor (scenario 1) on the same body, transport and connections.',
  columns: ['system', 'workload', 'transport', 'connections'],
  rateUnit: 'req/s',
  servers: (ctx) => [
    ourServer(ctx, 'ours', 'runtime-sdk serve (trivial handlers)', trivialHandlers),
    // The same server built without tracing: what tracing costs the hook path when it is off.
    ourServer(ctx, 'ours-untraced', 'runtime-sdk serve (trivial handlers) without tracing', [], {
      transports: ['https'],
      only: (workload, _transport, connections) => workload.id === 'bcc-5k' && connections === 10,
      unavailable: async () => { untraced ??= untracedCli(); return undefined },
      command: async (transport, nodeFlags) => serve(ctx, transport, nodeFlags, trivialHandlers, untraced),
      compare: (workload, transport, connections) => ({ kind: 'throughput', baseline: serverCaseId('ours', workload.id, transport, connections) })
    }),
    ourServer(ctx, 'ours-ref', 'runtime-sdk serve (reference extension)', []),
    ourServer(ctx, 'ours-workers', 'runtime-sdk serve --workers 2 (all cores)', ['--workers', '2'], {
      transports: ['https'],
      allCores: true,
      only: (workload, _transport, connections) => workload.id === 'bcc-5k' && connections === 10,
      compare: (workload, transport, connections) => ({ kind: 'throughput', baseline: serverCaseId('capi-go-all', workload.id, transport, connections) })
    })
  ]
}
