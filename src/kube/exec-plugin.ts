// client.authentication.k8s.io exec credential plugins, run as client-go runs them: never interactively, with the
// ExecCredential request in KUBERNETES_EXEC_INFO (the cluster too with provideClusterInfo), answering with a token
// or a client certificate that is good until its expirationTimestamp.
import { spawn } from 'node:child_process'
import type { Fresh } from './credential-types.js'
import { readProblem } from './manifests.js'

const API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']
const TIMEOUT_MS = 60_000
// Renew a little early: this host's clock and the API server's differ.
const EXPIRY_MARGIN_MS = 10_000

export interface ExecConfig {
  apiVersion?: string
  command?: string
  args?: string[] | null
  env?: Array<{ name?: string, value?: string }> | null
  installHint?: string
  provideClusterInfo?: boolean
  interactiveMode?: string
}

/** The cluster as the plugin sees it in spec.cluster (with provideClusterInfo). */
export interface ExecCluster {
  server: string
  'certificate-authority-data'?: string
  'tls-server-name'?: string
  'insecure-skip-tls-verify'?: boolean
  /** The cluster's client.authentication.k8s.io/exec extension. */
  config?: unknown
}

interface ExecStatus {
  token?: string
  clientCertificateData?: string
  clientKeyData?: string
  expirationTimestamp?: string
}

interface Ran { code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }

/** Runs the plugin once per call; its configuration is checked now, as client-go does when it loads a kubeconfig. */
export function execPlugin (exec: ExecConfig, resolve: (path: string) => string, cluster: ExecCluster): () => Promise<Fresh> {
  const name = exec.command ?? ''
  if (!name) throw new Error('exec plugin: no command')
  const apiVersion = exec.apiVersion ?? ''
  if (!API_VERSIONS.includes(apiVersion)) throw new Error(`exec plugin ${name}: apiVersion "${apiVersion}" is not one of ${API_VERSIONS.join(', ')}`)
  if (exec.interactiveMode === 'Always') throw new Error(`exec plugin ${name}: interactiveMode Always needs a terminal; plugins run non-interactively here`)
  // Like client-go: a command with a slash is a path (relative to the kubeconfig), one without is looked up on PATH.
  const command = name.includes('/') ? resolve(name) : name
  const request = { apiVersion, kind: 'ExecCredential', spec: { interactive: false, ...(exec.provideClusterInfo ? { cluster } : {}) } }
  const env = {
    ...process.env,
    ...Object.fromEntries((exec.env ?? []).filter(e => e?.name).map(e => [e.name, e.value ?? ''])),
    KUBERNETES_EXEC_INFO: JSON.stringify(request)
  }
  return async () => {
    const ran = await run(command, exec.args ?? [], env).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw new Error(`exec plugin ${name}: ${readProblem(err)}`)
      throw new Error(`exec plugin ${name}: executable not found${exec.installHint ? `; ${oneLine(exec.installHint)}` : ''}`)
    })
    if (ran.code !== 0) throw new Error(`exec plugin ${name}: ${failure(ran)}`)
    return parseCredential(ran.stdout, name, apiVersion)
  }
}

function failure (ran: Ran): string {
  const why = ran.code === null ? `killed by ${ran.signal ?? 'a signal'}` : `failed with exit code ${ran.code}`
  const stderr = ran.stderr.split('\n').map(l => l.trim()).filter(Boolean).slice(0, 3).join(' ').slice(0, 300)
  return stderr ? `${why}: ${stderr}` : why
}

function parseCredential (stdout: string, name: string, apiVersion: string): Fresh {
  const fail = (message: string) => new Error(`exec plugin ${name}: ${message}`)
  let answer: { apiVersion?: unknown, kind?: unknown, status?: ExecStatus | null } | null
  try {
    answer = JSON.parse(stdout)
  } catch {
    throw fail(`printed invalid JSON: ${JSON.stringify(stdout.trim().slice(0, 80))}`)
  }
  if (answer?.apiVersion !== apiVersion || answer.kind !== 'ExecCredential') {
    throw fail(`printed apiVersion ${JSON.stringify(answer?.apiVersion)} kind ${JSON.stringify(answer?.kind)}, expected an ExecCredential of ${apiVersion}`)
  }
  const { token, clientCertificateData: cert, clientKeyData: key, expirationTimestamp } = answer.status ?? {}
  if (Boolean(cert) !== Boolean(key)) throw fail('returned a client certificate without its key, or a key without its certificate')
  if (!token && !cert) throw fail('returned no token and no client certificate')
  const expires = expirationTimestamp ? Date.parse(expirationTimestamp) - EXPIRY_MARGIN_MS : Infinity
  if (Number.isNaN(expires)) throw fail(`returned an invalid expirationTimestamp ${JSON.stringify(expirationTimestamp)}`)
  return {
    credentials: { headers: token ? { authorization: `Bearer ${token}` } : {}, ...(cert && key ? { cert, key } : {}) },
    expires
  }
}

/** Runs a command without stdin (a plugin must not wait for input), collecting its output, for at most 60 s. */
function run (command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let timedOut = false
    const timer = setTimeout(() => { timedOut = true; child.kill() }, TIMEOUT_MS)
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', err => { clearTimeout(timer); reject(err) })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (timedOut) reject(new Error(`no answer within ${TIMEOUT_MS / 1000} s`))
      else resolve({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') })
    })
  })
}

const oneLine = (text: string) => text.split('\n').map(l => l.trim()).filter(Boolean).join(' ')
