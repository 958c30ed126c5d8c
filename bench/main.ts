// npm run bench [-- options]: runs the scenario modules of bench/scenarios/index.ts and writes
// bench/results/latest.json and latest.md. See docs/benchmarks.md.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createCertificateAuthority } from '../src/tls/certificates.js'
import { repoRoot, type ScenarioContext } from './lib/context.js'
import { selectGenerator } from './lib/load.js'
import { detectPinning } from './lib/processes.js'
import { summarizeProfile, type CpuProfile } from './lib/profile.js'
import { renderMarkdown, smokeProblems, targetsTable } from './lib/report.js'
import { evaluateTargets } from './lib/targets.js'
import { runServerCases } from './lib/server-cases.js'
import type { BenchResult, CaseResult, RunSettings, ScenarioResult } from './lib/types.js'
import { hookWorkloads } from './lib/workloads.js'
import { scenarios } from './scenarios/index.js'

const USAGE = `usage: npm run bench -- [options]
  --smoke               every scenario very briefly (1 repetition, ~1 s); fails unless every case has numbers and no errors
  --scenario 1,2        run only these scenarios
  --case <prefix>       run only cases whose id starts with a prefix (repeatable), e.g. ours/bcc-5k/http
  --generator <name>    wrk or autocannon (default: wrk when installed)
  --repetitions <n>     measured repetitions per case (default 3)
  --duration <s>        seconds per server repetition (default 3)
  --warmup <s>          seconds of warm-up load per server (default 2)
  --client-rep <s>      seconds per client repetition (default 1)
  --out <dir>           where latest.json and latest.md go (default bench/results; smoke: not written unless given)
  --profile <case id>   run one case (Node server or client) once under --cpu-prof; write a summary of the profile to the out dir
  --report <json>       measure nothing: judge a recorded run (a latest.json) against today's targets and write latest.json and latest.md to the out dir`

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    scenario: { type: 'string' },
    case: { type: 'string', multiple: true },
    generator: { type: 'string' },
    repetitions: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    'client-rep': { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', default: false }
  }
})
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}

const mode = values.smoke ? 'smoke' : 'full'
const number = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, not ${value}`)
  return n
}
const settings: RunSettings = mode === 'smoke'
  ? { repetitions: 1, durationS: 1, warmupS: 0, clientRepS: 0.2, clientMinCalls: 2 }
  : {
      repetitions: Math.max(1, Math.round(number(values.repetitions, 3, 'repetitions'))),
      durationS: Math.max(1, Math.round(number(values.duration, 3, 'duration'))),
      warmupS: Math.round(number(values.warmup, 2, 'warmup')),
      clientRepS: number(values['client-rep'], 1, 'client-rep'),
      clientMinCalls: 5
    }
const outDir = values.out !== undefined ? resolve(values.out) : mode === 'full' ? join(repoRoot, 'bench/results') : undefined
const prefixes = values.profile !== undefined ? [values.profile] : values.case ?? []
const selected = (id: string) => prefixes.length === 0 || prefixes.some(p => values.profile !== undefined ? id === p : id.startsWith(p))
const wanted = values.scenario?.split(',').map(s => s.trim())
const chosen = scenarios.filter(s => wanted === undefined || wanted.includes(s.id))

const log = (line: string) => process.stderr.write(`${line}\n`)
if (values.report !== undefined) {
  // The targets change more often than a full run can be repeated: a recorded run is judged again.
  const recorded = JSON.parse(readFileSync(values.report, 'utf8')) as BenchResult
  const result: BenchResult = { ...recorded, targets: evaluateTargets(recorded.scenarios.flatMap(r => r.cases)) }
  const dir = outDir ?? join(repoRoot, 'bench/results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`)
  writeFileSync(join(dir, 'latest.md'), renderMarkdown(result))
  log(`bench: judged ${values.report} again; wrote ${join(dir, 'latest.json')} and latest.md`)
  process.exit(0)
}
const workDir = mkdtempSync(join(tmpdir(), 'runtime-sdk-bench-'))
const started = Date.now()
const loadStart = loadavg()

