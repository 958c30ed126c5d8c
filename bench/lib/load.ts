// Load generators: wrk (Debian package, lower overhead) when installed, else autocannon (npm devDependency).
// Both POST the same body with no Content-Type (or GET without a body) over keep-alive connections, one connection
// per concurrent request.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { parseAutocannon, parseWrk } from './parse.js'
import { runToEnd } from './processes.js'
import type { Run } from './types.js'

const wrkScript = fileURLToPath(new URL('../wrk.lua', import.meta.url))

/** What a healthy client asks: a POST of bodyFile, or a GET without one, with headers besides the generator's. */
export interface LoadRequest {
  url: string
  bodyFile?: string | undefined
  /** headers by name, e.g. content-type. */
  headers?: Record<string, string> | undefined
}

export interface LoadOptions extends LoadRequest {
  connections: number
  /** durationS is whole seconds (wrk's resolution). */
  durationS: number
  /** prefix pins the generator (taskset). */
  prefix: string[]
}

export interface LoadGenerator {
  /** name and version, e.g. "wrk 4.1.0". */
  name: string
  run: (options: LoadOptions) => Promise<Run>
}

const headerList = (request: LoadRequest): Array<[string, string]> => Object.entries(request.headers ?? {})

function wrkVersion (): string | undefined {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' })
  if (probe.error !== undefined) return undefined
  return /wrk (?:debian\/)?(\d+\.\d+\.\d+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1] ?? 'unknown'
}

const wrk = (version: string): LoadGenerator => ({
  name: `wrk ${version}`,
  run: async (o) => parseWrk(await runToEnd([...o.prefix, 'wrk', '-t1', `-c${o.connections}`, `-d${o.durationS}s`, '--timeout', '10s', '-s', wrkScript,
    ...headerList(o).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), o.url], { env: { BENCH_BODY: o.bodyFile ?? '' } }))
})

function autocannon (): LoadGenerator {
  const require = createRequire(import.meta.url)
  const cli = require.resolve('autocannon/autocannon.js')
  const version = (require('autocannon/package.json') as { version: string }).version
  return {
    name: `autocannon ${version}`,
    run: async (o) => parseAutocannon(await runToEnd([...o.prefix, process.execPath, cli, '-j', '-n', '-c', String(o.connections), '-d', String(o.durationS), '-t', '10',
      ...(o.bodyFile !== undefined ? ['-m', 'POST', '-i', o.bodyFile] : []), ...headerList(o).flatMap(([name, value]) => ['-H', `${name}=${value}`]), o.url]))
  }
}

/** wrk when installed (or asked for), otherwise autocannon. */
export function selectGenerator (preference?: string): LoadGenerator {
  if (preference !== undefined && preference !== 'wrk' && preference !== 'autocannon') throw new Error(`--generator must be wrk or autocannon, not ${preference}`)
  const version = preference === 'autocannon' ? undefined : wrkVersion()
  if (preference === 'wrk' && version === undefined) throw new Error('--generator wrk: wrk is not installed (apt-get install wrk)')
  return version !== undefined ? wrk(version) : autocannon()
}
