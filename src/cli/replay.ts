// runtime-sdk replay: sends recorded hook calls (`serve --record`) to another version of an extension and reports,
// per hook, what it answers differently: status, message, every other field, and for GeneratePatches the templates
// its patches produce. With --fail-on-difference a CI job can gate a release on it.
import { Command } from 'commander'
import { readRecording } from '../impact/recording.js'
import { replay, type ReplayReport } from '../impact/replay.js'
import type { RecordedCall } from '../server/recording.js'
import { action, type CliIO, clientTlsOptions, defaultIO, OperationFailed, UsageError } from './command.js'
import { closeTarget, extensionTarget, type ExtensionTargetFlags, extensionTargetOptions, runtimeClientOf } from './extension-target.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { columns } from './table.js'

interface ReplayCliOptions extends ExtensionTargetFlags {
  setting: string[]
  hook: string[]
  failOnDifference?: boolean
  output: OutputFormat
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** `key=value` settings. */
function settingsOf (pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(pairs.map(pair => {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new UsageError(`--setting "${pair}": expected key=value`)
    return [pair.slice(0, eq), pair.slice(eq + 1)]
  }))
}

function tableText (report: ReplayReport): string {
  let out = columns([['HOOK', 'HANDLER', 'CALLS', 'DIFFERENT'], ...report.hooks.map(h => [h.hook, h.handler, String(h.calls), String(h.differing)])])
  const differing = report.calls.filter(c => !c.same)
  if (differing.length === 0) return `${out}\nEvery answer means what the recorded one meant.\n`
  out += '\nDifferences:\n'
  for (const c of differing) {
    out += `  line ${c.line}: ${c.hook} ${c.handler} (${c.time})\n`
    for (const f of c.fields) out += `    ${f.path || '/'}: ${JSON.stringify(f.before)} -> ${JSON.stringify(f.after)}\n`
    for (const t of c.templates) {
      out += `    ${t.template}:\n`
      for (const op of t.operations) out += `      ${op.op} ${op.path}${'value' in op ? ` ${JSON.stringify(op.value)}` : ''}\n`
    }
  }
  return out
}

export function replayCommand (io: CliIO = defaultIO): Command {
  const command = new Command('replay')
    .description('send recorded hook calls (runtime-sdk serve --record) to an extension and report, per hook, what it answers differently: status, message, fields, and the templates GeneratePatches patches')
    .argument('<recording...>', 'recording files, in order (the rotated ones first: file.2 file.1 file)')
  extensionTargetOptions(command, 'the recorded extension\'s: calls go to <handler>.<name>')
  command
    .option('--setting <key=value>', 'a setting the recording redacted, as the ExtensionConfig sets it (repeatable; --extension-configs gives them too)', collect, [])
    .option('--hook <hook>', 'replay only this hook (repeatable)', collect, [])
    .option('--fail-on-difference', 'exit 1 when any answer differs')
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(command).action(action(io, async (files: string[], opts: ReplayCliOptions) => {
    const calls: RecordedCall[] = []
    for (const file of files) calls.push(...await readRecording(file))
    const target = await extensionTarget(opts, 'extension')
    let report: ReplayReport
    try {
      const settings = { ...target.extensionConfigs?.[0]?.spec.settings, ...settingsOf(opts.setting) }
      report = await replay(calls, { client: runtimeClientOf(target), extensionName: target.name, settings, ...(opts.hook.length > 0 ? { hooks: opts.hook } : {}) })
    } finally {
      await closeTarget(target)
    }
    io.stdout(render(opts.output, report, () => tableText(report)))
    const differing = report.calls.filter(c => !c.same).length
    if (opts.failOnDifference && differing > 0) throw new OperationFailed(`${differing} of ${report.calls.length} answers differ`)
  }))
}
