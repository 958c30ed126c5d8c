// Runs the runtime-sdk command from source: in this process (runCliHere: what most tests need, in milliseconds), or as
// a process of its own (runCli, startCli: exit codes and output of the real process, signals, servers that keep
// running). A process costs ~3 s of CPU (the test runner's loader compiles the CLI's modules again), so tests start one
// only where the process is what they test. It runs with the test runner's loader and coverage: another loader (tsx)
// would be faster, but its coverage maps the same files differently and the runner's merge of both is wrong.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { CliIO } from '../../src/cli/command.js'
import { runCommand } from '../../src/cli/run.js'

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))

export interface CliResult { code: number | null, stdout: string, stderr: string }

/** Runs a command that ends, in this process, and returns its exit code and output. */
export async function runCliHere (args: string[]): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = { stdout: text => { stdout += text }, stderr: text => { stderr += text } }
  const code = await runCommand(args, io)
  return { code, stdout, stderr }
}

/** Runs the command as a process of its own and returns its exit code and output. */
export function runCli (args: string[], options: { timeoutMs?: number, env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, MAIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

/** Starts the runtime-sdk command in the background and collects its stdout and stderr together (execArgv: node's
 * options, by default the test runner's own). */
export function startCli (args: string[], options: { execArgv?: string[], env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess, out: () => string } {
  const child = spawn(process.execPath, [...options.execArgv ?? process.execArgv, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(options.env ? { env: { ...process.env, ...options.env } } : {}) })
  let out = ''
  child.stdout?.on('data', d => { out += d })
  child.stderr?.on('data', d => { out += d })
  return { child, out: () => out }
}
