// A fuzz of hostile classes: seeded mutations of examples/simulate and of Cluster API's four published classes (read
// from its test module in the Go module cache when it is there; test/helpers/capi-classes.ts), each simulated as
// `simulate -f` would (the files read as manifests, the Cluster created within a budget). The mutations are what a
// platform team's class or a tenant's Cluster can hold: regular expressions that backtrack exponentially elsewhere
// (sprig, CEL, OpenAPI pattern), alias bombs, nesting beyond 10,000 levels, 10 MB strings, templates that call
// themselves or each other, huge ranges, invalid UTF-8, control characters, NaN and infinities, duplicate keys,
// variables with 10,000 entries. A case with one mutation states what it must end with (Go's message where Go has
// one); every case must end without a crash (an error the package does not define) or a stack trace.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stringify } from 'yaml'
import { type Budget, withBudget } from '../../src/budget/index.js'
import { readInputs } from '../../src/cli/inputs.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { type Unstructured, simulate } from '../../src/simulate/index.js'
import { clusterApiClass } from './capi-classes.js'
import { aliasBomb } from './hostile.js'
import { mulberry32 } from '../../tools/harness/seeded-random.js'

/** A class to mutate: the Cluster, its ClusterClass and templates. */
export interface FuzzBase { name: string, objects: Unstructured[] }

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))

const CAPI_CLASSES: Array<{ name: string, file: string, className: string }> = [
  { name: 'quick-start', file: 'e2e/data/infrastructure-docker/main/clusterclass-quick-start.yaml', className: 'quick-start' },
  { name: 'runtimesdk', file: 'e2e/data/infrastructure-docker/main/clusterclass-quick-start-runtimesdk.yaml', className: 'quick-start-runtimesdk' },
  { name: 'in-memory', file: 'e2e/data/infrastructure-docker/main/clusterclass-in-memory.yaml', className: 'in-memory' },
  { name: 'capd', file: 'infrastructure/docker/templates/clusterclass-quick-start.yaml', className: 'quick-start' }
]

function clusterOf (name: string, className: string): Unstructured {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name, namespace: 'default' },
    spec: {
      clusterNetwork: { services: { cidrBlocks: ['10.128.0.0/12'] }, pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' },
      topology: { classRef: { name: className }, version: 'v1.34.0', controlPlane: { replicas: 1 }, workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] } }
    }
  }
}

/** examples/simulate, and Cluster API's four published classes when its test module can be read (else none of them). */
export async function fuzzBases (): Promise<{ bases: FuzzBase[], skipped?: string }> {
  const { readDocuments } = await import('../../src/kube/manifests.js')
  const example = (await Promise.all(['cluster.yaml', 'clusterclass.yaml', 'templates.yaml'].map(f => readDocuments(`${EXAMPLE}${f}`)))).flat() as Unstructured[]
  const bases = [{ name: 'example', objects: example }]
  try {
    for (const c of CAPI_CLASSES) {
      const objects = clusterApiClass(c.file, 'default', { variables: { EXTENSION_CONFIG_NAME: 'reference', DOCKER_PRELOAD_IMAGES: '[]' } }) as Unstructured[]
      bases.push({ name: c.name, objects: [clusterOf(c.name, c.className), ...objects] })
    }
  } catch (err) {
    return { bases, skipped: `Cluster API's classes: ${(err as Error).message.split('\n')[0] ?? ''}` }
  }
  return { bases }
}

/** A case's files and what it must end with. */
export interface FuzzCase {
  id: number
  base: string
  mutations: string[]
  /** clusterText is the Cluster's file, rest the class's and templates' (Buffers where a mutation wrote bytes). */
  clusterText: string | Buffer
  restText: string
  /** expect: the message the case must end with (Go's where Go has one), 'completes' (no error), or any outcome. */
  expect?: RegExp | 'completes'
}

/** The state a mutation changes: the objects, then the texts. */
interface Draft {
  cluster: Unstructured
  clusterClass: Unstructured
  objects: Unstructured[]
  textEdits: Array<(text: string) => string | Buffer>
}

type Spec = Record<string, any>

const forty = 'a'.repeat(40) + '!'
const setVariable = (d: Draft, name: string, value: unknown): void => {
  const variables = (d.cluster['spec'] as Spec)['topology'].variables as Array<{ name: string, value: unknown }>
  const found = variables.find(v => v.name === name)
  if (found) found.value = value
}
const schemaOf = (d: Draft, name: string): Spec => ((d.clusterClass['spec'] as Spec)['variables'] as Spec[]).find(v => v['name'] === name)?.['schema'].openAPIV3Schema as Spec

