import t from 'tap'
import { defaultV8Flags } from '../../src/cli/v8-flags.js'

t.test('the CLI sets its V8 defaults unless the user gives the same flags', async t => {
  t.same(defaultV8Flags([], undefined), ['--max-semi-space-size=4', '--liftoff-only'], 'both by default')
  t.same(defaultV8Flags(['--max-semi-space-size=16'], undefined), ['--liftoff-only'], 'a young generation on the command line wins')
  t.same(defaultV8Flags([], '--max_semi_space_size=8 --no-warnings'), ['--liftoff-only'], 'one in NODE_OPTIONS, underscores too')
  t.same(defaultV8Flags(['--no-liftoff-only'], undefined), ['--max-semi-space-size=4'], 'a WebAssembly tier given wins')
  t.same(defaultV8Flags([], '--wasm-dynamic-tiering'), ['--max-semi-space-size=4'], 'any tiering flag counts')
})