try {
  const certDir = join(workDir, 'certs')
  mkdirSync(certDir)
  const ca = await createCertificateAuthority('runtime-sdk bench CA')
  const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
  writeFileSync(join(certDir, 'ca.crt'), ca.cert)
  writeFileSync(join(certDir, 'tls.crt'), leaf.cert)
  writeFileSync(join(certDir, 'tls.key'), leaf.key)
  const workloads = hookWorkloads().map(w => {
    const bodyFile = join(workDir, `${w.id}.json`)
    writeFileSync(bodyFile, w.body)
    return { ...w, bodyFile }
  })
  const pinning = detectPinning()
  const generator = selectGenerator(values.generator)
  const profileDir = outDir ?? join(repoRoot, 'bench/results')
  const ctx: ScenarioContext = {
    mode,
    settings,
    generator,
    pinning,
    workDir,
    certDir,
    workloads,
    selected,
    log,
    ...(values.profile !== undefined ? { profile: { caseId: values.profile, dir: join(profileDir, `${values.profile.replace(/\//g, '_')}.cpuprofiles`) } } : {})
  }
  if (ctx.profile) rmSync(ctx.profile.dir, { recursive: true, force: true }) // only this run's profiles
  log(`bench: ${mode} run, ${generator.name}, ${pinning.pinned ? 'pinned (server core 0, load core 1)' : 'not pinned'}, load average ${loadStart.map(l => l.toFixed(2)).join(' ')}`)

  // Server scenarios are measured together, case by case; the others run one after another.
  const serverScenarios = chosen.filter(s => 'servers' in s)
  if (serverScenarios.length > 0) log(`scenarios ${serverScenarios.map(s => s.id).join(', ')}: ${serverScenarios.map(s => s.name).join(', ')} (side by side)`)
  const suts = serverScenarios.map(s => 'servers' in s ? s.servers(ctx) : [])
  const flat = await runServerCases(ctx, suts.flat())
  let next = 0
  const serverCases = suts.map(group => group.flatMap(() => flat[next++] ?? []))
  const results: ScenarioResult[] = []
  for (const scenario of chosen) {
    let cases: CaseResult[]
    if ('servers' in scenario) {
      cases = serverCases[serverScenarios.indexOf(scenario)] ?? []
    } else {
      log(`scenario ${scenario.id}: ${scenario.name}`)
      cases = await scenario.run(ctx)
    }
    results.push({ id: scenario.id, name: scenario.name, description: scenario.description, columns: scenario.columns, rateUnit: scenario.rateUnit, cases })
  }

  if (values.profile !== undefined) {
    const name = values.profile.replace(/\//g, '_')
    const dir = join(profileDir, `${name}.cpuprofiles`)
    // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; the main thread is thread 0.
    const file = existsSync(dir) ? readdirSync(dir).find(f => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) : undefined
    if (!file) throw new Error(`no profile was written for ${values.profile} (is it the id of a Node server case, e.g. ours/bcc-5k/https/c10, or of a client case?)`)
    const summary = results.flatMap(r => r.cases).find(c => c.id === values.profile)?.summary
    const measured = summary ? `; under the profiler ${summary.rps.toFixed(0)}/s, p50 ${summary.p50Ms.toFixed(2)} ms` : ''
    const heading = `CPU profile of ${values.profile} (Node ${process.version}, ${generator.name}, ${new Date().toISOString()}${measured})`
    const text = summarizeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, heading)
    writeFileSync(join(profileDir, `profile-${name}.txt`), text)
    console.log(text)
    log(`bench: wrote ${join(profileDir, `profile-${name}.txt`)} (raw profiles in ${dir}, not committed)`)
  } else {
    const result: BenchResult = {
      meta: {
        date: new Date().toISOString(),
        mode,
        node: process.version,
        cores: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        loadAverage: { start: loadStart, end: loadavg() },
        generator: generator.name,
        pinned: pinning.pinned,
        commit: gitCommit(),
        settings,
        elapsedS: (Date.now() - started) / 1000
      },
      scenarios: results,
      targets: evaluateTargets(results.flatMap(r => r.cases))
    }
    const markdown = renderMarkdown(result)
    if (outDir) {
      mkdirSync(outDir, { recursive: true })
      writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`)
      writeFileSync(join(outDir, 'latest.md'), markdown)
      log(`bench: wrote ${join(outDir, 'latest.json')} and latest.md`)
    }
    console.log(mode === 'smoke' ? targetsTable(result.targets) : markdown)
    log(`bench: ${(result.meta.elapsedS / 60).toFixed(1)} min`)
    if (mode === 'smoke') {
      // With --case, scenarios without a chosen case are not expected to run any.
      const problems = smokeProblems(prefixes.length > 0 ? results.filter(r => r.cases.length > 0) : results)
      if (problems.length > 0) {
        log(`bench smoke: FAILED\n  ${problems.join('\n  ')}`)
        process.exitCode = 1
      } else {
        log(`bench smoke: every scenario produced numbers with zero errors (${results.reduce((n, r) => n + r.cases.length, 0)} cases)`)
      }
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true })
}

function gitCommit (): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' })
  if (head.status !== 0) return 'unknown'
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8' })
  return `${head.stdout.trim()}${dirty.stdout.trim() !== '' ? ' (with uncommitted changes)' : ''}`
}
