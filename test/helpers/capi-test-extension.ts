// Cluster API's own Runtime Extension (sigs.k8s.io/cluster-api/test/extension, built by tools/build.sh cluster-api
// beside the managers), run against the e2e control plane on loopback, for the tests that compare runtime-sdk's
// answers with its: a generated serving certificate, its hooks called over HTTPS at Cluster API's hook paths.
import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { freePorts, tail, type ControlPlane } from '../../tools/harness/control-plane.js'
import { buildGoModule } from '../../tools/harness/go-tools.js'
import { call } from './server.js'
import { waitFor } from './wait.js'

/** Cluster API's test extension, running. */
export interface TestExtension {
  /** Calls a hook's handler of the test extension (`can-update-machine`, ...) with a request; its answer. */
  call: (hook: string, request: Record<string, unknown>) => Promise<Record<string, unknown>>
  stop: () => void
}

/** Its handler names, by hook (test/extension/main.go). */
const HANDLERS: Record<string, string> = { CanUpdateMachine: 'can-update-machine', CanUpdateMachineSet: 'can-update-machineset', UpdateMachine: 'update-machine' }

export async function startTestExtension (cp: ControlPlane, dir: string): Promise<TestExtension> {
  const binDir = await buildGoModule('cluster-api')
  await mkdir(dir, { recursive: true })
  const ca = await createCertificateAuthority('cluster-api test extension (test)')
  const serving = await ca.issue({ commonName: '127.0.0.1', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
  await writeFile(join(dir, 'tls.crt'), serving.cert)
  await writeFile(join(dir, 'tls.key'), serving.key, { mode: 0o600 })
  const [webhook, health, diagnostics] = await freePorts(3) as [number, number, number]
  const log = join(dir, 'test-extension.log')
  const fd = openSync(log, 'a')
  const child = spawn(join(binDir, 'test-extension'), [
    `--kubeconfig=${cp.kubeconfigPath}`, '--leader-elect=false', `--webhook-port=${webhook}`, `--webhook-cert-dir=${dir}`,
    `--health-addr=127.0.0.1:${health}`, `--diagnostics-address=127.0.0.1:${diagnostics}`, '--insecure-diagnostics'
  ], { cwd: dir, env: { ...process.env, KUBECONFIG: cp.kubeconfigPath }, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  const url = `https://127.0.0.1:${webhook}`
  const post = async (hook: string, request: Record<string, unknown>) => {
    const path = `/hooks.runtime.cluster.x-k8s.io/v1alpha1/${hook.toLowerCase()}/${HANDLERS[hook] ?? ''}`
    const body = JSON.stringify({ apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: `${hook}Request`, ...request })
    return await call(url, path, body, { ca: ca.cert, contentType: 'application/json' })
  }
  try {
    await waitFor(async () => child.exitCode === null && (await post('CanUpdateMachineSet', { settings: {} }).catch(() => undefined))?.status === 200, { timeoutMs: 60_000, intervalMs: 200, message: `Cluster API's test extension answers (${tail(log)})` })
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  }
  return {
    call: async (hook, request) => (await post(hook, request)).json as Record<string, unknown>,
    stop: () => { child.kill('SIGKILL') }
  }
}
