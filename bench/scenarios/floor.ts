// Scenario 1: the floor for a JSON hook in Node — bare node:http(s), parse the body, stringify a Success response.
import { nodeScript, type Scenario } from '../lib/context.js'
import { asInImage } from '../lib/shipped.js'

export const floorScenario: Scenario = {
  id: '1',
  name: 'Floor: bare node:http',
  description: 'A bare `node:http`/`node:https` server that reads the body, `JSON.parse`s it and `JSON.stringify`s a Success response: ' +
    'the most a JSON hook can do in one Node process on this machine (with the image\'s NODE_OPTIONS and GLIBC_TUNABLES, like ours). Scenarios 2 and 3 are shown as a ratio of it.',
  columns: ['workload', 'transport', 'connections'],
  rateUnit: 'req/s',
  servers: (ctx) => [{
    key: 'floor',
    system: 'node:http floor',
    transports: ['http', 'https'],
    command: async (transport, nodeFlags) => [...asInImage(nodeScript('servers/floor.ts', nodeFlags)), '--transport', transport, '--cert-dir', ctx.certDir]
  }]
}
