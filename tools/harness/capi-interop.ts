// Real Cluster API peers for interop tests, built from CAPI v1.14.2's own Go code (tools/capi-interop):
//
// - `extension`: a Runtime Extension served by CAPI's server SDK (sigs.k8s.io/cluster-api/exp/runtime/server)
//   implementing every v1alpha1 hook; handlers named like CAPI's test extension plus BeforeClusterCreate
//   `blocking` (retryAfterSeconds 30), `failing` (status Failure) and `slow` (timeoutSeconds 1, Ignore).
// - `caller`: the calling side, imitating CAPI's runtime client on the wire (Discovery, then every handler with
//   the hook's sample request), decoding answers strictly into CAPI's Go types.
// - `fixtures`: regenerates test/fixtures/v1alpha1.
// - `cluster-api-extensionconfigs-crd.yaml`: Cluster API's own ExtensionConfig CRD, copied from the module.
// - `randreq`: requests filled at random from CAPI's Go types (seeded), plus large valid ones, sent to every handler.
//   The extension's --random-responses-seed answers random responses of every hook instead (see readCapiAnswers).
// - `parity`: a corpus of requests filled from CAPI's Go types and mutated, sent to CAPI's server SDK (the extension
//   with --echo) and to a server under test, comparing verdicts, messages and what the handlers read (runParity).
// - `topology`: random GeneratePatches requests answered by CAPI's topologymutation toolkit (WalkTemplates and its
//   variable getters), and CAPI's patch engine applying answers to templates (see capiTopologyCases).
// - `gotemplate`: Go's text/template with sprig's hermetic functions, and CAPI's inline patch generator rendering
//   valueFrom.template and enabledIf (see runGoTemplateCases).
//
// Binaries come from `tools/build.sh capi-interop` (cached outside the repository; a cold build compiles
// controller-runtime and client-go and takes minutes). buildCapiInterop() resolves undefined only when `go` is
// not installed, so tests can skip with a clear message.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { GeneratePatchesRequest, GeneratePatchesResponse } from '../../src/api/hooks/v1alpha1/types.generated.js'
import { buildGoModule } from './go-tools.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** True when a `go` command is on PATH. */
export function goAvailable (): boolean {
  const probe = spawnSync('go', ['version'], { stdio: 'ignore' })
  return probe.error === undefined && probe.status === 0
}

/**
 * Builds (or finds in the cache) the capi-interop binaries and resolves their directory.
 * Resolves undefined, without throwing, only when `go` is not on PATH; build failures reject.
 */
export function buildCapiInterop (): Promise<string | undefined> {
  return goAvailable() ? buildGoModule('capi-interop') : Promise.resolve(undefined)
}

async function binDir (): Promise<string> {
  const dir = await buildCapiInterop()
  if (dir === undefined) throw new Error('capi-interop: go is not installed')
  return dir
}

/** Cluster API's ExtensionConfig CRD as its manifests ship it (without the labels its kustomization adds). */
export async function readClusterApiExtensionConfigCrd (): Promise<string> {
  return await readFile(join(await binDir(), 'cluster-api-extensionconfigs-crd.yaml'), 'utf8')
}

export interface CapiExtensionOptions {
  /** Port to listen on (default 0: a free port). */
  port?: number
  /** Where ca.crt, tls.crt, tls.key, client.crt and client.key are written (default: a temporary directory removed on stop). */
  certDir?: string
  /** PEM CA bundle for client certificates: enables mTLS. May be `<certDir>/ca.crt` (then client.crt/client.key pass). */
  clientCa?: string
  /** Sleep of the `slow` handler, as a Go duration (default "3s"). */
  slowDelay?: string
  /** Milliseconds to wait for the JSON line (default 60 s). */
  startTimeoutMs?: number
  /** Every handler answers random responses seeded by this value (`--random-responses-seed`). */
  randomResponsesSeed?: number
  /** With randomResponsesSeed: file the extension appends every answer to (`--answers-log`, see readCapiAnswers). */
  answersLog?: string
  /** The extension stops itself after this Go duration (`--exit-after`), e.g. "15m". */
  exitAfter?: string
  /** Every handler answers Success with the request it read, marshalled, as its message (`--echo`). */
  echo?: boolean
}

