#!/usr/bin/env node
// The runtime-sdk command: main.ts registers the subcommands, each in its own file; options.ts parses option values,
// table.ts prints tables, controller-status.ts reads a running controller's status.
import { Command } from 'commander'
import { callCommand } from './call.js'
import { controllerCommand } from './controller.js'
import { demoCommand } from './demo.js'
import { conformanceCommand } from './conformance.js'
import { discoverCommand } from './discover.js'
import { hooksCommand } from './hooks.js'
import { openapiCommand } from './openapi.js'
import { preflightCommand } from './preflight.js'
import { serveCommand } from './serve.js'
import { statusCommand } from './status.js'

// A closed pipe (runtime-sdk openapi | head) is a normal way to stop reading, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') process.exit(0); throw err })

const program = new Command('runtime-sdk')
  .description('Cluster API Runtime SDK for TypeScript: serve, call and manage Runtime Extensions')
  .showHelpAfterError()

program.addCommand(hooksCommand())
program.addCommand(discoverCommand())
program.addCommand(callCommand())
program.addCommand(conformanceCommand())
program.addCommand(openapiCommand())
program.addCommand(serveCommand())
program.addCommand(controllerCommand())
program.addCommand(statusCommand())
program.addCommand(preflightCommand())
program.addCommand(demoCommand())

await program.parseAsync()
