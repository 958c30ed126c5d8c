// `runtime-sdk serve --handlers bench/servers/trivial-handlers.mjs`: the cheapest handlers a user can write, answering
// Success synchronously, named like the peers' handlers so that the benchmark paths are the same. Plain JavaScript on
// the built package (dist/), as a user's module would be.
import { defineHandler, v1alpha1 } from '../../dist/src/index.js'

export default [
  defineHandler({ hook: v1alpha1.BeforeClusterCreate, name: 'before-cluster-create', handler: () => ({ status: 'Success' }) }),
  defineHandler({ hook: v1alpha1.GeneratePatches, name: 'generate-patches', handler: () => ({ status: 'Success', items: [] }) })
]