/** An inline patch on the infrastructure cluster's template: enabled by `enabledIf`, its value rendered from `template`. */
function addPatch (d: Draft, patch: { enabledIf?: string, template?: string }): void {
  const spec = d.clusterClass['spec'] as Spec
  const ref = spec['infrastructure'].templateRef as { apiVersion: string, kind: string }
  const value = patch.template !== undefined ? { valueFrom: { template: patch.template } } : { value: { fuzz: 'x' } }
  spec['patches'] = [...(spec['patches'] ?? []), {
    name: `fuzz-${(spec['patches'] ?? []).length}`,
    ...(patch.enabledIf !== undefined ? { enabledIf: patch.enabledIf } : {}),
    definitions: [{ selector: { apiVersion: ref.apiVersion, kind: ref.kind, matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/metadata', ...value }] }]
  }]
}

/** A CEL rule on a variable's schema. */
const addRule = (d: Draft, variable: string, rule: string): void => { schemaOf(d, variable)['x-kubernetes-validations'] = [{ rule }] }

/** Writes a variable's value in the Cluster's file as raw YAML text (or bytes), where YAML could not say it. */
function rawValue (d: Draft, name: string, raw: string | Buffer): void {
  const placeholder = `fuzz-placeholder-${name}`
  setVariable(d, name, placeholder)
  d.textEdits.push(text => {
    if (!text.includes(placeholder)) return text
    const [before = '', after = ''] = text.split(placeholder)
    return typeof raw === 'string' ? before + raw + after : Buffer.concat([Buffer.from(before), raw, Buffer.from(after)])
  })
}

/** A value nested `depth` levels deep, as flow YAML. */
const nested = (depth: number): string => `${'['.repeat(depth)}leaf${']'.repeat(depth)}`

/** The alias bomb as one flow mapping. */
const flowBomb = (): string => `{${aliasBomb().trim().split('\n').join(', ')}}`

interface Mutation { name: string, apply: (d: Draft) => void, expect?: RegExp | 'completes' }

const BUDGET_CUT = /^could not be computed: (took longer than|used more than)/

/** Every mutation. */
export const MUTATIONS: Mutation[] = [
  { name: 'sprig-backtracking', apply: d => addPatch(d, { enabledIf: `{{ regexMatch "^(a+)+$" "${forty}" }}` }), expect: 'completes' },
  { name: 'sprig-backtracking-find', apply: d => addPatch(d, { template: '{{ regexFind "(x+x+)+y" (repeat 20000 "x") | quote }}' }), expect: 'completes' },
  { name: 'sprig-backtracking-replace', apply: d => addPatch(d, { template: `{{ regexReplaceAll "(a|aa)+$" "${forty}" "b" | quote }}` }), expect: 'completes' },
  { name: 'sprig-backtracking-variable', apply: d => { setVariable(d, 'fuzzName', forty); addPatch(d, { enabledIf: '{{ regexMatch "^(a+)+$" .fuzzName }}' }) }, expect: 'completes' },
  { name: 'sprig-regex-10mb', apply: d => addPatch(d, { template: '{{ repeat 10000000 "a" | regexFind "(.*a){20}" | len }}' }), expect: BUDGET_CUT },
  { name: 'sprig-invalid-regex', apply: d => addPatch(d, { enabledIf: '{{ mustRegexMatch "a(" "x" }}' }), expect: /error parsing regexp: missing closing \): `a\(`/ },
  { name: 'alias-bomb-template', apply: d => addPatch(d, { template: aliasBomb() }), expect: /yaml: document contains excessive aliasing$/ },
  { name: 'self-alias-template', apply: d => addPatch(d, { template: 'a: &s {b: [*s]}' }), expect: /yaml: anchor 's' value contains itself$/ },
  { name: 'nesting-template', apply: d => addPatch(d, { template: '{{ repeat 10001 "[" }}{{ repeat 10001 "]" }}' }), expect: /yaml: exceeded max depth of 10000$/ },
  { name: 'nesting-json', apply: d => addPatch(d, { template: '{{ repeat 5000 "- " }}{{ repeat 5001 "[" }}{{ repeat 5001 "]" }}' }), expect: /invalid character '\[' exceeded max depth$/ },
  { name: 'template-recursion', apply: d => addPatch(d, { enabledIf: '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}' }), expect: /\{\{template\}\} calls nested deeper than 1000/ },
  { name: 'templates-calling-each-other', apply: d => addPatch(d, { enabledIf: '{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ template "a" . }}{{ end }}{{ template "a" . }}' }), expect: /nested deeper than 1000/ },
  { name: 'huge-range', apply: d => addPatch(d, { enabledIf: '{{ range until 1000000 }}{{ range until 1000000 }}{{ end }}{{ end }}true' }), expect: BUDGET_CUT },
  { name: 'huge-output', apply: d => addPatch(d, { enabledIf: '{{ range until 1000000 }}{{ until 100 }}{{ end }}true' }), expect: BUDGET_CUT },
  { name: '10mb-rendered', apply: d => addPatch(d, { template: '{{ repeat 10000000 "a" }}' }) },
  { name: 'nan-rendered', apply: d => addPatch(d, { template: '.nan' }), expect: /json: unsupported value: NaN$/ },
  { name: 'control-rendered', apply: d => addPatch(d, { template: '{{ "a\\x01b" }}' }), expect: /yaml: control characters are not allowed$/ },
  { name: 'invalid-utf8-rendered', apply: d => addPatch(d, { template: '{{ "\\xff" }}' }) },
  { name: 'duplicate-keys-rendered', apply: d => addPatch(d, { template: 'a: 1\na: 2\nb: 3' }) },
  { name: '10000-entries-rendered', apply: d => addPatch(d, { template: '{{ range until 10000 }}k{{ . }}: {{ . }}\n{{ end }}' }) },
  { name: 'cel-backtracking', apply: d => { addRule(d, 'fuzzName', "!self.matches('^(a+)+$')"); setVariable(d, 'fuzzName', forty) }, expect: 'completes' },
  { name: 'cel-backtracking-find', apply: d => { addRule(d, 'fuzzName', "self.find('(x+x+)+y') == ''"); setVariable(d, 'fuzzName', 'x'.repeat(20000)) }, expect: 'completes' },
  { name: 'cel-invalid-regex', apply: d => addRule(d, 'fuzzName', "self.matches('a(')"), expect: /error parsing regexp: missing closing \): `a\(`/ },
  { name: 'cel-quadratic', apply: d => { addRule(d, 'fuzzList', 'self.all(x, self.all(y, x == y || x != y))'); setVariable(d, 'fuzzList', Array.from({ length: 10000 }, (_, i) => `x${i}`)) }, expect: BUDGET_CUT },
  { name: 'pattern-backtracking', apply: d => { schemaOf(d, 'fuzzName')['pattern'] = '^(a+)+$'; setVariable(d, 'fuzzName', forty) }, expect: /fuzzName.* should match '\^\(a\+\)\+\$'/ },
  { name: '10mb-variable', apply: d => setVariable(d, 'fuzzName', 'a'.repeat(10_000_000)), expect: /Request entity too large: limit is 3145728$/ },
  { name: 'nesting-variable', apply: d => rawValue(d, 'fuzzList', nested(10_001)), expect: /yaml: line \d+: exceeded max depth of 10000$/ },
  { name: 'nesting-variable-600', apply: d => rawValue(d, 'fuzzList', nested(600)), expect: /levels deep: runtime-sdk reads up to 500$/ },
  { name: '10000-entries-list', apply: d => setVariable(d, 'fuzzList', Array.from({ length: 10000 }, (_, i) => `x${i}`)) },
  { name: '10000-entries-map', apply: d => setVariable(d, 'fuzzObject', Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`k${i}`, i]))) },
  { name: 'nan-variable', apply: d => rawValue(d, 'fuzzName', '.nan'), expect: /json: unsupported value: NaN$/ },
  { name: 'infinity-variable', apply: d => rawValue(d, 'fuzzName', '-.inf'), expect: /json: unsupported value: -Inf$/ },
  { name: 'invalid-utf8-variable', apply: d => rawValue(d, 'fuzzName', Buffer.from([0x61, 0xff, 0x62])), expect: /yaml: invalid leading UTF-8 octet$/ },
  { name: 'control-variable', apply: d => rawValue(d, 'fuzzName', 'a\x01'), expect: /yaml: control characters are not allowed$/ },
  { name: 'lone-surrogate-variable', apply: d => rawValue(d, 'fuzzName', '"\\ud800"') },
  { name: 'alias-bomb-variable', apply: d => rawValue(d, 'fuzzObject', flowBomb()), expect: /Excessive alias count/ },
  { name: 'self-alias-variable', apply: d => rawValue(d, 'fuzzObject', '&self {a: [*self]}'), expect: /yaml: anchor 'self' value contains itself$/ },
  { name: 'duplicate-keys-variable', apply: d => d.textEdits.push(text => text.replace(/(\n {2}name: .*\n)/, '$1  name: again\n')), expect: 'completes' }
]

