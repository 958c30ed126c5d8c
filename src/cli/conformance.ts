// runtime-sdk conformance: tests any Runtime Extension against the Runtime SDK contract and reports each case.
// Exit codes: 0 when every required case passes, 1 when one fails, 2 for usage errors (flags, files).
import { readFile, writeFile } from 'node:fs/promises'
import { Command } from 'commander'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { createCatalog, HOOKS_GROUP } from '../catalog/default.js'
import type { Catalog } from '../catalog/catalog.js'
import { extensionConfigForUrl, isUrl, loadExtensionConfig } from '../client/extension-configs.js'
import { loadCABundle, urlForExtension } from '../client/transport.js'
import { CASES } from '../conformance/cases/index.js'
import { caseName, evidenceText, renderReport, REPORT_FORMATS, type ReportFormat, summaryLine } from '../conformance/reporters.js'
import { loadRequestDir, type RequestOverrides } from '../conformance/requests.js'
import { runConformance } from '../conformance/runner.js'
import type { CaseResult, ConformanceReport } from '../conformance/types.js'
import { action, type CliIO, clientCertificateOf, clientTlsOptions, type ClientTlsFlags, defaultIO, EXIT_FAILED, EXIT_OK, hiddenAlias, UsageError } from './command.js'
import { outputOption } from './output.js'
import { table } from './table.js'

interface ConformanceCliOptions extends ClientTlsFlags {
  extensionConfig?: string
  hooks?: string
  requestDir?: string
  output: 'table' | ReportFormat
  outputFile?: string
}

interface Setup {
  extension: ExtensionConfig
  /** target is the extension's base URL, for the progress header. */
  target: string
  clientCertificate?: { certFile: string, keyFile: string }
  hooks?: string[]
  requests: RequestOverrides
}

/** Reads a file named by a flag, so that a missing or unreadable one is a usage error naming the flag. */
const readable = async (file: string, flag: string) => {
  try {
    return await readFile(file)
  } catch (err) {
    throw new UsageError(`${flag} ${file}: ${(err as Error).message}`)
  }
}

