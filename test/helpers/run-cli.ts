// Runs the runtime-sdk command from source, with the same loader the test runner uses.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))

export interface CliResult { code: number | null, stdout: string, stderr: string }

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
export function startCli (args: string[], options: { execArgv?: string[] } = {}): { child: ChildProcess, out: () => string } {
  const child = spawn(process.execPath, [...options.execArgv ?? process.execArgv, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', d => { out += d })
  child.stderr?.on('data', d => { out += d })
  return { child, out: () => out }
}
