// runtime-sdk serve: generated certificates, the reference extension or a user's module, what it prints.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { loadHandlers, serve, serveCommand } from '../../src/cli/serve.js'
import { API, call } from '../helpers/server.js'

const discoveryBody = JSON.stringify({ kind: 'DiscoveryRequest', apiVersion: API })
const base = { port: 0, host: '127.0.0.1', logLevel: 'silent' }

t.test('without certificates it generates a CA and serving certificate and prints how to call it', async (t) => {
  const certDir = join(t.testdir(), 'certs')
  const lines: string[] = []
  const server = await serve({ ...base, certDir }, line => lines.push(line))
  t.teardown(() => server.close())
  for (const f of ['ca.crt', 'tls.crt', 'tls.key']) t.ok(existsSync(join(certDir, f)), f)
  const output = lines.join('\n')
  t.match(output, `generated a self-signed CA and a serving certificate for localhost/127.0.0.1 in ${certDir}`)
  const url = /serving the reference extension at (https:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string
  t.ok(url, 'prints the URL')
  t.match(output, /before-cluster-create\s+BeforeClusterCreate\s+POST \/hooks.runtime.cluster.x-k8s.io\/v1alpha1\/beforeclustercreate\/before-cluster-create/)
  t.match(output, `curl -sS --cacert ${join(certDir, 'ca.crt')} -X POST ${url}/${API}/discovery -H 'Content-Type: application/json' -d`)
  const reply = await call(url, `/${API}/discovery`, discoveryBody, { ca: readFileSync(join(certDir, 'ca.crt'), 'utf8') })
  t.equal(reply.json.handlers.length, 16)

  // A second start reuses the certificates in the directory.
  const again: string[] = []
  const second = await serve({ ...base, certDir }, line => again.push(line))
  t.teardown(() => second.close())
  t.notMatch(again.join('\n'), /generated/)
})

t.test('serves a user module with --handlers, plain HTTP with --insecure-http, under a path prefix', async (t) => {
  const dir = t.testdir()
  const hooks = pathToFileURL(join(import.meta.dirname, '../../src/api/hooks/v1alpha1/index.js')).href
  const module = join(dir, 'handlers.mjs')
  writeFileSync(module, `import { BeforeClusterDelete } from ${JSON.stringify(hooks)}
export const handlers = [{ hook: BeforeClusterDelete, name: 'guard', handler: () => ({ status: 'Success', retryAfterSeconds: 30, message: 'not yet' }) }]
`)
  const lines: string[] = []
  const server = await serve({ ...base, handlers: module, insecureHttp: true, pathPrefix: '/ext' }, line => lines.push(line))
  t.teardown(() => server.close())
  const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(lines.join('\n'))?.[1] as string
  t.match(lines.join('\n'), `curl -sS -X POST ${url}/ext/${API}/discovery`)
  const reply = await call(url, `/ext/${API}/beforeclusterdelete/guard`, '{"cluster":{"metadata":{}}}')
  t.same(reply.json, { kind: 'BeforeClusterDeleteResponse', apiVersion: API, status: 'Success', message: 'not yet', retryAfterSeconds: 30 })
})

t.test('explicit certificate files and module errors', async (t) => {
  const dir = t.testdir()
  const generated: string[] = []
  const first = await serve({ ...base, certDir: dir }, line => generated.push(line))
  await first.close()
  const server = await serve({ ...base, tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'tls.key') }, () => {})
  t.teardown(() => server.close())
  t.ok(server.address()?.port)
  await t.rejects(serve({ ...base, tlsCertFile: join(dir, 'tls.crt') }, () => {}), /--tls-cert-file and --tls-private-key-file go together/)
  writeFileSync(join(dir, 'bad.mjs'), 'export default 42\n')
  await t.rejects(loadHandlers(join(dir, 'bad.mjs')), /must export an array of extension handlers/)
  writeFileSync(join(dir, 'default.mjs'), 'export default []\n')
  t.same(await loadHandlers(join(dir, 'default.mjs')), [])
})

t.test('the command declares its flags', async (t) => {
  const command = serveCommand()
  t.same(command.options.map(o => o.long), ['--handlers', '--port', '--host', '--cert-dir', '--tls-cert-file', '--tls-private-key-file', '--client-ca-file', '--insecure-http', '--path-prefix', '--responses', '--log-level', '--workers', '--max-connections', '--record', '--record-max-bytes', '--record-max-files', '--tls-cert', '--tls-key', '--client-ca'])
  command.exitOverride().configureOutput({ writeErr: () => {} })
  t.throws(() => command.parse(['--port', '70000'], { from: 'user' }), /must be a port number/)
  t.throws(() => command.parse(['--workers', '0'], { from: 'user' }), /must be an integer from 1 to 64/)
})

t.test('SIGTERM closes the server gracefully, then exits 0', async (t) => {
  const server = await serve({ ...base, insecureHttp: true }, () => {})
  const exit = process.exit
  const codes: Array<number | undefined> = []
  process.exit = ((c?: number) => { codes.push(c) }) as typeof process.exit
  t.teardown(() => { process.exit = exit })
  process.emit('SIGTERM')
  for (let i = 0; i < 100 && server.address() !== undefined; i++) await new Promise(resolve => setTimeout(resolve, 20))
  await new Promise(resolve => setTimeout(resolve, 20))
  t.equal(server.address(), undefined, 'no longer listening')
  t.ok(codes.length > 0 && codes.every(c => c === 0), 'exits 0')
})
