// Child processes of the harness: servers under test and load generators, pinned to their own core, with the
// server's resident set sampled from /proc while it is measured.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { parseRssMb } from './parse.js'

/** Command prefixes that pin the process under test and the load generator to different cores. */
export interface Pinning {
  server: string[]
  generator: string[]
  pinned: boolean
}

/** Core 0 for the server, core 1 for the load generator, when taskset exists and there are two cores or more. */
export function detectPinning (): Pinning {
  const taskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' })
  if (taskset.error !== undefined || taskset.status !== 0 || cpus().length < 2) return { server: [], generator: [], pinned: false }
  return { server: ['taskset', '-c', '0'], generator: ['taskset', '-c', '1'], pinned: true }
}

const running = new Set<ChildProcess>()
process.on('exit', () => { for (const child of running) child.kill('SIGKILL') })

export interface ServerProcess {
  /** The first line of the child that is a JSON object with a url (plus whatever else it said, e.g. caFile). */
  ready: Record<string, unknown> & { url: string }
  pid: number
  /** stop sends SIGTERM (SIGKILL after 10 s) and waits for the exit. */
  stop: () => Promise<void>
}

export interface StartOptions {
  command: string[]
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** logFile receives the child's stderr and everything it prints after the ready line. */
  logFile: string
  /** readyLine: the child is ready when a line of its stderr matches; group 1 is the URL (for commands as users run them). */
  readyLine?: RegExp
  startTimeoutMs?: number
}

/** Starts a child and resolves when it printed its ready line. */
export async function startServer (options: StartOptions): Promise<ServerProcess> {
  const [command, ...args] = options.command as [string, ...string[]]
  const log = openSync(options.logFile, 'a')
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', options.readyLine ? 'pipe' : log], env: { ...process.env, ...options.env }, ...(options.cwd ? { cwd: options.cwd } : {}) })
  const stdout = (options.readyLine ? child.stderr : child.stdout) as Readable // piped above
  if (options.readyLine) {
    stdout.on('data', (chunk: Buffer) => appendFileSync(log, chunk))
    child.stdout?.resume()
    child.once('close', () => closeSync(log))
  } else {
    closeSync(log)
  }
  running.add(child)
  const exited = new Promise<void>(resolve => child.once('close', () => { running.delete(child); resolve() }))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    }
  }
  try {
    const ready = await new Promise<ServerProcess['ready']>((resolve, reject) => {
      const timeoutMs = options.startTimeoutMs ?? 60_000
      const timer = setTimeout(() => reject(new Error(`${command} did not print its URL within ${timeoutMs} ms (log: ${options.logFile})`)), timeoutMs)
      const lines = createInterface({ input: stdout })
      lines.on('line', (line) => {
        const url = options.readyLine?.exec(line)?.[1]
        if (url !== undefined) {
          clearTimeout(timer)
          lines.removeAllListeners('line')
          resolve({ url })
          return
        }
        let parsed: unknown
        try { parsed = JSON.parse(line) } catch { return }
        if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { url?: unknown }).url === 'string') {
          clearTimeout(timer)
          lines.removeAllListeners('line')
          resolve(parsed as ServerProcess['ready'])
        }
      })
      child.once('error', (err) => { clearTimeout(timer); reject(err) })
      exited.then(() => { clearTimeout(timer); reject(new Error(`${command} exited (code ${child.exitCode}) before listening; see ${options.logFile}`)) }, reject)
    })
    stdout.resume() // keep draining: a full pipe would block the server
    return { ready, pid: child.pid as number, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** Polls /proc/<pid>/status every intervalMs; stop() returns the highest VmRSS seen, in MB (undefined without /proc). */
export function sampleRss (pid: number, intervalMs = 200): { stop: () => number | undefined } {
  let peak: number | undefined
  const sample = () => {
    try {
      const mb = parseRssMb(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (mb !== undefined && (peak === undefined || mb > peak)) peak = mb
    } catch { /* no /proc (not Linux) or the process is gone */ }
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  return { stop: () => { clearInterval(timer); sample(); return peak } }
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/**
 * CPU seconds a process and its children (the workers of `serve --workers`) have used, user + system, all
 * threads, from /proc; undefined without /proc.
 */
export function cpuSeconds (pid: number): number | undefined {
  try {
    // The fields after the command name (which may hold spaces) start at the last ')'; utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? []
    let total = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) total += cpuSeconds(Number(child)) ?? 0
    return total
  } catch {
    return undefined
  }
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  timeoutMs?: number
  /** onLine sees each line of stdout as it arrives (progress of long children). */
  onLine?: (line: string) => void
}

/** Runs a command to its end and resolves its stdout; rejects with stderr on a non-zero exit. */
export function runToEnd (command: string[], options: RunOptions = {}): Promise<string> {
  const [file, ...args] = command as [string, ...string[]]
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env }, ...(options.cwd ? { cwd: options.cwd } : {}) })
    running.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c })
    if (options.onLine) createInterface({ input: child.stdout }).on('line', options.onLine)
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c })
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000)
    child.once('error', (err) => { clearTimeout(timer); running.delete(child); reject(err) })
    child.once('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      if (code === 0) resolve(stdout)
      else reject(new Error(`${command.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}${stdout.slice(-2000)}`))
    })
  })
}
