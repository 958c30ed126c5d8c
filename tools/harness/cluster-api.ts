// Cluster API itself, for the tests that put it in the loop (test/capi/): its core manager, the kubeadm bootstrap and
// control-plane managers and CAPD (whose DevCluster/DevMachine inMemory backend needs no containers), all v1.14.2 from
// `tools/build.sh cluster-api`, run against a control plane of tools/harness/control-plane.ts.
//
// As clusterctl would install them, with loopback instead of services: each provider's CRDs, with the conversion
// webhook of every multi-version CRD pointing at https://127.0.0.1:<its webhook port>/convert, and its admission
// webhook configurations rewritten from `service:` to a URL on 127.0.0.1 (applied once its webhook server answers).
// One generated CA signs every manager's serving certificate. Feature gates RuntimeSDK and ClusterTopology on (and any
// other a test asks for), leader election off, health and (plain HTTP) metrics on loopback ports; the processes' pid
// files sit in the control plane's directory, so its watchdog also kills them if this process dies without stopping
// them.
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { freePorts, tail, type ControlPlane } from './control-plane.js'
import { buildGoModule } from './go-tools.js'

export type Provider = 'core' | 'bootstrap' | 'controlplane' | 'infrastructure'
const all: Provider[] = ['core', 'bootstrap', 'controlplane', 'infrastructure']

const binaries: Record<Provider, string> = {
  core: 'cluster-api-manager',
  bootstrap: 'kubeadm-bootstrap-manager',
  controlplane: 'kubeadm-control-plane-manager',
  infrastructure: 'capd-manager'
}

export interface ClusterApiOptions {
  /** Which managers to run (default: all four). Every provider's CRDs are installed either way. */
  providers?: Provider[]
  /** Extra flags per manager. */
  flags?: Partial<Record<Provider, string[]>>
  /** More feature gates on every manager, beside RuntimeSDK and ClusterTopology (e.g. `{ InPlaceUpdates: true }`). */
  featureGates?: Record<string, boolean>
  /** Limit for each manager to answer /readyz (default 120 s). */
  startTimeoutMs?: number
  log?: (message: string) => void
}

export interface Manager {
  readonly provider: Provider
  readonly logPath: string
  /** http://127.0.0.1:<port>/metrics */
  readonly metricsUrl: string
  /** The manager's log so far. */
  log (): string
  /** Prometheus text from its metrics endpoint. */
  metrics (): Promise<string>
}

export interface ClusterApi {
  readonly binDir: string
  /** PEM of the CA that signed every manager's webhook serving certificate. */
  readonly caCert: string
  readonly managers: Map<Provider, Manager>
  manager (provider: Provider): Manager
  /** Stops every manager (SIGTERM, then SIGKILL after 10 s); idempotent. */
  stop (): Promise<void>
}

interface Running { manager: Manager, child: ChildProcess, exit: Promise<void>, exited?: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Obj = Record<string, unknown> & { metadata: { name: string, labels?: Record<string, string> }, spec?: Record<string, unknown> }

function documents (text: string): Obj[] {
  return parseAllDocuments(text).map((d) => d.toJS() as Obj | null).filter((o): o is Obj => o !== null)
}

/**
 * The CRDs of a provider as its kustomization renders them: with its labels (the contract versions, e.g.
 * cluster.x-k8s.io/v1beta2: v1beta2, which the topology controller reads), multi-version ones converted by its
 * webhook server on loopback.
 */
async function crds (configDir: string, webhookPort: number, caBundle: string): Promise<Obj[]> {
  const dir = join(configDir, 'crd')
  const kustomization = documents(await readFile(join(configDir, 'crd-kustomization.yaml'), 'utf8'))[0] as { labels?: Array<{ pairs?: Record<string, string> }> }
  const labels = Object.assign({}, ...(kustomization.labels ?? []).map((l) => l.pairs ?? {})) as Record<string, string>
  const out: Obj[] = []
  for (const file of (await readdir(dir)).sort()) {
    for (const crd of documents(await readFile(join(dir, file), 'utf8'))) {
      crd.metadata = { ...crd.metadata, labels: { ...crd.metadata.labels, ...labels } }
      const versions = (crd.spec?.versions as unknown[] | undefined) ?? []
      if (versions.length > 1) {
        crd.spec = {
          ...crd.spec,
          conversion: {
            strategy: 'Webhook',
            webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { url: `https://127.0.0.1:${webhookPort}/convert`, caBundle } }
          }
        }
      }
      out.push(crd)
    }
  }
  return out
}