export interface CapiExtension {
  /** https://127.0.0.1:<port> */
  readonly url: string
  /** CA that verifies the serving certificate (`<certDir>/ca.crt`). */
  readonly caFile: string
  readonly certDir: string
  /** Client certificate and key signed by caFile (for mTLS with clientCa = caFile). */
  readonly clientCertFile: string
  readonly clientKeyFile: string
  /** Everything the extension logged to stderr so far. */
  stderr (): string
  /** SIGTERM (SIGKILL after 5 s), wait for exit, remove a temporary cert dir; idempotent. */
  stop (): Promise<void>
}

const running = new Set<ChildProcess>()
let exitHookInstalled = false

function installExitHook (): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL')
  })
}

/** Starts CAPI's server SDK extension and resolves once it printed its {"url","caFile"} line. */
export async function startCapiExtension (opts: CapiExtensionOptions = {}): Promise<CapiExtension> {
  const bin = await binDir()
  const ownDir = opts.certDir === undefined
  const certDir = opts.certDir ?? await mkdtemp(join(tmpdir(), 'capi-interop-'))
  const args = ['--port', String(opts.port ?? 0), '--cert-dir', certDir]
  if (opts.clientCa !== undefined) args.push('--client-ca', opts.clientCa)
  if (opts.slowDelay !== undefined) args.push('--slow-delay', opts.slowDelay)
  if (opts.randomResponsesSeed !== undefined) args.push('--random-responses-seed', String(opts.randomResponsesSeed))
  if (opts.answersLog !== undefined) args.push('--answers-log', opts.answersLog)
  if (opts.exitAfter !== undefined) args.push('--exit-after', opts.exitAfter)
  if (opts.echo === true) args.push('--echo')

  const child = spawn(join(bin, 'extension'), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  installExitHook()
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const exited = new Promise<void>(resolve => child.once('close', () => { running.delete(child); resolve() }))

  let stopped = false
  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(timer)
      }
      if (ownDir) rmSync(certDir, { recursive: true, force: true })
    }
  }

  try {
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout })
      const timer = setTimeout(() => reject(new Error(`capi-interop extension printed nothing within ${opts.startTimeoutMs ?? 60_000} ms:\n${stderr}`)), opts.startTimeoutMs ?? 60_000)
      lines.once('line', (l) => { clearTimeout(timer); resolve(l) })
      child.once('error', (err) => { clearTimeout(timer); reject(err) })
      exited.then(() => { clearTimeout(timer); reject(new Error(`capi-interop extension exited (code ${child.exitCode}) before listening:\n${stderr}`)) }, reject)
    })
    const parsed = JSON.parse(line) as { url?: unknown, caFile?: unknown }
    if (typeof parsed.url !== 'string' || typeof parsed.caFile !== 'string') throw new Error(`unexpected extension output: ${line}`)
    return {
      url: parsed.url,
      caFile: parsed.caFile,
      certDir,
      clientCertFile: join(certDir, 'client.crt'),
      clientKeyFile: join(certDir, 'client.key'),
      stderr: () => stderr,
      stop
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/** One line of the caller's output. */
export interface CapiCall {
  hook: string
  /** Handler name; "" for Discovery. */
  handler: string
  /** 0 when no HTTP response was received (transport error, timeout). */
  httpStatus: number
  status: string
  message: string
  retryAfterSeconds: number
  /** Effective timeout of the call (handler timeoutSeconds, defaulted to 10 / --timeout). */
  timeoutSeconds: number
  /** Defaulted failurePolicy of the handler (not on Discovery). */
  failurePolicy?: string
  /** Discovery only: the discovered handlers after CAPI's defaulting. */
  handlers?: Array<{ name: string, hook: string, apiVersion: string, timeoutSeconds: number, failurePolicy: string }>
  /** Set only when the call failed (transport, non-200, strict decode, invalid discovery, unknown status). */
  error?: string
}

export interface CapiCallerResult {
  code: number | null
  calls: CapiCall[]
  stdout: string
  stderr: string
}

/** Runs the CAPI-imitating caller (args: --url, --ca-file, [--client-cert, --client-key, --hooks, --timeout, --fixtures-dir]). */
export async function runCapiCaller (args: string[], opts: { timeoutMs?: number } = {}): Promise<CapiCallerResult> {
  return runJsonLines<CapiCall>('caller', args, opts.timeoutMs ?? 120_000)
}

/** Runs one of the module's commands that print a JSON object per line; kills it after timeoutMs. */
async function runJsonLines<T> (command: string, args: string[], timeoutMs: number): Promise<{ code: number | null, calls: T[], stdout: string, stderr: string }> {
  const bin = await binDir()
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, command), args, { stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    installExitHook()
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (err) => { clearTimeout(timer); running.delete(child); reject(err) })
    child.on('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      try {
        const calls = stdout.split('\n').filter(l => l.trim() !== '').map(l => JSON.parse(l) as T)
        resolve({ code, calls, stdout, stderr })
      } catch (err) {
        reject(new Error(`capi-interop ${command} printed a non-JSON line: ${String(err)}\n${stdout.slice(0, 4000)}`))
      }
    })
  })
}