function draftOf (base: FuzzBase): Draft {
  const objects = structuredClone(base.objects)
  const cluster = objects.find(o => o.kind === 'Cluster') as Unstructured
  const clusterClass = objects.find(o => o.kind === 'ClusterClass') as Unstructured
  const spec = clusterClass['spec'] as Spec
  spec['variables'] = [...(spec['variables'] ?? []),
    { name: 'fuzzName', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
    { name: 'fuzzList', required: false, schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } } },
    { name: 'fuzzObject', required: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }]
  const topology = (cluster['spec'] as Spec)['topology'] as Spec
  topology['variables'] = [...(topology['variables'] ?? []), { name: 'fuzzName', value: 'a' }, { name: 'fuzzList', value: ['a'] }, { name: 'fuzzObject', value: { a: 1 } }]
  return { cluster, clusterClass, objects, textEdits: [] }
}

/** A case to build: these mutations on a base. */
export interface FuzzPlan { id: number, base: FuzzBase, mutations: readonly Mutation[] }

/**
 * YAML text of an object, written fast when it holds huge strings: the yaml package's stringify looks at every
 * character of a 10 MB string for folding and quoting (0.3 s a case, most of the fuzz's time), so such strings go in
 * as a placeholder and are put back as the plain scalar stringify would write (letters and digits) or JSON-quoted (a
 * JSON string is a YAML double-quoted scalar).
 */
