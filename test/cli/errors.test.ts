// Every command, as a user runs it: good input exits 0; each class of bad input exits 2 (usage or input) or 1 (the
// operation failed) with one line on stderr that says what is wrong, and never a stack trace. The cases run in this
// process (the command tree is the same); a few run as the real process too, to prove main.ts exits with the code.
import { createServer } from 'node:net'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import t from 'tap'
import { stringify } from 'yaml'
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, errorLine } from '../../src/cli/command.js'
import { runCli, runCliHere } from '../helpers/run-cli.js'

t.setTimeout(300_000)
const STACK_FRAME = /^\s+at .+[:(]\d+:\d+\)?$/m
const dir = t.testdir({
  'cluster.yaml': stringify({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' } }),
  'no-handlers.mjs': 'export const something = 1\n',
  'throws.mjs': 'throw new Error("boom at load")\n'
})
const busy = createServer()
await new Promise<void>(resolve => busy.listen(0, '127.0.0.1', resolve))
const busyPort = (busy.address() as { port: number }).port
t.teardown(() => busy.close())
const unreachable = 'http://127.0.0.1:1'
const cluster = join(dir, 'cluster.yaml')

const cases: Array<{ args: string[], code: number, stderr?: RegExp }> = [
  // Good input.
  { args: ['--version'], code: EXIT_OK },
  { args: ['--help'], code: EXIT_OK },
  { args: ['hooks', '-o', 'yaml'], code: EXIT_OK },
  { args: ['openapi', '-o', 'json'], code: EXIT_OK },
  { args: ['completion', 'fish'], code: EXIT_OK },
  // Usage: commands, flags and their values.
  { args: ['bogus'], code: EXIT_USAGE, stderr: /^error: unknown command 'bogus'/ },
  { args: ['hooks', '--bogus'], code: EXIT_USAGE, stderr: /^error: unknown option '--bogus'/ },
  { args: ['hooks', '-o', 'xml'], code: EXIT_USAGE, stderr: /Allowed choices are table, json, yaml/ },
  { args: ['openapi', '--format', 'xml'], code: EXIT_USAGE, stderr: /Allowed choices are yaml, json/ },
  { args: ['completion', 'powershell'], code: EXIT_USAGE, stderr: /Allowed choices are bash, zsh, fish/ },
  { args: ['serve', '--port', '70000'], code: EXIT_USAGE, stderr: /must be a port number/ },
  { args: ['controller', '--rediscovery-interval', 'soon'], code: EXIT_USAGE, stderr: /must be a duration such as 30s/ },
  { args: ['call', 'BeforeClusterCreate'], code: EXIT_USAGE, stderr: /required option '--object <file>' not specified/ },
  // Input: files, URLs, modules, requests.
  { args: ['discover', 'not-a-url'], code: EXIT_USAGE, stderr: /^error: "not-a-url" is neither a URL nor a YAML\/JSON file/ },
  { args: ['discover', join(dir, 'missing.yaml')], code: EXIT_USAGE, stderr: /^error: .*missing\.yaml: no such file or directory$/m },
  { args: ['call', 'BeforeClusterCreate', '--object', join(dir, 'missing.yaml'), '--url', 'https://127.0.0.1:1'], code: EXIT_USAGE, stderr: /missing\.yaml: no such file or directory/ },
  { args: ['call', 'BeforeClusterCreate', '--object', cluster], code: EXIT_USAGE, stderr: /^error: no extensions to call: pass --extension-configs <path> or --url <url>$/m },
  { args: ['call', 'NoSuchHook', '--object', cluster, '--url', 'https://127.0.0.1:1'], code: EXIT_USAGE, stderr: /NoSuchHook.* is not registered/ },
  { args: ['call', 'BeforeClusterUpgrade', '--object', cluster, '--url', 'https://127.0.0.1:1'], code: EXIT_USAGE, stderr: /^error: the BeforeClusterUpgrade request is invalid: .*fromKubernetesVersion.*; pass --from-kubernetes-version and --to-kubernetes-version$/m },
  { args: ['call', 'GeneratePatches', '--object', cluster, '--url', 'https://127.0.0.1:1'], code: EXIT_USAGE, stderr: /^error: a GeneratePatches request has no cluster field .*: pass the whole request with --request <file>$/m },
  { args: ['serve', '--handlers', join(dir, 'missing.mjs')], code: EXIT_USAGE, stderr: /^error: --handlers .*missing\.mjs: no such file$/m },
  { args: ['serve', '--handlers', join(dir, 'no-handlers.mjs')], code: EXIT_USAGE, stderr: /must export an array of extension handlers/ },
  { args: ['serve', '--handlers', join(dir, 'throws.mjs')], code: EXIT_USAGE, stderr: /^error: --handlers .*throws\.mjs cannot be loaded: boom at load$/m },
  { args: ['serve', '--tls-cert-file', join(dir, 'missing.crt'), '--tls-private-key-file', join(dir, 'missing.key'), '--port', '0'], code: EXIT_USAGE, stderr: /missing\.(crt|key): no such file or directory/ },
  { args: ['serve', '--tls-cert-file', join(dir, 'missing.crt')], code: EXIT_USAGE, stderr: /^error: --tls-cert-file and --tls-private-key-file go together$/m },
  { args: ['controller', '--client-certificate', 'c.crt'], code: EXIT_USAGE, stderr: /^error: --client-certificate and --client-key go together$/m },
  { args: ['controller', '--metrics-host', '0.0.0.0'], code: EXIT_USAGE, stderr: /^error: --metrics-host 0\.0\.0\.0 is not a loopback address: plain HTTP stays on 127\.0\.0\.1; add --metrics-secure to serve HTTPS with Kubernetes authentication$/m },
  { args: ['controller', '--extension-configs', dir, '--metrics-secure'], code: EXIT_USAGE, stderr: /^error: --metrics-secure checks callers with TokenReview and SubjectAccessReview: it needs Kubernetes mode, not --extension-configs$/m },
  { args: ['controller', '--metrics-cert-dir', dir], code: EXIT_USAGE, stderr: /^error: --metrics-cert-dir goes with --metrics-secure$/m },
  { args: ['conformance'], code: EXIT_USAGE, stderr: /^error: pass the https URL of the extension/ },
  { args: ['status', '--url', 'not a url'], code: EXIT_USAGE, stderr: /is not a URL/ },
  // The operation failed.
  { args: ['serve', '--insecure-http', '--port', String(busyPort)], code: EXIT_FAILED, stderr: new RegExp(`^error: 127\\.0\\.0\\.1:${busyPort} is already in use: stop what listens there or choose another port$`, 'm') },
  { args: ['status', '--url', unreachable], code: EXIT_FAILED, stderr: /^error: cannot reach the controller at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED.*; is it running/m },
  { args: ['preflight', '--url', unreachable], code: EXIT_FAILED, stderr: /cannot reach the controller/ },
  { args: ['discover', 'https://127.0.0.1:1'], code: EXIT_FAILED, stderr: /^error: failed to discover extension "extension": http call failed: .*ECONNREFUSED/m }
]

for (const c of cases) {
  t.test(`runtime-sdk ${c.args.join(' ')}`, async t => {
    const res = await runCliHere(c.args)
    t.equal(res.code, c.code, res.stderr)
    t.notMatch(res.stderr, STACK_FRAME, 'no stack trace')
    if (c.stderr) t.match(res.stderr, c.stderr)
    if (c.code !== EXIT_OK) t.ok(res.stderr.trim().split('\n').length <= 2, 'one line (and the pointer to --help)')
  })
}

t.test('the process exits with the command\'s code and prints its one line', async t => {
  // One process: main.ts only hands the code of runCommand (tested above for every case) to the process.
  for (const c of [cases.find(c => c.code === EXIT_FAILED)]) {
    if (c === undefined) continue
    // Through the TypeScript loader a CLI process takes 7-10 s to start on 2 cores, twice that under npm test's load.
    const res = await runCli(c.args, { timeoutMs: 60_000 })
    t.equal(res.code, c.code, `runtime-sdk ${c.args.join(' ')}: ${res.stderr}`)
    t.notMatch(res.stderr, STACK_FRAME, 'no stack trace')
    if (c.stderr) t.match(res.stderr, c.stderr)
  }
})

t.test('--version names the version, the commit and the hook versions', async t => {
  const res = await runCliHere(['--version'])
  t.match(res.stdout, /^runtime-sdk \d+\.\d+\.\d+\ncommit: \S+\nhooks: hooks\.runtime\.cluster\.x-k8s\.io v1alpha1\nnode: v\d+/)
})

t.test('the completion scripts are valid for their shells and know every command', async t => {
  for (const shell of ['bash', 'zsh']) {
    const script = (await runCliHere(['completion', shell])).stdout
    t.match(script, /complete -o default -F _runtime_sdk runtime-sdk/)
    t.match(script, /conformance\)[\s\S]*--certificate-authority/)
    t.notMatch(script, /--ca-bundle/, 'old flag names stay hidden')
    const check = spawnSync('bash', ['-n'], { input: script })
    t.equal(check.status, 0, `${shell}: ${check.stderr.toString()}`)
  }
  const fish = (await runCliHere(['completion', 'fish'])).stdout
  t.match(fish, /complete -c runtime-sdk -n '__fish_seen_subcommand_from call' -l output -s o -x -a 'table json yaml'/)
})

t.test('errorLine says what to do about common system errors', async t => {
  const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', address: '0.0.0.0', port: 8080 })
  t.equal(errorLine(inUse), '0.0.0.0:8080 is already in use: stop what listens there or choose another port')
  const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/x'"), { code: 'ENOENT', path: '/x' })
  t.equal(errorLine(missing), '/x: no such file or directory')
  t.equal(errorLine(new Error('first\n  second')), 'first; second')
})
