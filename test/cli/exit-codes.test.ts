// Every command says what its exit codes mean, in its help and in the CLI reference, from one table.
import t from 'tap'
import { exitCodesOf } from '../../src/cli/exit-codes.js'
import { createProgram } from '../../src/cli/program.js'

t.test('every command has its exit codes, and its help lists them', async t => {
  let help = ''
  const program = await createProgram({ stdout: text => { help += text }, stderr: () => {} }, [])
  for (const command of program.commands) {
    const codes = exitCodesOf(command.name())
    t.ok(codes, `${command.name()} is in src/cli/exit-codes.ts`)
    help = ''
    command.outputHelp()
    for (const [code, when] of codes ?? []) t.match(help, `  ${code}  ${when}`, `${command.name()} --help says when it exits ${code}`)
  }
})
