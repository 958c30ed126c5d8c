import t from 'tap'
import { defaultV8Flags } from '../../src/cli/v8-flags.js'

t.test('the CLI sets its V8 defaults unless the user gives the same flags', async t => {
  t.same(defaultV8Flags(['serve'], [], undefined), ['--max-semi-space-size=4', '--liftoff-only'], 'serve: both by default')
  t.same(defaultV8Flags(['serve'], ['--max-semi-space-size=16'], undefined), ['--liftoff-only'], 'a young generation on the command line wins')
  t.same(defaultV8Flags(['serve'], [], '--max_semi_space_size=8 --no-warnings'), ['--liftoff-only'], 'one in NODE_OPTIONS, underscores too')
  t.same(defaultV8Flags(['serve'], ['--no-liftoff-only'], undefined), ['--max-semi-space-size=4'], 'a WebAssembly tier given wins')
  t.same(defaultV8Flags(['serve'], [], '--wasm-dynamic-tiering'), ['--max-semi-space-size=4'], 'any tiering flag counts')
})

t.test('the controller also favours memory over speed; serve and the other commands do not', async t => {
  t.same(defaultV8Flags(['controller', '--kubeconfig', 'k'], [], undefined), ['--max-semi-space-size=1', '--liftoff-only', '--optimize-for-size'])
  t.same(defaultV8Flags(['controller'], ['--max-semi-space-size=8'], '--no-optimize-for-size'), ['--liftoff-only'], 'unless the user says otherwise')
  for (const argv of [['serve', '--port', '0'], ['demo'], ['--version'], []]) {
    t.notOk(defaultV8Flags(argv, [], undefined).includes('--optimize-for-size'), argv.join(' ') || '(no command)')
  }
})
