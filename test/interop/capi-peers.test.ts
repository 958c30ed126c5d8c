// Proves the Cluster API peers used by the interop tests are real and work against each other: the
// extension is served by CAPI v1.14.2's own server SDK, the caller imitates CAPI's runtime client on the
// wire and decodes every answer strictly into CAPI's Go types. Also proves the caller can fail (an unknown
// response field from a non-CAPI server) and that mTLS works, and that the committed fixtures are accepted.
import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import {
  buildCapiInterop,
  capiFixturesDir,
  goAvailable,
  runCapiCaller,
  startCapiExtension,
  type CapiCall
} from '../../tools/harness/capi-interop.js'

// A cold build compiles controller-runtime and client-go: allow it even under the default .taprc timeout.
t.setTimeout(900_000)

const skip = goAvailable() ? false : 'go is not installed'

const lifecycle: Record<string, string> = {
  BeforeClusterCreate: 'before-cluster-create',
  AfterControlPlaneInitialized: 'after-control-plane-initialized',
  BeforeClusterUpgrade: 'before-cluster-upgrade',
  BeforeControlPlaneUpgrade: 'before-control-plane-upgrade',
  AfterControlPlaneUpgrade: 'after-control-plane-upgrade',
  BeforeWorkersUpgrade: 'before-workers-upgrade',
  AfterWorkersUpgrade: 'after-workers-upgrade',
  AfterClusterUpgrade: 'after-cluster-upgrade',
  BeforeClusterDelete: 'before-cluster-delete'
}
const others: Record<string, string> = {
  GeneratePatches: 'generate-patches',
  ValidateTopology: 'validate-topology',
  DiscoverVariables: 'discover-variables',
  CanUpdateMachine: 'can-update-machine',
  CanUpdateMachineSet: 'can-update-machineset',
  UpdateMachine: 'update-machine',
  GenerateUpgradePlan: 'generate-upgrade-plan'
}
const extra = ['blocking', 'failing', 'slow']
const allHooks = ['Discovery', ...Object.keys(lifecycle), ...Object.keys(others)]
const expectedHandlers = [...Object.values(lifecycle), ...Object.values(others), ...extra].sort()

function byHandler (calls: CapiCall[], handler: string): CapiCall {
  const found = calls.filter(c => c.handler === handler)
  if (found.length !== 1) throw new Error(`expected one call of handler ${handler}, got ${found.length}`)
  return found[0] as CapiCall
}