/** Checks the flags and files before anything is sent, so that every usage problem exits 2. */
async function prepare (url: string | undefined, opts: ConformanceCliOptions, catalog: Catalog): Promise<Setup> {
  if ((url === undefined) === (opts.extensionConfig === undefined)) throw new UsageError('pass the https URL of the extension or --extension-config <file> (one of them)')
  if (opts.outputFile !== undefined && opts.output === 'table') throw new UsageError(`--output-file needs -o ${REPORT_FORMATS.join('|')}`)
  const clientCertificate = clientCertificateOf(opts)
  let extension: ExtensionConfig
  if (url !== undefined) {
    if (!isUrl(url)) throw new UsageError(`"${url}" is not a URL: pass https://<host>:<port>[/<path>] or --extension-config <file>`)
    extension = extensionConfigForUrl(url, 'conformance')
  } else {
    await readable(opts.extensionConfig as string, '--extension-config')
    try {
      extension = await loadExtensionConfig(opts.extensionConfig as string)
    } catch (err) {
      throw new UsageError(`--extension-config: ${(err as Error).message}`)
    }
  }
  if (opts.certificateAuthority !== undefined) {
    extension.spec.clientConfig.caBundle = (await readable(opts.certificateAuthority, '--certificate-authority')).toString('base64')
  }
  let target: string
  try {
    target = urlForExtension(extension.spec.clientConfig, '/').toString()
    loadCABundle(extension.spec.clientConfig.caBundle)
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const setup: Setup = { extension, target, requests: {} }
  if (clientCertificate) {
    await readable(clientCertificate.certFile, '--client-certificate')
    await readable(clientCertificate.keyFile, '--client-key')
    setup.clientCertificate = clientCertificate
  }
  if (opts.hooks !== undefined) setup.hooks = selectHooks(opts.hooks, catalog)
  if (opts.requestDir !== undefined) {
    try {
      setup.requests = await loadRequestDir(opts.requestDir, catalog)
    } catch (err) {
      throw new UsageError((err as Error).message)
    }
  }
  return setup
}

/** Hook names of --hooks in the catalog's spelling (matched case-insensitively); Discovery is always tested. */
function selectHooks (list: string, catalog: Catalog): string[] {
  const known = [...new Set(catalog.all().filter(h => h.gvh.group === HOOKS_GROUP && h.gvh.hook !== 'Discovery').map(h => h.gvh.hook))]
  const names = list.split(',').map(s => s.trim()).filter(Boolean)
  if (names.length === 0) throw new UsageError('--hooks needs at least one hook name')
  return names.map(name => {
    const found = known.find(k => k.toLowerCase() === name.toLowerCase())
    if (!found) throw new UsageError(`--hooks: unknown hook "${name}"; the hooks with handlers are ${known.join(', ')}`)
    return found
  })
}

const STATUS = { pass: 'pass', fail: 'FAIL', skip: 'skip' } as const

/** The progress line of a finished case. */
function progressLine (r: CaseResult): string {
  return `${STATUS[r.status]}  ${caseName(r)}${r.level === 'advisory' ? ' (advisory)' : ''}: ${r.message} (${r.durationMs} ms)\n`
}

/** One row per case: how often it passed, failed and was skipped, and for which handlers it failed. */
function summaryTable (report: ConformanceReport): string {
  const rows = CASES.map(c => {
    const results = report.cases.filter(r => r.id === c.id)
    const count = (status: CaseResult['status']) => String(results.filter(r => r.status === status).length)
    const failedFor = results.filter(r => r.status === 'fail').map(r => r.handler ?? 'extension').join(', ')
    return [c.id, c.level, count('pass'), count('fail'), count('skip'), failedFor]
  })
  return table(['CASE', 'LEVEL', 'PASS', 'FAIL', 'SKIP', 'FAILED FOR'], rows)
}

function failuresText (report: ConformanceReport): string {
  const failures = report.cases.filter(r => r.status === 'fail')
  if (failures.length === 0) return ''
  return '\nFailures:\n' + failures.map(r => {
    const evidence = evidenceText(r.evidence)
    return `\n--- ${caseName(r)} (${r.level}): ${r.message}\n${evidence ? `${evidence}\n` : ''}`
  }).join('')
}

export function conformanceCommand (io: CliIO = defaultIO): Command {
  const command = new Command('conformance')
    .description('test a Runtime Extension (any implementation) against the Runtime SDK contract: TLS, Discovery and every handler')
    .argument('[url]', 'https URL of the extension (the base URL; hook paths are appended)')
    .option('--extension-config <file>', 'an ExtensionConfig (YAML/JSON) instead of a URL: its url or service, caBundle and settings are used')
    .option('--hooks <hooks>', 'test only handlers of these hooks, comma separated (e.g. BeforeClusterCreate,GeneratePatches)')
    .option('--request-dir <dir>', 'request bodies replacing the samples: <hook>.json, CamelCase or lowercase (e.g. BeforeClusterCreate.json, beforeclustercreate.json)')
    .addOption(outputOption(['table', ...REPORT_FORMATS], 'table: progress and summary; json, junit, markdown: the report on stdout, progress on stderr'))
    .option('--output-file <file>', 'write the report to this file instead of stdout (progress stays on stdout)')
    .addHelpText('after', `\nCases (required ones decide the exit code):\n${CASES.map(c => `  ${c.id.padEnd(22)} ${c.level.padEnd(9)} ${c.title}`).join('\n')}\n\n` +
      'Exit codes: 0 every required case passed, 1 a required case failed, 2 usage error.\n')
  clientTlsOptions(command, { certificateAuthority: '--ca-bundle', clientCertificate: '--client-cert' })
  hiddenAlias(command, '--report <format>', 'output')
  return command.action(action(io, async (url: string | undefined, opts: ConformanceCliOptions) => {
    const catalog = createCatalog()
    const setup = await prepare(url, opts, catalog)
    const report = opts.output === 'table' ? undefined : opts.output
    // With a report on stdout, progress goes to stderr so the report stays parseable.
    const progress = report !== undefined && opts.outputFile === undefined ? io.stderr : io.stdout
    progress(`runtime-sdk conformance: testing ${setup.target}\n`)
    const result = await runConformance({
      catalog,
      extension: setup.extension,
      requests: setup.requests,
      ...(setup.clientCertificate ? { clientCertificate: setup.clientCertificate } : {}),
      ...(setup.hooks ? { hooks: setup.hooks } : {}),
      onResult: r => progress(progressLine(r))
    })
    progress(`\n${summaryTable(result)}${failuresText(result)}\n${summaryLine(result)}\n`)
    if (report !== undefined) {
      const text = renderReport(result, report)
      if (opts.outputFile === undefined) {
        io.stdout(text)
      } else {
        try {
          await writeFile(opts.outputFile, text)
        } catch (err) {
          throw new UsageError(`--output-file ${opts.outputFile}: ${(err as Error).message}`)
        }
      }
    }
    process.exitCode = result.passed ? EXIT_OK : EXIT_FAILED
  }))
}
