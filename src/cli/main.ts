#!/usr/bin/env node
// The runtime-sdk command: program.ts builds the command tree, each subcommand in its own file; command.ts holds what
// they share (exit codes, one-line errors, output formats, flag spellings), options.ts parses option values, table.ts
// prints tables, controller-status.ts reads a running controller's status, run.ts runs the tree over arguments.
import './v8-flags.js'
import { runCommand } from './run.js'

// A closed pipe (runtime-sdk openapi | head) is a normal way to stop reading, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') process.exit(0); throw err })

process.exitCode = await runCommand(process.argv.slice(2))
