// The package as adopters get it: `npm pack`, the tarball installed into a clean copy of examples/, the examples
// compiled strict without skipLibCheck and run (the extension and controller against each other, the topology
// example on sample requests), and the type tests of examples/types (compile errors proven with @ts-expect-error).
// Slow (installs and five strict compiles): excluded from `npm test`, run by
// .ci/run as the "package" suite: npx tap --disable-coverage --timeout=600 test/package/package.test.ts
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

t.setTimeout(600_000)

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'runtime-sdk-package-'))
const examples = join(work, 'examples')
t.teardown(() => rmSync(work, { recursive: true, force: true }))

// Children get a plain environment: no npm lifecycle variables of the npm running tap, no tap loader.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|tap)/i.test(k) && k !== 'NODE_OPTIONS'))

interface Run { code: number | null, stdout: string, stderr: string, output: string }

function run (command: string, args: string[], cwd: string, timeoutMs = 180_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let output = ''
    child.stdout.on('data', d => { stdout += d; output += d })
    child.stderr.on('data', d => { stderr += d; output += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr, output }) })
  })
}

/** The README's extension example: the first ```ts block that calls createExtensionServer. */
function readmeExample (): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map(m => m[1] ?? '').find(b => b.includes('createExtensionServer('))
  if (block === undefined) throw new Error('README.md has no ```ts block calling createExtensionServer')
  return block
}

/** The README example with a status that is not one, marked as the compile error it must be. */
function bogusVariant (example: string): string {
  const lines = example.split('\n')
  const at = lines.findIndex(l => l.includes("status: 'Success'"))
  if (at < 0 || lines.filter(l => l.includes("status: 'Success'")).length !== 1) throw new Error("the README example must have exactly one status: 'Success'")
  const line = lines[at] ?? ''
  lines.splice(at, 1, `${/^\s*/.exec(line)?.[0] ?? ''}// @ts-expect-error TS2322 'Bogus' is not a response status`, line.replace("status: 'Success'", "status: 'Bogus'"))
  return lines.join('\n')
}

/** The TypeScript blocks of the README and docs/ that are not marked as an example file (those are checked verbatim). */
function docSnippets (): Array<{ page: string, text: string }> {
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)]
  return pages.flatMap(page => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/(<!-- example: \S+ -->\n)?```ts\n([\s\S]*?)```/g)]
    .filter(m => m[1] === undefined)
    .map(m => ({ page, text: m[2] ?? '' })))
}

const NOT_COPIED = new Set(['node_modules', 'dist', 'certs', 'package-lock.json', 'runtime-sdk.tgz'])
let packed = false
let installed = false

await t.test('npm pack builds a tarball with the build output and without tests, benchmarks, examples or source maps', async t => {
  const pack = await run('npm', ['pack', '--pack-destination', work], ROOT)
  t.equal(pack.code, 0, 'npm pack (prepare builds) succeeds', { output: pack.output })
  const tarballs = readdirSync(work).filter(f => f.endsWith('.tgz'))
  t.equal(tarballs.length, 1, 'one tarball')
  if (pack.code !== 0 || tarballs.length !== 1) return
  const tarball = join(work, tarballs[0] ?? '')

  const list = await run('tar', ['-tzf', tarball], work)
  t.equal(list.code, 0, 'tar lists the tarball', { output: list.output })
  const files = list.stdout.split('\n').filter(Boolean)
  t.same(files.filter(f => f.split('/').some(segment => ['test', 'tests', 'bench', 'examples', 'tools', 'coverage', '.tap'].includes(segment))), [], 'no test, bench, examples or tools files')
  t.same(files.filter(f => f.endsWith('.map')), [], 'no source maps')
  t.same(files.filter(f => !f.startsWith('package/')), [], 'everything under package/')
  for (const f of ['package/package.json', 'package/LICENSE', 'package/README.md', 'package/dist/src/index.js', 'package/dist/src/index.d.ts', 'package/openapi/runtime-sdk.json']) {
    t.ok(files.includes(f), `has ${f}`)
  }
  // Every export of package.json resolves inside the tarball.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>, bin: Record<string, string> }
  const targets = [...Object.values(pkg.exports).flatMap(e => typeof e === 'string' ? [e] : Object.values(e)), ...Object.values(pkg.bin)]
  t.same(targets.map(p => `package/${p.replace(/^\.\//, '')}`).filter(p => !files.includes(p)), [], 'every exports and bin target is packed')

  cpSync(join(ROOT, 'examples'), examples, { recursive: true, filter: src => !NOT_COPIED.has(basename(src)) })
  renameSync(tarball, join(examples, 'runtime-sdk.tgz'))
  packed = true
})

