// The runtime-sdk command tree. Commander's exits are thrown (main.ts turns a usage error into exit 2, not its 1).
// Each subcommand's module pulls in the part of the library it drives (server, client, controller, conformance), so
// only the subcommand being run is loaded: `serve` starts without the Kubernetes client, `--version` without any.
// Help, completion and anything unrecognised load them all.
import { Command } from 'commander'
import { type CliIO, defaultIO } from './command.js'
import { completionCommand } from './completion.js'
import { exitCodesHelp } from './exit-codes.js'
import { versionText } from './version.js'

type CommandFactory = (io: CliIO) => Command

/** Every subcommand, in the order help lists them. */
const SUBCOMMANDS: Record<string, () => Promise<CommandFactory>> = {
  hooks: async () => (await import('./hooks.js')).hooksCommand,
  discover: async () => (await import('./discover.js')).discoverCommand,
  call: async () => (await import('./call.js')).callCommand,
  conformance: async () => (await import('./conformance.js')).conformanceCommand,
  simulate: async () => (await import('./simulate.js')).simulateCommand,
  replay: async () => (await import('./replay.js')).replayCommand,
  'rollout-impact': async () => (await import('./rollout-impact.js')).rolloutImpactCommand,
  held: async () => (await import('./held.js')).heldCommand,
  openapi: async () => (await import('./openapi.js')).openapiCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  controller: async () => (await import('./controller.js')).controllerCommand,
  status: async () => (await import('./status.js')).statusCommand,
  preflight: async () => (await import('./preflight.js')).preflightCommand,
  demo: async () => (await import('./demo.js')).demoCommand
}

/** The subcommands `args` (the arguments after the program name) need. */
function needed (args: readonly string[]): string[] {
  const first = args.find(a => !a.startsWith('-'))
  if (first !== undefined && first in SUBCOMMANDS) return [first]
  if (first === undefined && args.includes('--version') && !args.includes('--help') && !args.includes('-h')) return []
  return Object.keys(SUBCOMMANDS)
}

export async function createProgram (io: CliIO = defaultIO, args: readonly string[] = process.argv.slice(2)): Promise<Command> {
  const program = new Command('runtime-sdk')
    .description('Cluster API Runtime SDK for TypeScript: serve, call and manage Runtime Extensions')
    .version(versionText(), '--version', 'print the version, the commit and the hook versions served')
  const factories = await Promise.all(needed(args).map(name => (SUBCOMMANDS[name] as () => Promise<CommandFactory>)()))
  for (const factory of factories) program.addCommand(factory(io))
  completionCommand(program, io)
  for (const command of program.commands) command.addHelpText('after', exitCodesHelp(command.name()))
  for (const command of [program, ...program.commands]) {
    command.exitOverride()
    command.configureOutput({ writeOut: text => io.stdout(text), writeErr: text => io.stderr(text) })
    command.showHelpAfterError('(run with --help for usage)')
  }
  return program
}
