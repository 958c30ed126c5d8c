// A real Kubernetes control plane (etcd + kube-apiserver, plus kubectl) for the e2e tests.
//
// Binaries come from KUBEBUILDER_ASSETS, else RUNTIME_SDK_CONTROL_PLANE_BIN, else `tools/build.sh
// control-plane` (built from the Go module proxy and cached). Everything listens on 127.0.0.1 on
// free ports and lives in one temporary directory: etcd data, the apiserver's self-signed serving
// cert (--cert-dir), service-account keys, a static token file, the kubeconfig and process logs.
// Processes are stopped by stop(), on process exit and on SIGINT/SIGTERM, and by a small shell
// watchdog if this process dies without running its handlers (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildGoModule } from './go-tools.js'
import { KubeConfig } from '@kubernetes/client-node'

export interface ControlPlaneOptions {
  /** Directory holding etcd, kube-apiserver and kubectl; overrides the environment and the build. */
  binDir?: string
  /** Extra kube-apiserver flags, appended after the defaults. */
  apiServerFlags?: string[]
  /** Extra token-authenticated users (the admin user is always there, in system:masters). */
  users?: Array<{ name: string, groups?: string[] }>
  /** Limit for each of: etcd healthy, kube-apiserver ready (default 120 s). */
  startTimeoutMs?: number
  /** Keep the temporary directory (logs, etcd data) after stop(); also env RUNTIME_SDK_KEEP_CONTROL_PLANE=1. */
  keepDir?: boolean
  /** Progress messages (start-up timings); silent by default. */
  log?: (message: string) => void
}

export interface KubectlOptions {
  /** Written to kubectl's stdin (e.g. for `apply -f -`). */
  input?: string
  /** Kill kubectl after this long (default 60 s). */
  timeoutMs?: number
  /** Run as this user from options.users instead of admin. */
  user?: string
}

export interface KubectlResult {
  stdout: string
  stderr: string
  /** Exit code; null when kubectl was killed by a signal (e.g. the timeout). */
  code: number | null
}

export interface ControlPlane {
  /** Temporary directory with the data, keys, kubeconfig and logs (etcd.log, kube-apiserver.log). */
  readonly dir: string
  readonly binDir: string
  /** https://127.0.0.1:<port> */
  readonly server: string
  readonly etcdUrl: string
  /** CA bundle that verifies the apiserver's serving certificate. */
  readonly caFile: string
  /** Bearer token of the admin user (system:masters). */
  readonly token: string
  /** Kubeconfig file for the admin user (context "admin"; one context per extra user). */
  readonly kubeconfigPath: string
  /** @kubernetes/client-node config loaded from kubeconfigPath, admin context. */
  readonly kubeConfig: KubeConfig
  /** Milliseconds from spawning etcd to the apiserver being ready. */
  readonly startupMs: number
  /** A KubeConfig for one of options.users. */
  kubeConfigFor (user: string): KubeConfig
  kubectl (args: string[], opts?: KubectlOptions): Promise<KubectlResult>
  /** Stops kube-apiserver and starts it again with the same flags, ports and etcd; resolves when ready. */
  restartApiServer (): Promise<void>
  /** Stops kube-apiserver: SIGKILL with crash (an outage), else SIGTERM; resolves when it has exited. */
  stopApiServer (options?: { crash?: boolean }): Promise<void>
  /** Starts the stopped kube-apiserver again on its port; resolves when it is ready. */
  startApiServer (): Promise<void>
  /** A second kube-apiserver on the same etcd, certificates and tokens, on its own loopback port. */
  startSecondApiServer (): Promise<{ server: string, stop: () => Promise<void> }>
  /** Stops everything and removes the directory; idempotent. */
  stop (): Promise<void>
}

const binaries = ['etcd', 'kube-apiserver', 'kubectl'] as const

/** The directory holding etcd, kube-apiserver and kubectl, building them when no override is set. */
/** A loopback address where nothing listens: a conversion webhook there fails without leaving this machine. */
export const UNREACHABLE_CONVERSION_URL = 'https://127.0.0.1:1/convert'

