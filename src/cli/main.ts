#!/usr/bin/env node
// The runtime-sdk command. Each subcommand lives in its own file and is registered here.
import { Command } from 'commander'
import { callCommand } from './call.js'
import { conformanceCommand } from './conformance.js'
import { discoverCommand } from './discover.js'
import { hooksCommand } from './hooks.js'
import { openapiCommand } from './openapi.js'
import { serveCommand } from './serve.js'

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

await program.parseAsync()
