// runtime-sdk conformance: tests any Runtime Extension against the Runtime SDK contract and reports each case.
// Exit codes: 0 when every required case passes, 1 when one fails, 2 for usage errors (flags, files).
import { readFile, writeFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import type { ExtensionConfig } from '../api/extension-config.js'
import { createCatalog, HOOKS_GROUP } from '../catalog/default.js'
import type { Catalog } from '../catalog/catalog.js'
import { extensionConfigForUrl, loadExtensionConfig } from '../client/extension-configs.js'
import { loadCABundle, urlForExtension } from '../client/transport.js'
import { CASES } from '../conformance/cases/index.js'
import { caseName, evidenceText, renderReport, REPORT_FORMATS, type ReportFormat, summaryLine } from '../conformance/reporters.js'
import { loadRequestDir, type RequestOverrides } from '../conformance/requests.js'
import { ConformanceSetupError, runConformance } from '../conformance/runner.js'
import type { CaseResult, ConformanceReport } from '../conformance/types.js'
import { type CliIO, defaultIO } from './discover.js'
import { table } from './table.js'

const EXIT_PASSED = 0
const EXIT_FAILED = 1
const EXIT_USAGE = 2

interface ConformanceCliOptions {
  extensionConfig?: string
  caBundle?: string
  clientCert?: string
  clientKey?: string
  hooks?: string
  requestDir?: string
  report?: ReportFormat
  output?: string
}

class UsageError extends Error {}

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
  if (opts.output !== undefined && opts.report === undefined) throw new UsageError('--output needs --report junit|json|markdown')
  if ((opts.clientCert === undefined) !== (opts.clientKey === undefined)) throw new UsageError('--client-cert and --client-key go together')
  let extension: ExtensionConfig
  if (url !== undefined) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new UsageError(`"${url}" is not a URL: pass https://<host>:<port>[/<path>] or --extension-config <file>`)
    extension = extensionConfigForUrl(url, 'conformance')
  } else {
    await readable(opts.extensionConfig as string, '--extension-config')
    try {
      extension = await loadExtensionConfig(opts.extensionConfig as string)
    } catch (err) {
      throw new UsageError(`--extension-config: ${(err as Error).message}`)
    }
  }
  if (opts.caBundle !== undefined) {
    extension.spec.clientConfig.caBundle = (await readable(opts.caBundle, '--ca-bundle')).toString('base64')
  }
  let target: string
  try {
    target = urlForExtension(extension.spec.clientConfig, '/').toString()
    loadCABundle(extension.spec.clientConfig.caBundle)
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const setup: Setup = { extension, target, requests: {} }
  if (opts.clientCert !== undefined && opts.clientKey !== undefined) {
    await readable(opts.clientCert, '--client-cert')
    await readable(opts.clientKey, '--client-key')
    setup.clientCertificate = { certFile: opts.clientCert, keyFile: opts.clientKey }
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
  return new Command('conformance')
    .description('test a Runtime Extension (any implementation) against the Runtime SDK contract: TLS, Discovery and every handler')
    .argument('[url]', 'https URL of the extension (the base URL; hook paths are appended)')
    .option('--extension-config <file>', 'an ExtensionConfig (YAML/JSON) instead of a URL: its url or service, caBundle and settings are used')
    .option('--ca-bundle <file>', 'PEM CA bundle to verify the extension (default: the ExtensionConfig\'s caBundle, else the system roots)')
    .option('--client-cert <file>', 'PEM client certificate for mTLS (with --client-key)')
    .option('--client-key <file>', 'PEM client key for mTLS')
    .option('--hooks <hooks>', 'test only handlers of these hooks, comma separated (e.g. BeforeClusterCreate,GeneratePatches)')
    .option('--request-dir <dir>', 'request bodies replacing the samples: <hook>.json, CamelCase or lowercase (e.g. BeforeClusterCreate.json, beforeclustercreate.json)')
    .addOption(new Option('--report <format>', 'also write a report').choices([...REPORT_FORMATS]))
    .option('--output <file>', 'write the report to this file instead of stdout')
    .addHelpText('after', `\nCases (required ones decide the exit code):\n${CASES.map(c => `  ${c.id.padEnd(22)} ${c.level.padEnd(9)} ${c.title}`).join('\n')}\n\n` +
      'Exit codes: 0 every required case passed, 1 a required case failed, 2 usage error.\n')
    // Bad flags are usage errors: exit 2, not commander's 1.
    .exitOverride(err => process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE))
    .action(async (url: string | undefined, opts: ConformanceCliOptions) => {
      const catalog = createCatalog()
      let setup: Setup
      try {
        setup = await prepare(url, opts, catalog)
      } catch (err) {
        if (!(err instanceof UsageError)) throw err
        io.stderr(`error: ${err.message}\n`)
        process.exitCode = EXIT_USAGE
        return
      }
      // With a report on stdout, progress goes to stderr so the report stays parseable.
      const progress = opts.report !== undefined && opts.output === undefined ? io.stderr : io.stdout
      progress(`runtime-sdk conformance: testing ${setup.target}\n`)
      let report: ConformanceReport
      try {
        report = await runConformance({
          catalog,
          extension: setup.extension,
          requests: setup.requests,
          ...(setup.clientCertificate ? { clientCertificate: setup.clientCertificate } : {}),
          ...(setup.hooks ? { hooks: setup.hooks } : {}),
          onResult: r => progress(progressLine(r))
        })
      } catch (err) {
        if (!(err instanceof ConformanceSetupError)) throw err
        io.stderr(`error: ${err.message}\n`)
        process.exitCode = EXIT_USAGE
        return
      }
      progress(`\n${summaryTable(report)}${failuresText(report)}\n${summaryLine(report)}\n`)
      if (opts.report !== undefined) {
        const text = renderReport(report, opts.report)
        if (opts.output === undefined) {
          io.stdout(text)
        } else {
          try {
            await writeFile(opts.output, text)
          } catch (err) {
            io.stderr(`error: --output ${opts.output}: ${(err as Error).message}\n`)
            process.exitCode = EXIT_USAGE
            return
          }
        }
      }
      process.exitCode = report.passed ? EXIT_PASSED : EXIT_FAILED
    })
}
