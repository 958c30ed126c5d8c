// The scenario modules `npm run bench` runs, in order. Each is a Scenario (bench/lib/context.ts): an id, a table
// description, and either `server(ctx)` (a server put under HTTP load; all of them are measured side by side) or
// `run(ctx)` returning its own cases. Scenarios may compare against others' cases by case id.
//
// Extension point: scenario 5 (the ExtensionConfig controller discovering 1, 100 and 1,000 ExtensionConfigs against
// the real control plane — time to all-Discovered and RSS) is added here as one more module with a `run(ctx)`, e.g.
// `bench/scenarios/controller.ts` exporting `controllerScenario`, using test/e2e/control-plane.ts's
// startControlPlane() and reporting one case per ExtensionConfig count (durations as Runs, RSS as rssMb). Its budget
// is the ~5 minutes left of the 15-minute `npm run bench`; its targets go in bench/lib/targets.ts.
import type { Scenario } from '../lib/context.js'
import { capiGoScenario } from './capi-go.js'
import { clientScenario } from './client.js'
import { floorScenario } from './floor.js'
import { ourServerScenario } from './our-server.js'

export const scenarios: Scenario[] = [floorScenario, ourServerScenario, capiGoScenario, clientScenario]