/**
 * The merge patch pointing a CRD's conversion webhook at a URL on 127.0.0.1, instead of deploy/crd's `service:`
 * (which would make the API server resolve a cluster DNS name and dial off this machine).
 */
export function conversionWebhookPatch (url: string, caBundle?: string): string {
  return JSON.stringify({ spec: { conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: null, url, ...(caBundle ? { caBundle } : {}) } } } } })
}

export async function controlPlaneBinDir (): Promise<string> {
  const fromEnv = process.env.KUBEBUILDER_ASSETS || process.env.RUNTIME_SDK_CONTROL_PLANE_BIN
  if (fromEnv) return fromEnv
  return buildGoModule('control-plane')
}

function checkBinaries (binDir: string): void {
  for (const name of binaries) {
    try {
      accessSync(join(binDir, name), constants.X_OK)
    } catch {
      throw new Error(`control plane: no executable ${name} in ${binDir} ` +
        '(KUBEBUILDER_ASSETS / RUNTIME_SDK_CONTROL_PLANE_BIN must hold etcd, kube-apiserver and kubectl)')
    }
  }
}

/** Free loopback ports (listen on port 0, read it, close; the small race is accepted, as in envtest). */
export async function freePorts (count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => resolve(server))
  })))
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  return ports
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Managed {
  name: string
  child: ChildProcess
  logPath: string
  exit: Promise<void>
  exited?: string
}

export function tail (file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch (err) {
    return `(no log: ${(err as Error).message})`
  }
}

interface Response { status: number, body: string }

function get (url: string, opts: { ca?: Buffer, token?: string } = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http
    const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {}
    const req = mod.get(url, { headers, ca: opts.ca, timeout: 5000, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)))
    req.on('error', reject)
  })
}

// Every live control plane, for the exit and signal handlers.
const live = new Set<() => void>()
let handlersInstalled = false

function onExit (): void {
  for (const kill of live) kill()
}

function onSignal (signal: NodeJS.Signals): void {
  onExit()
  process.off(signal, onSignal)
  // Keep the default behaviour (terminate) unless somebody else handles the signal too.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function installHandlers (): void {
  if (handlersInstalled) return
  handlersInstalled = true
  process.on('exit', onExit)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('SIGHUP', onSignal)
}

// Kills the processes whose pid files are in the directory once the given pid is gone, then removes
// the directory. Only processes whose command line mentions the directory are killed (pid reuse).
const watchdogScript = `
parent=$1 dir=$2
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
for f in "$dir"/*.pid; do
  [ -f "$f" ] || continue
  p=$(cat "$f")
  grep -qaF "$dir" "/proc/$p/cmdline" 2>/dev/null && kill -KILL "$p"
done
sleep 1
[ -f "$dir/.keep" ] || rm -rf "$dir"
`