/** A provider's admission webhook configurations, `service:` replaced by a loopback URL, names prefixed by the provider. */
async function webhookConfigurations (provider: Provider, configDir: string, webhookPort: number, caBundle: string): Promise<Obj[]> {
  return documents(await readFile(join(configDir, 'webhook.yaml'), 'utf8')).map((config) => {
    const webhooks = (config.webhooks as Array<{ clientConfig: { service?: { path?: string } } }>).map((webhook) => ({
      ...webhook,
      clientConfig: { url: `https://127.0.0.1:${webhookPort}${webhook.clientConfig.service?.path ?? '/'}`, caBundle }
    }))
    return { ...config, metadata: { ...config.metadata, name: `capi-${provider}-${config.metadata.name}` }, webhooks }
  })
}

export async function startClusterApi (cp: ControlPlane, opts: ClusterApiOptions = {}): Promise<ClusterApi> {
  const log = opts.log ?? (() => {})
  const providers = opts.providers ?? all
  const startTimeoutMs = opts.startTimeoutMs ?? 120_000
  const binDir = await buildGoModule('cluster-api')
  const dir = join(cp.dir, 'cluster-api')
  const certDir = join(dir, 'certs')
  await mkdir(certDir, { recursive: true })

  const ca = await createCertificateAuthority('cluster-api webhooks (test)')
  const serving = await ca.issue({ commonName: '127.0.0.1', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
  await writeFile(join(certDir, 'tls.crt'), serving.cert)
  await writeFile(join(certDir, 'tls.key'), serving.key, { mode: 0o600 })
  const caBundle = Buffer.from(ca.cert).toString('base64')

  const kubectl = async (args: string[], input: string) => {
    const r = await cp.kubectl(args, { input, timeoutMs: 120_000 })
    if (r.code !== 0) throw new Error(`cluster-api: kubectl ${args.join(' ')}: ${r.stderr}`)
  }
  const ports = new Map<Provider, { webhook: number, health: number, metrics: number }>()
  const free = await freePorts(all.length * 3)
  all.forEach((provider, i) => ports.set(provider, { webhook: free[3 * i] as number, health: free[3 * i + 1] as number, metrics: free[3 * i + 2] as number }))
  const portsOf = (provider: Provider) => ports.get(provider) as { webhook: number, health: number, metrics: number }

  // CRDs first, all providers: topology needs the template kinds even where their manager does not run.
  const allCrds = (await Promise.all(all.map((p) => crds(join(binDir, 'config', p), portsOf(p).webhook, caBundle)))).flat()
  await kubectl(['apply', '--server-side', '--field-manager=clusterctl', '-f', '-'], allCrds.map((c) => JSON.stringify(c)).join('\n'))
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', '-f', '-'], allCrds.map((c) => JSON.stringify(c)).join('\n'))
  log(`cluster-api: ${allCrds.length} CRDs established`)

  const env = { ...process.env, KUBECONFIG: cp.kubeconfigPath, POD_IP: '127.0.0.1', DOCKER_HOST: 'unix:///nonexistent/docker.sock' }
  const running = new Map<Provider, Running>()
  let stopped = false
  const killAll = () => { for (const r of running.values()) if (!r.exited) try { r.child.kill('SIGKILL') } catch {} }
  process.on('exit', killAll)

  async function launch (provider: Provider): Promise<Running> {
    const { webhook, health, metrics } = portsOf(provider)
    const logPath = join(dir, `${provider}.log`)
    const args = [
      `--kubeconfig=${cp.kubeconfigPath}`, // also marks the process as the control plane's for its watchdog
      '--leader-elect=false',
      `--feature-gates=${Object.entries({ RuntimeSDK: true, ClusterTopology: true, ...opts.featureGates }).map(([gate, on]) => `${gate}=${String(on)}`).join(',')}`,
      `--webhook-port=${webhook}`,
      `--webhook-cert-dir=${certDir}`,
      `--health-addr=127.0.0.1:${health}`,
      `--diagnostics-address=127.0.0.1:${metrics}`,
      '--insecure-diagnostics',
      ...(opts.flags?.[provider] ?? [])
    ]
    const fd = openSync(logPath, 'a')
    let child: ChildProcess
    try {
      child = spawn(join(binDir, binaries[provider]), args, { cwd: dir, env, stdio: ['ignore', fd, fd] })
    } finally {
      closeSync(fd)
    }
    child.unref()
    const metricsUrl = `http://127.0.0.1:${metrics}/metrics`
    const manager: Manager = {
      provider,
      logPath,
      metricsUrl,
      log: () => { try { return readFileSync(logPath, 'utf8') } catch { return '' } },
      metrics: async () => await (await fetch(metricsUrl)).text()
    }
    const r: Running = { manager, child, exit: Promise.resolve() }
    r.exit = new Promise((resolve) => {
      child.once('error', (err) => { r.exited = `failed to start: ${err.message}`; resolve() })
      child.once('exit', (code, signal) => { r.exited = `exited with ${signal ?? `code ${code}`}`; resolve() })
    })
    running.set(provider, r)
    if (child.pid) await writeFile(join(cp.dir, `capi-${provider}.pid`), String(child.pid))
    return r
  }

  async function ready (r: Running): Promise<void> {
    const url = `http://127.0.0.1:${portsOf(r.manager.provider).health}/readyz`
    const deadline = Date.now() + startTimeoutMs
    for (;;) {
      if (r.exited) throw new Error(`cluster-api: ${binaries[r.manager.provider]} ${r.exited}\n${tail(r.manager.logPath)}`)
      try {
        if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200) return
      } catch {}
      if (Date.now() > deadline) throw new Error(`cluster-api: ${binaries[r.manager.provider]} not ready after ${startTimeoutMs} ms\n${tail(r.manager.logPath)}`)
      await sleep(250)
    }
  }

  async function stop (): Promise<void> {
    if (stopped) return
    stopped = true
    await Promise.all([...running.values()].map(async (r) => {
      if (r.exited) return
      r.child.kill('SIGTERM')
      const timer = setTimeout(() => r.child.kill('SIGKILL'), 10_000)
      await r.exit
      clearTimeout(timer)
    }))
    process.off('exit', killAll)
  }

  try {
    const started = Date.now()
    await Promise.all(providers.map(async (provider) => {
      await ready(await launch(provider))
      const configs = await webhookConfigurations(provider, join(binDir, 'config', provider), portsOf(provider).webhook, caBundle)
      await kubectl(['apply', '--server-side', '--field-manager=clusterctl', '-f', '-'], configs.map((c) => JSON.stringify(c)).join('\n'))
    }))
    log(`cluster-api: ${providers.join(', ')} ready after ${Date.now() - started} ms`)
  } catch (err) {
    await stop()
    throw err
  }

  const managers = new Map([...running].map(([p, r]) => [p, r.manager]))
  return {
    binDir,
    caCert: ca.cert,
    managers,
    manager: (provider) => {
      const m = managers.get(provider)
      if (!m) throw new Error(`cluster-api: the ${provider} manager is not running`)
      return m
    },
    stop
  }
}
