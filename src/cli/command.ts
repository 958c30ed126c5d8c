// What every subcommand does alike, the way kubectl does it: exit codes (0 success, 1 the operation failed, 2 usage
// or input error), errors as one line without a stack trace, -o/--output formats, and old flag names kept as hidden
// aliases of the one spelling each flag has.
import { codedError } from '../errors/index.js'
import { type Command, CommanderError, Option } from 'commander'
import { readProblem } from '../kube/manifests.js'

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_USAGE = 2

export interface CliIO {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export const defaultIO: CliIO = { stdout: text => process.stdout.write(text), stderr: text => process.stderr.write(text) }

/** Bad flags or input the user gave: exit 2, the message says what to change. */
export class UsageError extends codedError('ERR_RUNTIME_SDK_USAGE') {}

/** The operation ran and failed (the message is already said): exit 1 without another line. */
export class OperationFailed extends codedError('ERR_RUNTIME_SDK_OPERATION_FAILED') {}

/** Errors about what the user passed in: files, manifests, modules, flags. */
const INPUT_ERROR_CODES = new Set([
  'ERR_RUNTIME_SDK_USAGE', 'ERR_RUNTIME_SDK_MANIFEST', 'ERR_RUNTIME_SDK_REQUEST_FILE', 'ERR_RUNTIME_SDK_EXTENSION_HANDLER',
  'ERR_RUNTIME_SDK_TRANSPORT', 'ERR_RUNTIME_SDK_TRACING_CONFIG', 'ERR_RUNTIME_SDK_CONFORMANCE_SETUP', 'ERR_RUNTIME_SDK_CATALOG', 'ERR_RUNTIME_SDK_SIMULATION_INPUT', 'ERR_RUNTIME_SDK_RECORDING',
  'ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'ERR_MODULE_NOT_FOUND', 'ERR_UNKNOWN_FILE_EXTENSION', 'ERR_INVALID_ARG_VALUE'
])

export function exitCodeOf (err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE
  return INPUT_ERROR_CODES.has(String((err as { code?: unknown })?.code)) ? EXIT_USAGE : EXIT_FAILED
}

/** An error in one line that says what is wrong and, where we know it, what to do. */
export function errorLine (err: unknown): string {
  const e = err as NodeJS.ErrnoException & { address?: string, port?: number }
  if (!(err instanceof Error)) return String(err)
  if (e.code === 'EADDRINUSE') return `${e.address ?? ''}:${e.port ?? ''} is already in use: stop what listens there or choose another port`
  if (e.code === 'EADDRNOTAVAIL') return `${e.address ?? ''} is not an address of this machine: choose another host`
  if (e.code === 'EACCES' && e.syscall === 'listen') return `not allowed to listen on ${e.address ?? ''}:${e.port ?? ''}: choose a port above 1023`
  if (e.path && (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR' || e.code === 'ENOTDIR')) return `${e.path}: ${readProblem(e)}`
  return err.message.split('\n').map(line => line.trim()).filter(Boolean).join('; ')
}

/**
 * The action of a subcommand: an error becomes `error: <one line>` on stderr and the exit code; the stack only with
 * RUNTIME_SDK_DEBUG=1.
 */
export function action<A extends unknown[]> (io: CliIO, run: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args)
    } catch (err) {
      if (!(err instanceof OperationFailed)) io.stderr(`error: ${errorLine(err)}\n`)
      if (process.env['RUNTIME_SDK_DEBUG'] === '1' && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`)
      process.exitCode = exitCodeOf(err)
    }
  }
}

/** An old flag name, hidden from help, that sets the option of its new name (added before), with its checks. */
export function hiddenAlias (command: Command, flags: string, target: string): Command {
  const option = new Option(flags).hideHelp()
  const canonical = command.options.find(o => o.attributeName() === target)
  if (canonical?.argChoices) option.choices(canonical.argChoices)
  if (canonical?.parseArg) option.argParser(canonical.parseArg)
  command.addOption(option)
  command.on(`option:${option.name()}`, (value: unknown) => { command.setOptionValueWithSource(target, value ?? true, 'cli') })
  return command
}

/** Which cluster and identity, as kubectl picks them. */
export function kubeconfigOptions (command: Command, purpose: string): Command {
  return command
    .option('--kubeconfig <file>', `${purpose}: this kubeconfig file alone (default: KUBECONFIG's files merged, ~/.kube/config, in-cluster)`)
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
}

export interface KubeconfigFlags {
  kubeconfig?: string
  context?: string
}

/** The KubeApi selection of --kubeconfig and --context. */
export function kubeconfigSelection (opts: KubeconfigFlags): { kubeconfig?: string, context?: string } {
  return { ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}), ...(opts.context ? { context: opts.context } : {}) }
}

/** The TLS flags of a command that calls extensions: the CA to verify them and a client certificate for mTLS. */
export function clientTlsOptions (command: Command, aliases: { certificateAuthority?: string, clientCertificate?: string, clientKey?: string } = {}): Command {
  command.option('--certificate-authority <file>', 'PEM CA bundle to verify extensions (default: the ExtensionConfig\'s caBundle, else the system roots)')
  clientCertificateOptions(command)
  for (const [target, flag] of Object.entries(aliases)) hiddenAlias(command, `${flag} <file>`, target)
  return command
}

/** The client certificate presented to extensions (mTLS), for a command that calls only registered ones (their caBundle). */
export function clientCertificateOptions (command: Command): Command {
  return command
    .option('--client-certificate <file>', 'PEM client certificate presented to extensions (mTLS; with --client-key)')
    .option('--client-key <file>', 'PEM key of --client-certificate')
}

export interface ClientTlsFlags {
  certificateAuthority?: string
  clientCertificate?: string
  clientKey?: string
}

/** The client certificate of --client-certificate and --client-key, which go together. */
export function clientCertificateOf (opts: ClientTlsFlags): { certFile: string, keyFile: string } | undefined {
  if ((opts.clientCertificate === undefined) !== (opts.clientKey === undefined)) throw new UsageError('--client-certificate and --client-key go together')
  return opts.clientCertificate && opts.clientKey ? { certFile: opts.clientCertificate, keyFile: opts.clientKey } : undefined
}
