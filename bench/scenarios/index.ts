// The scenario modules `npm run bench` runs, in order. Each is a Scenario (bench/lib/context.ts): an id, a table
// description, and either `server(ctx)` (a server put under HTTP load; all of them are measured side by side) or
// `run(ctx)` returning its own cases. Scenarios may compare against others' cases by case id.
import type { Scenario } from '../lib/context.js'
import { capiGoScenario } from './capi-go.js'
import { clientScenario } from './client.js'
import { controllerScenario } from './controller.js'
import { floorScenario } from './floor.js'
import { footprintScenario } from './footprint.js'
import { hostileScenario } from './hostile.js'
import { impactScenario } from './impact.js'
import { ourServerScenario } from './our-server.js'

export const scenarios: Scenario[] = [floorScenario, ourServerScenario, capiGoScenario, clientScenario, controllerScenario, footprintScenario, hostileScenario, impactScenario]