export async function startControlPlane (opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const log = opts.log ?? (() => {})
  const startTimeoutMs = opts.startTimeoutMs ?? 120_000
  const keepDir = opts.keepDir ?? process.env.RUNTIME_SDK_KEEP_CONTROL_PLANE === '1'
  const binDir = opts.binDir ?? await controlPlaneBinDir()
  checkBinaries(binDir)

  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-cp-'))
  const pkiDir = join(dir, 'pki')
  await mkdir(pkiDir)
  if (keepDir) await writeFile(join(dir, '.keep'), '')
  const [etcdPort, peerPort, apiPort] = await freePorts(3) as [number, number, number]
  const etcdUrl = `http://127.0.0.1:${etcdPort}`
  const server = `https://127.0.0.1:${apiPort}`
  const caFile = join(pkiDir, 'apiserver.crt')
  const kubeconfigPath = join(dir, 'kubeconfig')

  // Service-account signing keys and static tokens: no X.509 generation needed on our side.
  const sa = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' }
  })
  await writeFile(join(dir, 'sa.key'), sa.privateKey, { mode: 0o600 })
  await writeFile(join(dir, 'sa.pub'), sa.publicKey)
  const users = [{ name: 'admin', groups: ['system:masters'] }, ...(opts.users ?? [])]
  const tokens = new Map(users.map((u) => [u.name, randomBytes(24).toString('hex')]))
  await writeFile(join(dir, 'tokens.csv'), users.map((u, i) =>
    `${tokens.get(u.name)},${u.name},uid-${i},"${(u.groups ?? []).join(',')}"\n`).join(''), { mode: 0o600 })
  const token = tokens.get('admin') as string

  const watchdog = spawn('sh', ['-c', watchdogScript, 'watchdog', String(process.pid), dir], {
    detached: true, stdio: 'ignore'
  })
  watchdog.unref()

  const procs = new Map<string, Managed>()
  let stopped = false

  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_')))
  async function launch (name: string, args: string[], binary = name): Promise<Managed> {
    const logPath = join(dir, `${name}.log`)
    const fd = openSync(logPath, 'a')
    let child: ChildProcess
    try {
      child = spawn(join(binDir, binary), args, { cwd: dir, env, stdio: ['ignore', fd, fd] })
    } finally {
      closeSync(fd)
    }
    child.unref()
    const managed: Managed = {
      name,
      child,
      logPath,
      exit: new Promise((resolve) => {
        child.once('error', (err) => { managed.exited = `failed to start: ${err.message}`; resolve() })
        child.once('exit', (code, signal) => { managed.exited = `exited with ${signal ?? `code ${code}`}`; resolve() })
      })
    }
    procs.set(name, managed)
    if (child.pid) await writeFile(join(dir, `${name}.pid`), String(child.pid))
    return managed
  }

  function killAllSync (): void {
    for (const p of procs.values()) {
      if (!p.exited) try { p.child.kill('SIGKILL') } catch {}
    }
    // Processes may still be dying; the watchdog removes whatever is left once this process is gone.
    if (!keepDir) try { rmSync(dir, { recursive: true, force: true }) } catch {}
  }

  async function terminate (p: Managed | undefined, graceMs = 20_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!p || p.exited) return
    p.child.kill(signal)
    const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs)
    await p.exit
    clearTimeout(timer)
  }

  /** Polls check() until it returns true, failing early if the process dies. */
  async function waitFor (p: Managed, what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + startTimeoutMs
    let last = ''
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      if (p.exited) throw startError(`${p.name} ${p.exited} while waiting for ${what}`)
      try {
        if (await check()) return
      } catch (err) {
        last = (err as Error).message
      }
      if (Date.now() > deadline) {
        throw startError(`timed out after ${startTimeoutMs} ms waiting for ${what}${last ? ` (last error: ${last})` : ''}`)
      }
      await sleep(delay)
    }
  }

  function startError (message: string): Error {
    // Latest-started process first: that is the one being waited for.
    const logs = [...procs.values()].reverse().map((p) => `--- ${p.logPath} (last lines) ---\n${tail(p.logPath)}`)
    return new Error(`control plane: ${message}\n${logs.join('\n')}`)
  }

  const apiServerArgs = (port: number) => [
    `--etcd-servers=${etcdUrl}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--advertise-address=127.0.0.1',
    `--cert-dir=${pkiDir}`, // no --tls-cert-file: writes a self-signed apiserver.crt (cert + CA) once, reused on restart
    '--service-cluster-ip-range=10.0.0.0/24',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--disable-admission-plugins=ServiceAccount',
    '--endpoint-reconciler-type=none', // no kubelet/nodes: skip the loopback endpoint reconciler
    '--enable-priority-and-fairness=false', // less background work on small machines
    // On SIGTERM end active watches at once (clients see the stream close) instead of holding the
    // HTTP server open for its 60 s shutdown timeout: restarts and stop() take ~1 s, not a minute.
    '--shutdown-watch-termination-grace-period=5s',
    ...(opts.apiServerFlags ?? [])
  ]

  async function startApiServer (name = 'kube-apiserver', port = apiPort): Promise<Managed> {
    const url = `https://127.0.0.1:${port}`
    const p = await launch(name, apiServerArgs(port), 'kube-apiserver')
    // The CA bundle appears once the apiserver has written its self-signed pair: read it per attempt.
    await waitFor(p, `${url}/readyz`, async () =>
      (await get(`${url}/readyz`, { ca: await readFile(caFile), token })).status === 200)
    const ca = await readFile(caFile)
    await waitFor(p, 'namespace default', async () =>
      (await get(`${url}/api/v1/namespaces/default`, { ca, token })).status === 200)
    return p
  }

  async function stop (): Promise<void> {
    if (stopped) return
    stopped = true
    live.delete(killAllSync)
    for (const [name, p] of procs) if (name.startsWith('kube-apiserver')) await terminate(p)
    await terminate(procs.get('etcd'))
    try { watchdog.kill('SIGKILL') } catch {}
    if (!keepDir) await rm(dir, { recursive: true, force: true })
  }

  installHandlers()
  live.add(killAllSync)
  const started = Date.now()
  try {
    const etcd = await launch('etcd', [
      '--name=default',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
      '--unsafe-no-fsync=true'
    ])
    await waitFor(etcd, `${etcdUrl}/health`, async () => {
      const res = await get(`${etcdUrl}/health`)
      return res.status === 200 && JSON.parse(res.body).health === 'true'
    })
    log(`etcd healthy after ${Date.now() - started} ms`)
    await startApiServer()
  } catch (err) {
    await stop()
    throw err
  }
  const startupMs = Date.now() - started
  log(`kube-apiserver ready after ${startupMs} ms (${server}, ${dir})`)

  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: { server, 'certificate-authority': caFile } }],
    users: users.map((u) => ({ name: u.name, user: { token: tokens.get(u.name) } })),
    contexts: users.map((u) => ({ name: u.name, context: { cluster: 'test', user: u.name, namespace: 'default' } })),
    'current-context': 'admin'
  }
  await writeFile(kubeconfigPath, JSON.stringify(kubeconfig, null, 2), { mode: 0o600 })

  function kubeConfigFor (user: string): KubeConfig {
    if (!tokens.has(user)) throw new Error(`control plane: unknown user ${user}`)
    const kc = new KubeConfig()
    kc.loadFromFile(kubeconfigPath)
    kc.setCurrentContext(user)
    return kc
  }

  function kubectl (args: string[], kopts: KubectlOptions = {}): Promise<KubectlResult> {
    const context = kopts.user ? [`--context=${kopts.user}`] : []
    return new Promise((resolve, reject) => {
      const child = spawn(join(binDir, 'kubectl'), [`--kubeconfig=${kubeconfigPath}`, ...context, ...args], {
        cwd: dir, env: { ...process.env, KUBECONFIG: kubeconfigPath }, stdio: ['pipe', 'pipe', 'pipe']
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
      const timer = setTimeout(() => child.kill('SIGKILL'), kopts.timeoutMs ?? 60_000)
      child.on('error', (err) => { clearTimeout(timer); reject(err) })
      child.on('close', (code) => { clearTimeout(timer); resolve({ stdout, stderr, code }) })
      child.stdin.end(kopts.input ?? '')
    })
  }

  async function restartApiServer (): Promise<void> {
    if (stopped) throw new Error('control plane: stopped')
    const began = Date.now()
    await terminate(procs.get('kube-apiserver'))
    const stoppedAt = Date.now()
    await startApiServer()
    log(`kube-apiserver restarted: stopped in ${stoppedAt - began} ms, ready ${Date.now() - stoppedAt} ms later`)
  }

  async function stopApiServer (options: { crash?: boolean } = {}): Promise<void> {
    await terminate(procs.get('kube-apiserver'), 20_000, options.crash ? 'SIGKILL' : 'SIGTERM')
  }

  async function startSecondApiServer (): Promise<{ server: string, stop: () => Promise<void> }> {
    if (stopped) throw new Error('control plane: stopped')
    const [port] = await freePorts(1) as [number]
    const p = await startApiServer('kube-apiserver-2', port)
    return { server: `https://127.0.0.1:${port}`, stop: () => terminate(p) }
  }

  return {
    dir,
    binDir,
    server,
    etcdUrl,
    caFile,
    token,
    kubeconfigPath,
    kubeConfig: kubeConfigFor('admin'),
    startupMs,
    kubeConfigFor,
    kubectl,
    restartApiServer,
    stopApiServer,
    startApiServer: async () => { await startApiServer() },
    startSecondApiServer,
    stop
  }
}