await t.test('the examples install the tarball into clean directories, with no engine warning', { skip: !packed && 'no tarball' }, async t => {
  let ok = true
  for (const name of ['extension', 'controller', 'types', 'topology', 'getting-started', 'upgrade', 'in-place']) {
    const install = await run('npm', ['install', '--no-audit', '--no-fund'], join(examples, name))
    t.equal(install.code, 0, `npm install in examples/${name}`, { output: install.output })
    t.notMatch(install.output, /EBADENGINE/, `no EBADENGINE in examples/${name}`)
    t.ok(existsSync(join(examples, name, 'node_modules', 'runtime-sdk', 'dist', 'src', 'index.js')), `examples/${name} has runtime-sdk from the tarball`)
    ok &&= install.code === 0
  }
  installed = ok
})

/**
 * The commands of the README and docs/ that run `runtime-sdk` on files of examples/: every line of a ```sh block that
 * starts with `runtime-sdk ` and names a path under examples/.
 */
function docExampleCommands (): Array<{ page: string, command: string }> {
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)]
  return pages.flatMap(page => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap(m => (m[1] ?? '').split('\n'))
    .filter(line => line.startsWith('runtime-sdk ') && /(^|\s)examples\//.test(line))
    .map(command => ({ page, command: command.replace(/\s+#.*$/, '') })))
}

let compiled = false

await t.test('the examples compile with strict settings and without skipLibCheck', { skip: !installed && 'not installed' }, async t => {
  for (const [name, emitted] of [['extension', 'main.js'], ['controller', 'main.js'], ['topology', 'main.js'], ['getting-started', 'handlers.js'], ['upgrade', 'ntp.js'], ['in-place', 'main.js']] as const) {
    const dir = join(examples, name)
    const config = await run('npx', ['--no', '--', 'tsc', '-p', '.', '--showConfig'], dir)
    const options = (JSON.parse(config.stdout) as { compilerOptions: Record<string, unknown> }).compilerOptions
    t.match(options, { strict: true, skipLibCheck: false, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, `examples/${name} is checked strictly, libraries included`)
    const tsc = await run('npx', ['--no', '--', 'tsc', '-p', '.'], dir)
    t.equal(tsc.code, 0, `tsc -p examples/${name}`, { output: tsc.output })
    t.ok(existsSync(join(dir, 'dist', emitted)), `examples/${name}/dist/${emitted} is emitted`)
  }
  compiled = t.passing()
})

let extension: ChildProcess | undefined
t.teardown(() => { if (extension?.exitCode === null && extension.signalCode === null) extension.kill('SIGKILL') })

/** Starts the example extension and resolves with the JSON line it prints once it listens. */
function startExtension (): Promise<{ url: string, caFile: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js', '0', join(work, 'certs')], { cwd: join(examples, 'extension'), env, stdio: ['ignore', 'pipe', 'pipe'] })
    extension = child
    setTimeout(() => child.kill('SIGKILL'), 120_000).unref()
    let stdout = ''
    let stderr = ''
    const failed = setTimeout(() => reject(new Error(`the extension printed no line in 30 s: ${stdout}${stderr}`)), 30_000)
    child.stderr.on('data', d => { stderr += d })
    child.stdout.on('data', d => {
      stdout += d
      const newline = stdout.indexOf('\n')
      if (newline < 0) return
      clearTimeout(failed)
      try { resolve(JSON.parse(stdout.slice(0, newline)) as { url: string, caFile: string }) } catch (err) { reject(err) }
    })
    child.on('error', reject)
    child.on('exit', code => { clearTimeout(failed); reject(new Error(`the extension exited (${code}) before listening: ${stdout}${stderr}`)) })
  })
}

function post (url: string, ca: Buffer): Promise<{ status: number | undefined, body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', ca, headers: { 'content-length': '0' }, timeout: 10_000 }, res => {
      let body = ''
      res.on('data', d => { body += d })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.end()
  })
}

const handlerLine = (line: string) => line.replace(/ in \d+(\.\d+)? ms$/, ' in N ms')
const patch = [{ op: 'add', path: '/metadata/labels', value: { 'example.com/team': 'platform' } }]

await t.test('every runtime-sdk command the docs run on the shipped example files exits 0 (the examples built); simulate\'s in under 5 seconds', { skip: !compiled && 'not compiled' }, async t => {
  const commands = docExampleCommands()
  t.ok(commands.some(c => c.command.startsWith('runtime-sdk simulate ')), 'docs/simulate.md runs simulate on examples/simulate/')
  const bin = join(examples, 'extension', 'node_modules', '.bin')
  for (const { page, command } of commands) {
    // bash's time gives the CPU the command took: on a machine shared with other work the wall clock says little.
    const started = Date.now()
    const result = await run('bash', ['-c', `TIMEFORMAT='cpu %U %S'; time PATH="${bin}:$PATH" ${command}`], work)
    const wall = Date.now() - started
    t.equal(result.code, 0, `${page}: ${command} exits 0`, { output: result.output })
    if (!command.startsWith('runtime-sdk simulate ')) continue
    t.match(result.stdout, /The cluster was created, upgraded to v1\.35\.0 and deleted/)
    const [user = 0, system = 0] = (/cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr)?.slice(1) ?? []).map(Number)
    t.ok(user + system > 0 && user + system < 5, `${(user + system).toFixed(2)} s of CPU (${wall} ms wall clock)`)
  }
})

await t.test('the controller example discovers the extension example and calls its hooks', { skip: !compiled && 'not compiled' }, async t => {
  const { url, caFile } = await startExtension()
  t.match(url, /^https:\/\/127\.0\.0\.1:\d+$/, 'the extension listens on 127.0.0.1 over HTTPS')
  t.ok(existsSync(caFile), 'the CA file exists')

  const controller = () => run(process.execPath, ['dist/main.js', url, caFile], join(examples, 'controller'), 60_000)
  const first = await controller()
  t.equal(first.code, 0, 'the controller exits 0', { output: first.output })
  t.equal(first.stderr, '', 'and writes nothing to stderr')
  t.same(first.stdout.trimEnd().split('\n').map(handlerLine), [
    'handlers: wait-for-backup.example (BeforeClusterUpgrade), team-label.example (GeneratePatches), team-variable.example (DiscoverVariables)',
    'BeforeClusterUpgrade: retryAfterSeconds=30 message="waiting for the backup of default/sample"',
    '  wait-for-backup.example: success in N ms',
    `GeneratePatches 7091de79-e26c-4af5-8be3-071bc4b102c9: ${JSON.stringify(patch)}`,
    `GeneratePatches 1c5e4a7d-56b2-4a8f-9a44-0f8fbd5a2f6e: ${JSON.stringify(patch)}`,
    'DiscoverVariables: team'
  ], 'discovery, the blocking BeforeClusterUpgrade answer, one JSON patch per template and the variable')

  // The app's own route, next to the hooks: mark the backup done and the upgrade may start.
  const backup = await post(`${url}/backups/default/sample`, readFileSync(caFile))
  t.same(backup, { status: 200, body: JSON.stringify({ backedUp: ['default/sample'] }) }, 'the fastify app\'s own route answers')
  const second = await controller()
  t.equal(second.code, 0, 'the controller exits 0 again', { output: second.output })
  t.match(second.stdout, /^BeforeClusterUpgrade: retryAfterSeconds=0 message="backup of default\/sample done, upgrading to v1\.33\.0"$/m, 'after the backup the upgrade is no longer blocked')

  const child = extension
  if (child) {
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
    child.kill('SIGTERM')
    t.equal(await Promise.race([exited, new Promise(resolve => setTimeout(resolve, 10_000, 'still running'))]), 0, 'the extension exits 0 on SIGTERM')
  }
})

// docs/in-place-updates.md shows examples/in-place/src/updater.ts verbatim (test/docs/examples.test.ts).
await t.test('the in-place example offers a change of files in place, then updates the Machine until done', { skip: !compiled && 'not compiled' }, async t => {
  const result = await run(process.execPath, ['dist/main.js'], join(examples, 'in-place'), 60_000)
  t.equal(result.code, 0, 'it exits 0', { output: result.output })
  const lines = result.stdout.trimEnd().split('\n')
  t.equal(lines[0], 'CanUpdateMachine: Success, bootstrap config patch [{"op":"replace","path":"/spec/files/0/content","value":"hello, in place"}]')
  t.equal(lines[1], 'UpdateMachine: Success, retryAfterSeconds=1 message="writing worker-1\'s files"', 'in progress first')
  t.equal(lines.at(-1), 'UpdateMachine: Success, retryAfterSeconds=0 message="updated Machine default/worker-1 in place"', 'then done')
})

// docs/topology-patches.md shows examples/topology/src/patches.ts verbatim (test/docs/examples.test.ts).
await t.test('the topology example answers its hooks\' sample requests with computed patches', { skip: !compiled && 'not compiled' }, async t => {
  const result = await run(process.execPath, ['dist/main.js'], join(examples, 'topology'), 60_000)
  t.equal(result.code, 0, 'it exits 0', { output: result.output })
  const uid = '1c5e4a7d-56b2-4a8f-9a44-0f8fbd5a2f6e'
  const file = { path: '/etc/motd', content: 'hello' }
  // Each line as printed; a patch compared as JSON, a JSON Patch's operations by path (they touch distinct paths, so
  // their order does not change what applying them gives).
  const byPath = (value: unknown) => Array.isArray(value) ? [...(value as Array<{ path: string }>)].sort((a, b) => a.path.localeCompare(b.path)) : value
  const lines = result.stdout.trimEnd().split('\n').map(line => {
    const patch = /^(GeneratePatches \S+ \S+): (.*)$/.exec(line)
    return patch ? [patch[1], byPath(JSON.parse(patch[2] ?? '') as unknown)] : line
  })
  t.same(lines, [
    'DiscoverVariables: imageRepository, nodeFiles',
    [`GeneratePatches JSONPatch ${uid}`, [
      { op: 'replace', path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository', value: 'mirror.example.com' },
      { op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/files', value: [file] }
    ]],
    [`GeneratePatches JSONMergePatch ${uid}`, { spec: { template: { spec: { kubeadmConfigSpec: { files: [file], clusterConfiguration: { imageRepository: 'mirror.example.com' } } } } } }],
    'ValidateTopology: Success',
    'ValidateTopology with docker.io: Failure: DockerClusterTemplate default/sample-q9v4d (holder Cluster default/sample, spec.infrastructureRef): imageRepository docker.io limits pulls: use a mirror'
  ], 'only the KubeadmControlPlaneTemplate is of the kinds walked; its patches in both formats; the Failure names the template')
})

await t.test('getting started, as docs/getting-started.md does it: the tests pass, and served, the extension answers call and conformance', { skip: !compiled && 'not compiled' }, async t => {
  const dir = join(examples, 'getting-started')
  const tests = await run('npm', ['test'], dir, 60_000)
  t.equal(tests.code, 0, 'npm test (node --test dist/) passes', { output: tests.output })
  const cli = join(dir, 'node_modules', '.bin', 'runtime-sdk')
  const serve = spawn(cli, ['serve', '--handlers', 'dist/handlers.js', '--cert-dir', 'certs', '--port', '0', '--host', '127.0.0.1', '--log-level', 'warn'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const killer = setTimeout(() => serve.kill('SIGKILL'), 120_000)
  t.teardown(() => { clearTimeout(killer); serve.kill('SIGKILL') })
  let said = ''
  serve.stderr.on('data', d => { said += d })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve said nothing useful in 30 s: ${said}`)), 30_000)
    serve.stderr.on('data', () => {
      // The handlers table is printed between these two lines, perhaps in other chunks: wait for the last one.
      const found = /^serving dist\/handlers\.js at (https:\/\/\S+)$/m.exec(said)?.[1]
      if (found && /^try: /m.test(said)) { clearTimeout(timer); resolve(found) }
    })
    serve.on('exit', code => { clearTimeout(timer); reject(new Error(`serve exited ${code}: ${said}`)) })
  })
  t.match(said, /require-owner +BeforeClusterCreate/, 'serve lists the handlers')
  const call = await run(cli, ['call', 'BeforeClusterCreate', '--url', url, '--certificate-authority', 'certs/ca.crt', '--object', 'cluster.yaml'], dir)
  t.equal(call.code, 0, 'runtime-sdk call exits 0', { output: call.output })
  t.match(call.stdout, /require-owner\.extension-1 +success +Success +0 .*created for platform-team/, 'the answer the page shows')
  const conformance = await run(cli, ['conformance', url, '--certificate-authority', 'certs/ca.crt'], dir, 120_000)
  t.equal(conformance.code, 0, 'runtime-sdk conformance passes', { output: conformance.output })
})

await t.test('type tests: the README example compiles, and every @ts-expect-error is the compile error it names', { skip: !installed && 'not installed' }, async t => {
  const types = join(examples, 'types')
  const example = readmeExample()
  t.equal(readFileSync(join(types, 'readme-example.ts'), 'utf8'), example, 'examples/types/readme-example.ts is the README example verbatim')
  t.equal(readFileSync(join(types, 'readme-example-bogus.ts'), 'utf8'), bogusVariant(example), "examples/types/readme-example-bogus.ts is the README example with status 'Bogus'")

  // Every other TypeScript block of the README and the guide compiles too, each as a module of its own.
  const snippets = docSnippets()
  t.ok(snippets.length >= 6, `${snippets.length} TypeScript blocks of the README and docs/`)
  for (const [i, snippet] of snippets.entries()) writeFileSync(join(types, `docs-${i}-${snippet.page.replace(/\W+/g, '-')}.ts`), `${snippet.text}export {}\n`)

  const config = await run('npx', ['--no', '--', 'tsc', '-p', '.', '--showConfig'], types)
  t.match(JSON.parse(config.stdout), { compilerOptions: { strict: true, skipLibCheck: false, exactOptionalPropertyTypes: true, noEmit: true } }, 'checked strictly, libraries included')
  const tsc = await run('npx', ['--no', '--', 'tsc', '-p', '.'], types)
  t.equal(tsc.code, 0, 'tsc -p examples/types: the positive cases compile and no @ts-expect-error is unused', { output: tsc.output })

  // Each directive names its error code; with the directives disabled, exactly the marked lines fail, with those codes.
  const sources = readdirSync(types).filter(f => f.endsWith('.ts'))
  const expected: string[] = []
  for (const file of sources) {
    const text = readFileSync(join(types, file), 'utf8')
    text.split('\n').forEach((line, i) => {
      if (!/^\s*\/\/ @ts-expect-error\b/.test(line)) return
      const code = /^\s*\/\/ @ts-expect-error (TS\d+)\b/.exec(line)?.[1]
      t.ok(code, `${file}:${i + 1} names the error code it expects`)
      expected.push(`${file}:${i + 2} ${code ?? '?'}`)
    })
    writeFileSync(join(types, file), text.replace(/^(\s*)\/\/ @ts-expect-error\b/gm, '$1// expected-error'))
  }
  t.ok(expected.length >= 11, `${expected.length} expected compile errors`)
  const unchecked = await run('npx', ['--no', '--', 'tsc', '-p', '.', '--pretty', 'false'], types)
  const errors = [...unchecked.stdout.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+):/gm)].map(m => `${m[1]}:${m[2]} ${m[3]}`)
  t.same(errors.sort(), expected.sort(), 'without the directives, each marked line is a compile error with the named code, and nothing else is', { output: unchecked.stdout })
})