/** Directory of the committed wire fixtures generated by tools/capi-interop/cmd/fixtures. */
export const capiFixturesDir = join(repoRoot, 'test/fixtures/v1alpha1')

/** One answer of the extension started with randomResponsesSeed and answersLog. */
export interface CapiAnswer {
  hook: string
  /** Handler name as served (without the ExtensionConfig suffix). */
  handler: string
  /** Index of the call of this handler, from 0. */
  call: number
  /** The JSON the server SDK sent. */
  response: Record<string, unknown>
  /** `response` decoded into Cluster API's Go response type and marshalled again: what Cluster API's client hands back. */
  decoded: Record<string, unknown>
}

/** Reads the answers log of the extension. */
export async function readCapiAnswers (file: string): Promise<CapiAnswer[]> {
  const text = await readFile(file, 'utf8')
  return text.split('\n').filter(l => l.trim() !== '').map(l => JSON.parse(l) as CapiAnswer)
}

/** One line of randreq's output. */
export interface RandReqCall {
  hook: string
  /** Handler name; "" for Discovery. */
  handler: string
  /** "discovery", "random-<n>" or the name of a large case (e.g. "large-labels-1100"). */
  case: string
  /** Size of the request body. */
  bytes: number
  /** 0 when no HTTP response was received. */
  httpStatus: number
  status: string
  message: string
  /** Set when the call failed (transport, non-200, undecodable answer) or discovery failed. */
  error?: string
}

export interface RandReqResult {
  code: number | null
  calls: RandReqCall[]
  stdout: string
  stderr: string
}

/**
 * Runs randreq (args: --seed, --per-hook, --url, --ca-file, [--client-cert, --client-key, --hooks, --timeout,
 * --dump-dir, --list]): requests filled at random from Cluster API's Go types, plus large valid ones, sent to every
 * discovered handler like Cluster API's client sends them. The process is killed after timeoutMs (default 10 min).
 */
export async function runRandReq (args: string[], opts: { timeoutMs?: number } = {}): Promise<RandReqResult> {
  return runJsonLines<RandReqCall>('randreq', args, opts.timeoutMs ?? 600_000)
}

/** One case of parity's corpus that disagrees, or exercises a difference listed in docs/differences.md. */
export interface ParityCase {
  hook: string
  /** "<index>-<mutation>" */
  case: string
  /** What was changed: "valid", "null", "wrong-type", "number", "timestamp", "deep", "case-variant-key", ... */
  mutation: string
  /** Where: keys from the root joined with ".", "" for the root. */
  path: string
  /** The listed difference the case exercises, if any. */
  difference?: string
  /** "verdict", "value" or "message" when the servers disagree outside the listed differences. */
  problem?: string
  detail?: string
  goRefused: boolean
  oursRefused: boolean
}

/** The summary line of one hook. */
export interface ParitySummary {
  summary: true
  hook: string
  cases: number
  /** Cases the server under test accepted and refused. */
  accepted: number
  refused: number
  /** Disagreements by kind (verdict, value, message). */
  problems: Record<string, number>
  /** Cases of each listed difference, and how many each server refused. */
  differences: Record<string, { cases: number, goRefused: number, oursRefused: number }>
  /** Verdicts of the server under test per mutation. */
  mutations: Record<string, { accepted: number, refused: number }>
}

/**
 * Runs parity (args: --go-url, --go-ca-file, --url, --ca-file, [--seed, --per-hook, --hooks, --concurrency,
 * --dump-dir]); the process is killed after timeoutMs (default 15 min).
 */
export async function runParity (args: string[], opts: { timeoutMs?: number } = {}): Promise<{ code: number | null, cases: ParityCase[], summaries: ParitySummary[], stderr: string }> {
  const res = await runJsonLines<ParityCase | ParitySummary>('parity', args, opts.timeoutMs ?? 900_000)
  return {
    code: res.code,
    cases: res.calls.filter((c): c is ParityCase => !('summary' in c)),
    summaries: res.calls.filter((c): c is ParitySummary => 'summary' in c),
    stderr: res.stderr
  }
}

