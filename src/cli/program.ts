// The runtime-sdk command tree. Commander's exits are thrown (main.ts turns a usage error into exit 2, not its 1).
import { Command } from 'commander'
import { callCommand } from './call.js'
import { type CliIO, defaultIO } from './command.js'
import { completionCommand } from './completion.js'
import { conformanceCommand } from './conformance.js'
import { controllerCommand } from './controller.js'
import { demoCommand } from './demo.js'
import { discoverCommand } from './discover.js'
import { hooksCommand } from './hooks.js'
import { openapiCommand } from './openapi.js'
import { preflightCommand } from './preflight.js'
import { serveCommand } from './serve.js'
import { statusCommand } from './status.js'
import { versionText } from './version.js'

export function createProgram (io: CliIO = defaultIO): Command {
  const program = new Command('runtime-sdk')
    .description('Cluster API Runtime SDK for TypeScript: serve, call and manage Runtime Extensions')
    .version(versionText(), '--version', 'print the version, the commit and the hook versions served')
  for (const command of [
    hooksCommand(io), discoverCommand(io), callCommand(io), conformanceCommand(io), openapiCommand(io), serveCommand(io),
    controllerCommand(io), statusCommand(io), preflightCommand(io), demoCommand(io)
  ]) program.addCommand(command)
  completionCommand(program, io)
  for (const command of [program, ...program.commands]) {
    command.exitOverride()
    command.configureOutput({ writeOut: text => io.stdout(text), writeErr: text => io.stderr(text) })
    command.showHelpAfterError('(run with --help for usage)')
  }
  return program
}
