import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { shippedSettings } from '../../bench/lib/shipped.js'
import { defaultV8Flags } from '../../src/cli/v8-flags.js'

t.test('the CLI sets its V8 defaults unless the user gives the same flags', async t => {
  t.same(defaultV8Flags(['serve'], [], undefined), ['--liftoff-only'], 'serve: WebAssembly at its baseline compiler')
  t.same(defaultV8Flags(['serve'], ['--no-liftoff-only'], undefined), [], 'a WebAssembly tier given wins')
  t.same(defaultV8Flags(['serve'], [], '--wasm-dynamic-tiering --no-warnings'), [], 'any tiering flag in NODE_OPTIONS counts')
})

t.test('the controller also favours memory over speed; serve and the other commands do not', async t => {
  t.same(defaultV8Flags(['controller', '--kubeconfig', 'k'], [], undefined), ['--liftoff-only', '--optimize-for-size'])
  t.same(defaultV8Flags(['controller'], [], '--no-optimize-for-size'), ['--liftoff-only'], 'unless the user says otherwise')
  t.same(defaultV8Flags(['controller'], ['--optimize_for_size'], undefined), ['--liftoff-only'], 'underscores too')
  for (const argv of [['serve', '--port', '0'], ['demo'], ['--version'], []]) {
    t.notOk(defaultV8Flags(argv, [], undefined).includes('--optimize-for-size'), argv.join(' ') || '(no command)')
  }
})

// The young generation V8 grows to under a burst of garbage, in MB (new space: two semi-spaces).
const YOUNG = `const v8 = require('node:v8'); let keep = []
for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = [] }
console.log(v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space').space_size / 2 ** 20)`

function youngGenerationMb (nodeOptions: string | undefined): { status: number | null, mb: number, stderr: string } {
  const env = { ...process.env, NODE_OPTIONS: nodeOptions }
  if (nodeOptions === undefined) delete env['NODE_OPTIONS']
  const child = spawnSync(process.execPath, ['-e', YOUNG], { env, encoding: 'utf8' })
  return { status: child.status, mb: Number(child.stdout.trim()), stderr: child.stderr }
}

t.test('the image and the controller\'s Deployment start Node with a small young generation', async t => {
  const shipped = shippedSettings().nodeOptions
  const unbounded = youngGenerationMb(undefined)
  for (const [where, options] of Object.entries(shipped)) {
    const semiSpace = Number(/--max-semi-space-size=(\d+)/.exec(options.join(' '))?.[1])
    t.ok(semiSpace > 0 && semiSpace <= 4, `${where}: a semi-space of a few MB (${options.join(' ')})`)
    const bounded = youngGenerationMb(options.join(' '))
    t.equal(bounded.status, 0, `${where}: Node accepts it in NODE_OPTIONS ${bounded.stderr}`)
    t.ok(bounded.mb <= 2 * semiSpace, `${where}: the young generation stays at ${bounded.mb} MB`)
    t.ok(unbounded.mb > 2 * semiSpace, `without it the same garbage grows it to ${unbounded.mb} MB`)
  }
})

// glibc ignores a tunable it does not know, so a misspelt name in the Dockerfile would change nothing, silently.
// Its dynamic loader lists the tunables it read from GLIBC_TUNABLES (glibc >= 2.33; the image's Debian has 2.36).
const loader = /\s(\/\S*\/ld-linux[^/\s]*\.so\.\d+)$/m.exec(readFileSync('/proc/self/maps', 'utf8'))?.[1]

t.test('the image\'s malloc settings are ones glibc reads', { skip: loader === undefined && 'not glibc' }, async t => {
  const tunables = shippedSettings().glibcTunables
  const listed = spawnSync(loader as string, ['--list-tunables'], { env: { GLIBC_TUNABLES: tunables }, encoding: 'utf8' })
  t.equal(listed.status, 0, listed.stderr)
  for (const setting of tunables.split(':')) {
    const [name, value] = setting.split('=') as [string, string]
    const read = new RegExp(`^${name.replace(/\./g, '\\.')}: (0x[0-9a-f]+|\\d+) `, 'm').exec(listed.stdout)?.[1]
    t.equal(Number(read), Number(value), `${name} is ${value}`)
  }
})
