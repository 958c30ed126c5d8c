// The reference extension as users run it (`runtime-sdk serve`), in a child process, for the tests that put a real
// Cluster API in the loop: generated certificates in certDir, an optional responses file, info logs collected.
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startCli } from './run-cli.js'
import { call } from './server.js'
import { waitFor } from './wait.js'

export interface ServedExtension {
  url: string
  /** PEM of the CA that signed its serving certificate. */
  ca: string
  caBundle: string
  child: ChildProcess
  out: () => string
  /** Its Prometheus metrics (the counters of every hook call). */
  metrics: () => Promise<string>
}

/**
 * options.handlers serves a module's handlers (e.g. test/helpers/recording-extension.ts) instead of the reference
 * extension; args are more flags of serve (e.g. --record), env more environment.
 */
export async function serveReferenceExtension (certDir: string, options: { responses?: string, execArgv?: string[], handlers?: string, args?: string[], env?: NodeJS.ProcessEnv } = {}): Promise<ServedExtension> {
  const args = ['serve', '--port', '0', '--cert-dir', certDir, '--log-level', 'info', ...options.args ?? []]
  if (options.responses) args.push('--responses', options.responses)
  if (options.handlers) args.push('--handlers', options.handlers)
  const { child, out } = startCli(args, { ...(options.execArgv ? { execArgv: options.execArgv } : {}), ...(options.env ? { env: options.env } : {}) })
  const url = await waitFor(() => /serving .* at (https:\/\/127\.0\.0\.1:\d+)/.exec(out())?.[1], { timeoutMs: 30_000, message: `serve prints its URL (output: ${out()})` })
  const ca = readFileSync(join(certDir, 'ca.crt'), 'utf8')
  const metrics = async () => (await call(url, '/metrics', undefined, { ca, method: 'GET' })).text
  return { url, ca, caBundle: Buffer.from(ca).toString('base64'), child, out, metrics }
}

/**
 * A `serve(name, options)` that starts the reference extension with its certificates in dir/certs-<name>, and a
 * `stop()` that kills every one it started (for a test's teardown).
 */
export function extensionServers (dir: string): { serve: (name: string, options?: Parameters<typeof serveReferenceExtension>[1]) => Promise<ServedExtension>, stop: () => void } {
  const servers: ServedExtension[] = []
  return {
    serve: async (name, options = {}) => {
      const served = await serveReferenceExtension(join(dir, `certs-${name}`), options)
      servers.push(served)
      return served
    },
    stop: () => { for (const s of servers) s.child.kill('SIGKILL') }
  }
}