function yamlText (object: unknown): string {
  const huge: string[] = []
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return value.length < 65_536 ? value : `fuzz-huge-${huge.push(value) - 1}`
    if (Array.isArray(value)) return value.map(swap)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]))
    return value
  }
  const text = stringify(swap(object), { lineWidth: 0 })
  const scalar = (value: string): string => /^[A-Za-z0-9]+$/.test(value) ? value : JSON.stringify(value)
  return huge.length === 0 ? text : text.replace(/fuzz-huge-(\d+)/g, (_m, i: string) => scalar(huge[Number(i)] as string))
}

/** The files of a planned case (built when it runs: some hold 10 MB). */
export function buildCase ({ id, base, mutations }: FuzzPlan): FuzzCase {
  const draft = draftOf(base)
  for (const m of mutations) m.apply(draft)
  const rest = draft.objects.filter(o => o !== draft.cluster)
  let clusterText: string | Buffer = yamlText(draft.cluster)
  for (const edit of draft.textEdits) clusterText = edit(clusterText.toString('utf8'))
  const expect = mutations.length === 1 ? mutations[0]?.expect : undefined
  return { id, base: base.name, mutations: mutations.map(m => m.name), clusterText, restText: rest.map(yamlText).join('---\n'), ...(expect !== undefined ? { expect } : {}) }
}

/**
 * The cases: each mutation alone on each base (ids from 0), then `random` seeded cases, each a base with one mutation
 * (half of them) or two to three at once.
 */
export function fuzzPlan (bases: readonly FuzzBase[], seed: number, random: number): FuzzPlan[] {
  const cases: Array<Omit<FuzzPlan, 'id'>> = bases.flatMap(base => MUTATIONS.map(m => ({ base, mutations: [m] })))
  const next = mulberry32(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  for (let i = 0; i < random; i++) {
    const count = next() < 0.5 ? 1 : 2 + Math.floor(next() * 2)
    cases.push({ base: pick(bases), mutations: Array.from({ length: count }, () => pick(MUTATIONS)) })
  }
  return cases.map((c, id) => ({ id, ...c }))
}

/** How a case ended. */
export interface FuzzOutcome {
  /** ms is the wall-clock time it took, cpuMs the processor time (what it costs a core, whatever else the machine runs). */
  ms: number
  cpuMs: number
  /** message is the one line it ended with (undefined: it completed). */
  message?: string
  /** crash is set when it ended with an error the package does not define. */
  crash?: string
}

/** Runs a case as `simulate -f` does, within the budget, in `dir` (emptied first). */
export async function runFuzzCase (c: FuzzCase, dir: string, budget: Budget): Promise<FuzzOutcome> {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'cluster.yaml'), c.clusterText)
  writeFileSync(join(dir, 'rest.yaml'), c.restText)
  const start = performance.now()
  const cpu = process.cpuUsage()
  const took = (): { ms: number, cpuMs: number } => {
    const used = process.cpuUsage(cpu)
    return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 }
  }
  try {
    const { objects, sources } = await readInputs([dir])
    const result = await withBudget(budget, async () => await simulate({ handlers: referenceHandlers(), extensionName: 'reference', objects, sourceOf: o => sources.get(o), delete: false, checkDeterminism: false }))
    return { ...took(), ...(result.outcome === 'failed' ? { message: result.error ?? 'failed without a message' } : {}) }
  } catch (err) {
    const e = err as Error & { code?: unknown }
    const ours = typeof e.code === 'string' && e.code.startsWith('ERR_RUNTIME_SDK_')
    return { ...took(), message: e.message, ...(ours ? {} : { crash: `${e.name}: ${e.message}\n${e.stack ?? ''}` }) }
  }
}