/** What one of Cluster API's variable getters said about a path: the value (JSON), not found, or another error. */
export interface CapiGetterResult {
  value?: unknown
  notFound?: boolean
  error?: string
}

/** One case of `topology generate`: a random GeneratePatches request, Cluster API's answers, its getters' reads. */
export interface CapiTopologyCase {
  name: string
  request: GeneratePatchesRequest
  /** WalkTemplates' answers with the mutations of tools/capi-interop/internal/walk, by patch format. */
  responses: Record<'JSONPatch' | 'JSONMergePatch', GeneratePatchesResponse>
  /** GetVariable, GetStringVariable and GetBoolVariable on paths of each item's merged variables. */
  lookups: Array<{ item: number, path: string, get: CapiGetterResult, string: CapiGetterResult, bool: CapiGetterResult }>
}

/** Runs `topology generate`: `count` random GeneratePatches requests with Cluster API's toolkit's answers and reads. */
export async function capiTopologyCases (seed: number, count: number): Promise<CapiTopologyCase[]> {
  const { code, calls, stderr } = await runJsonLines<CapiTopologyCase>('topology', ['generate', '--seed', String(seed), '--count', String(count)], 600_000)
  if (code !== 0) throw new Error(`capi-interop topology generate exited ${code}: ${stderr}`)
  return calls
}

/** A `topology apply` process: applies answers to a request's templates as Cluster API's patch engine does. */
export interface CapiPatchApplier {
  /** Every template of the request after the answer's patches (a rejection names what Cluster API refused). */
  apply (request: GeneratePatchesRequest, response: GeneratePatchesResponse): Promise<unknown[]>
  stop (): Promise<void>
}

/** Starts `topology apply`; answers come back in the order the requests were written. */
export async function startCapiPatchApplier (): Promise<CapiPatchApplier> {
  const child = spawn(join(await binDir(), 'topology'), ['apply'], { stdio: ['pipe', 'pipe', 'pipe'] })
  running.add(child)
  installExitHook()
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const waiting: Array<{ resolve: (templates: unknown[]) => void, reject: (err: Error) => void }> = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    const next = waiting.shift()
    const answer = JSON.parse(line) as { templates?: unknown[], error?: string }
    if (answer.error !== undefined) next?.reject(new Error(answer.error))
    else next?.resolve(answer.templates ?? [])
  })
  const exited = new Promise<void>(resolve => child.once('close', () => {
    running.delete(child)
    for (const w of waiting.splice(0)) w.reject(new Error(`capi-interop topology apply exited: ${stderr}`))
    resolve()
  }))
  return {
    apply: (request, response) => new Promise((resolve, reject) => {
      waiting.push({ resolve, reject })
      child.stdin.write(JSON.stringify({ request, response }) + '\n')
    }),
    stop: async () => { child.stdin.end(); await exited }
  }
}

/** One case of `gotemplate`: a template, the variables (name → JSON value) and what to run. */
export interface GoTemplateCase {
  template: string
  variables: Record<string, unknown>
  /**
   * render: text/template with sprig's HermeticTxtFuncMap over calculateTemplateData's data (no YAML step);
   * value: Cluster API's inline generator with the template as a valueFrom.template; enabled: as the patch's enabledIf.
   */
  mode: 'render' | 'value' | 'enabled'
}

/** What Go said about a case: exactly one field is set. */
export interface GoTemplateResult {
  output?: string
  value?: unknown
  enabled?: boolean
  error?: string
  /** A panic that escaped the code under test. */
  panic?: string
}

/** Runs `gotemplate` over the cases (one process, JSON lines both ways); the answers come back in order. */
export async function runGoTemplateCases (cases: readonly GoTemplateCase[], opts: { timeoutMs?: number } = {}): Promise<GoTemplateResult[]> {
  const bin = await binDir()
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, 'gotemplate'), [], { stdio: ['pipe', 'pipe', 'pipe'] })
    running.add(child)
    installExitHook()
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000)
    child.on('error', (err) => { clearTimeout(timer); running.delete(child); reject(err) })
    child.on('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      const results = stdout.split('\n').filter(l => l !== '').map(l => JSON.parse(l) as GoTemplateResult)
      if (code !== 0 || results.length !== cases.length) reject(new Error(`capi-interop gotemplate exited ${code} with ${results.length} of ${cases.length} answers: ${stderr}`))
      else resolve(results)
    })
    child.stdin.end(cases.map(c => JSON.stringify(c)).join('\n') + '\n')
  })
}
