// What every process the harness starts has in common: its options, the line that says it listens, a clean exit.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

export interface ChildOptions {
  transport: 'http' | 'https'
  /** certDir holds tls.crt and tls.key (and ca.crt) for HTTPS. */
  certDir: string
}

export function childOptions (): ChildOptions & { values: Record<string, string | undefined> } {
  const { values } = parseArgs({ options: { transport: { type: 'string', default: 'http' }, 'cert-dir': { type: 'string', default: '' }, ports: { type: 'string' } } })
  const transport = values.transport === 'https' ? 'https' : 'http'
  if (transport === 'https' && !values['cert-dir']) throw new Error('--cert-dir is required with --transport https')
  return { transport, certDir: values['cert-dir'] ?? '', values: values as Record<string, string | undefined> }
}

export function serving (certDir: string): { cert: string, key: string } {
  return { cert: readFileSync(join(certDir, 'tls.crt'), 'utf8'), key: readFileSync(join(certDir, 'tls.key'), 'utf8') }
}

/** The one JSON line the harness waits for (the same shape Cluster API's Go peer prints). */
export function announce (fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(fields)}\n`)
}

/** Exits through process.exit on SIGTERM/SIGINT, so that --cpu-prof writes its profile. */
export function exitOnSignal (close: () => Promise<unknown>): void {
  const stop = () => { close().finally(() => process.exit(0)) }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}