/** Assertions shared by the sample run and the fixtures run. */
function checkRun (t: Test, calls: CapiCall[]): void {
  const discovery = calls[0]
  t.equal(discovery?.hook, 'Discovery', 'the first call is Discovery')
  t.equal(discovery?.httpStatus, 200)
  t.equal(discovery?.status, 'Success')
  t.notOk(discovery?.error, 'discovery decoded and validated like CAPI')
  t.same(discovery?.handlers?.map(h => h.name).sort(), expectedHandlers, 'Discovery returned all 19 handlers')
  const declared = new Map(discovery?.handlers?.map(h => [h.name, h]))
  t.match(declared.get('slow'), { hook: 'BeforeClusterCreate', timeoutSeconds: 1, failurePolicy: 'Ignore' })
  t.match(declared.get('blocking'), { timeoutSeconds: 5, failurePolicy: 'Fail' })
  t.match(declared.get('failing'), { timeoutSeconds: 10, failurePolicy: 'Fail' })
  t.match(declared.get('generate-patches'), { timeoutSeconds: 10, failurePolicy: 'Fail', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1' })

  t.same([...new Set(calls.map(c => c.hook))].sort(), [...allHooks].sort(), 'every one of the 17 hooks was called')
  t.equal(calls.length, 1 + expectedHandlers.length, 'one call per handler')

  for (const [hook, handler] of Object.entries(lifecycle)) {
    const call = byHandler(calls, handler)
    t.match(call, { hook, httpStatus: 200, status: 'Success', retryAfterSeconds: 0 }, `${hook}/${handler}`)
    t.notOk(call.error, `${handler} decoded strictly`)
    t.match(call.message, `${hook}: cluster default/capi-interop`, `${handler}: the CAPI server decoded the request`)
  }
  for (const [hook, handler] of Object.entries(others)) {
    const call = byHandler(calls, handler)
    t.match(call, { hook, httpStatus: 200, status: 'Success' }, `${hook}/${handler}`)
    t.notOk(call.error, `${handler} decoded strictly`)
  }
  t.equal(byHandler(calls, 'generate-patches').message, 'generated patches for 5 templates')
  t.equal(byHandler(calls, 'discover-variables').message, '')
  t.match(byHandler(calls, 'update-machine').message, 'default/capi-interop-x7k2p-4hv8m')
  t.equal(byHandler(calls, 'generate-upgrade-plan').message, 'planned 2 control plane steps')

  t.match(byHandler(calls, 'blocking'), {
    hook: 'BeforeClusterCreate', httpStatus: 200, status: 'Success', retryAfterSeconds: 30, message: 'blocked by capi-interop'
  }, 'blocking answers retryAfterSeconds 30')
  const failing = byHandler(calls, 'failing')
  t.match(failing, { hook: 'BeforeClusterCreate', httpStatus: 200, status: 'Failure', message: 'failure from capi-interop' }, 'failing answers status Failure')
  t.notOk(failing.error, 'a Failure status is reported, not a caller error')
}

t.test('CAPI peers', { skip }, async t => {
  const started = Date.now()
  const bin = await buildCapiInterop()
  t.ok(bin, `built tools/capi-interop in ${Math.round((Date.now() - started) / 1000)} s`)

  const ext = await startCapiExtension()
  t.teardown(ext.stop)
  t.match(ext.url, /^https:\/\/127\.0\.0\.1:\d+$/)
  t.equal(ext.caFile, join(ext.certDir, 'ca.crt'))

  t.test('the caller calls every handler of the CAPI server SDK extension', async t => {
    const res = await runCapiCaller(['--url', ext.url, '--ca-file', ext.caFile])
    checkRun(t, res.calls)
    const slow = byHandler(res.calls, 'slow')
    t.match(slow, { hook: 'BeforeClusterCreate', httpStatus: 0, timeoutSeconds: 1, failurePolicy: 'Ignore' })
    t.match(slow.error, /http call failed: Post "https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/beforeclustercreate\/slow\?timeout=1s": context deadline exceeded/,
      'slow declared timeoutSeconds 1 and timed out')
    t.same(res.calls.filter(c => c.error !== undefined).map(c => c.handler), ['slow'], 'only slow failed')
    t.equal(res.code, 1, 'the timeout makes the caller exit 1')
  })

  t.test('the committed fixtures are accepted by the CAPI server SDK', async t => {
    const files = (await readdir(capiFixturesDir)).filter(f => f.endsWith('.json')).sort()
    t.equal(files.length, 34, '17 hooks x request/response')
    for (const hook of allHooks) {
      const request = JSON.parse(await readFile(join(capiFixturesDir, `${hook.toLowerCase()}.request.json`), 'utf8'))
      t.match(request, { kind: `${hook}Request`, apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1' }, `${hook} request fixture`)
      const response = JSON.parse(await readFile(join(capiFixturesDir, `${hook.toLowerCase()}.response.json`), 'utf8'))
      t.notOk('kind' in response || 'apiVersion' in response, `${hook} response fixture has no TypeMeta`)
    }
    // Regenerating them from CAPI's Go types gives the committed bytes.
    const fresh = await mkdtemp(join(tmpdir(), 'capi-fixtures-'))
    t.teardown(() => rm(fresh, { recursive: true, force: true }))
    const gen = spawnSync(join(bin as string, 'fixtures'), ['--out', fresh], { encoding: 'utf8' })
    t.equal(gen.status, 0, 'fixtures regenerated', { stderr: gen.stderr })
    for (const f of files) {
      t.equal(await readFile(join(fresh, f), 'utf8'), await readFile(join(capiFixturesDir, f), 'utf8'),
        `${f} is current (regenerate: cd tools/capi-interop && go run ./cmd/fixtures)`)
    }

    const res = await runCapiCaller(['--url', ext.url, '--ca-file', ext.caFile, '--fixtures-dir', capiFixturesDir])
    checkRun(t, res.calls)
    t.equal(res.code, 1, 'slow still times out')
  })

  t.test('slow succeeds when it answers within its timeout; --hooks filters', async t => {
    const fast = await startCapiExtension({ slowDelay: '50ms' })
    t.teardown(fast.stop)
    const res = await runCapiCaller(['--url', fast.url, '--ca-file', fast.caFile, '--hooks', 'BeforeClusterCreate'])
    t.equal(res.code, 0, 'the caller exits 0', { stdout: res.stdout, stderr: res.stderr })
    t.same(res.calls.map(c => c.handler).sort(), ['', 'before-cluster-create', 'blocking', 'failing', 'slow'])
    t.match(byHandler(res.calls, 'slow'), { httpStatus: 200, status: 'Success', message: 'slept 50ms' })
  })

  t.test('mTLS: the extension requires a client certificate signed by --client-ca', async t => {
    const certDir = await mkdtemp(join(tmpdir(), 'capi-interop-mtls-'))
    t.teardown(() => rm(certDir, { recursive: true, force: true }))
    const secured = await startCapiExtension({ certDir, clientCa: join(certDir, 'ca.crt') })
    t.teardown(secured.stop)
    const without = await runCapiCaller(['--url', secured.url, '--ca-file', secured.caFile])
    t.equal(without.code, 1)
    t.equal(without.calls.length, 1)
    // TLS 1.3: the server's alert surfaces as "certificate required", or (racing the request write) as a
    // reset or a failed HTTP/2 connection; in every case no HTTP response is received.
    t.match(without.calls[0], { hook: 'Discovery', httpStatus: 0, error: /^http call failed: Post "https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/discovery\?timeout=10s": / },
      'rejected without a client certificate')
    const withCert = await runCapiCaller(['--url', secured.url, '--ca-file', secured.caFile,
      '--client-cert', secured.clientCertFile, '--client-key', secured.clientKeyFile, '--hooks', 'AfterControlPlaneInitialized'])
    t.equal(withCert.code, 0, 'accepted with the client certificate', { stdout: withCert.stdout })
    t.match(byHandler(withCert.calls, 'after-control-plane-initialized'), { status: 'Success', httpStatus: 200 })
  })

  t.test('the caller fails on a response CAPI\'s Go types do not know', async t => {
    // A non-CAPI server (reusing the extension's serving certificate) adds an unknown field.
    const [cert, key] = await Promise.all([readFile(join(ext.certDir, 'tls.crt')), readFile(join(ext.certDir, 'tls.key'))])
    const server = https.createServer({ cert, key }, (req, res) => {
      req.resume()
      if (req.url?.startsWith('/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?')) {
        res.end(JSON.stringify({ status: 'Success', handlers: [{ name: 'before-cluster-create', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' } }] }))
      } else {
        res.end(JSON.stringify({ status: 'Success', retryAfterSeconds: 0, retryAfter: 5 }))
      }
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())))
    const { port } = server.address() as AddressInfo
    const res = await runCapiCaller(['--url', `https://127.0.0.1:${port}`, '--ca-file', ext.caFile])
    t.equal(res.code, 1)
    t.match(byHandler(res.calls, 'before-cluster-create').error, 'failed to decode response: json: unknown field "retryAfter"')
  })
})
