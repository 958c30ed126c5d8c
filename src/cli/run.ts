// Runs the runtime-sdk command tree over arguments and returns the exit code: what main.ts does for the process, and
// what tests call to run a command in process (a command that ends; one that serves keeps running until stopped).
import { CommanderError } from 'commander'
import { type CliIO, defaultIO, exitCodeOf } from './command.js'
import { createProgram } from './program.js'

/** Runs `args` (the arguments after the program name) and resolves to the exit code. */
export async function runCommand (args: readonly string[], io: CliIO = defaultIO): Promise<number> {
  const before = process.exitCode
  process.exitCode = undefined
  try {
    await (await createProgram(io, args)).parseAsync([...args], { from: 'user' })
  } catch (err) {
    // Commander has printed the usage error (or the help or version) already.
    if (!(err instanceof CommanderError)) throw err
    process.exitCode = exitCodeOf(err)
  }
  const code = Number(process.exitCode ?? 0)
  process.exitCode = before
  return code
}