/** What is wrong with an outcome, or undefined (limitMs bounds its processor time). */
export function fuzzProblem (c: FuzzCase, o: FuzzOutcome, limitMs: number): string | undefined {
  if (o.crash !== undefined) return `crashed: ${o.crash.slice(0, 2000)}`
  if (o.cpuMs > limitMs) return `took ${Math.round(o.cpuMs)} ms of processor time (${Math.round(o.ms)} ms in all)`
  if (o.message !== undefined && /\n\s+at /.test(o.message)) return `a stack trace in its message: ${o.message.slice(0, 300)}`
  if (c.expect === 'completes' && o.message !== undefined) return `expected to complete, ended with: ${o.message.slice(0, 300)}`
  if (c.expect instanceof RegExp && !c.expect.test(o.message ?? '')) return `expected ${String(c.expect)}, ended with: ${o.message?.slice(0, 300) ?? 'no error'}`
  return undefined
}

/** What a run of the fuzz found. */
export interface FuzzReport {
  cases: number
  /** slowest is the case that took the most processor time (ms), and its time in all (wallMs). */
  slowest: { ms: number, wallMs: number, id: number, base: string, mutations: string[] }
  crashes: number
  /** ended counts the cases by how they ended: completed, refused with a message, or cut by the budget. */
  ended: { completed: number, refused: number, cut: number }
  problems: string[]
}

/** Runs the planned cases whose id falls in this shard (id % shards === shard), in `dir`. */
export async function runFuzz (plan: readonly FuzzPlan[], options: { dir: string, budget: Budget, limitMs: number, shard?: number, shards?: number }): Promise<FuzzReport> {
  const report: FuzzReport = { cases: 0, slowest: { ms: 0, wallMs: 0, id: -1, base: '', mutations: [] }, crashes: 0, ended: { completed: 0, refused: 0, cut: 0 }, problems: [] }
  // Each base once unmutated and unbounded first, not counted: a process's first simulation also loads and compiles
  // the modules (some 300 ms), which is not the case's work.
  for (const base of new Set(plan.map(p => p.base))) await runFuzzCase(buildCase({ id: -1, base, mutations: [] }), options.dir, { timeoutMs: 0, memoryBytes: 0 })
  for (const p of plan) {
    if (p.id % (options.shards ?? 1) !== (options.shard ?? 0)) continue
    const c = buildCase(p)
    // A busy machine (CI runs the fuzz beside the Cluster API suites) inflates processor time: a case that owes Go's
    // answer and was cut by the short budget gets the bound every case is held to instead, and a case over that
    // bound runs once more before it counts as over.
    let budget = options.budget
    let o = await runFuzzCase(c, options.dir, budget)
    if (c.expect !== undefined && c.expect !== BUDGET_CUT && BUDGET_CUT.test(o.message ?? '')) {
      budget = { ...budget, timeoutMs: options.limitMs }
      o = await runFuzzCase(c, options.dir, budget)
    }
    if (o.cpuMs > options.limitMs) o = await runFuzzCase(c, options.dir, budget)
    report.cases++
    if (o.cpuMs > report.slowest.ms) report.slowest = { ms: Math.round(o.cpuMs), wallMs: Math.round(o.ms), id: c.id, base: c.base, mutations: c.mutations }
    if (o.crash !== undefined) report.crashes++
    if (o.message === undefined) report.ended.completed++
    else if (BUDGET_CUT.test(o.message)) report.ended.cut++
    else report.ended.refused++
    const problem = fuzzProblem(c, o, options.limitMs)
    if (problem !== undefined) report.problems.push(`case ${c.id} (${c.base}: ${c.mutations.join(' + ')}): ${problem}`)
  }
  return report
}

/** The full run's plan: every mutation alone on every base, then FULL_RANDOM_CASES seeded cases. */
export const FUZZ_SEED = 20261201
export const FULL_RANDOM_CASES = 10_000
/**
 * The full run's budget per case. A case that would run for hours is cut at it whatever its size, so a short one
 * proves the bound as well as the 30s default would, and keeps 10,000 cases to minutes (a typical case takes 60 ms).
 */
export const FULL_BUDGET = { timeoutMs: 250, memoryBytes: 256 * 2 ** 20 }
