// What each command's exit codes mean, in one table: the help of every command (program.ts) and the CLI reference
// (docs/generated/cli.md) are written from it, so they cannot disagree.
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './command.js'

// The commands that read a management cluster read it one way (management-cluster.ts), and fail on it alike.
const UNREADABLE = 'the management cluster cannot be read (its API server cannot be reached, refuses the credentials, or RBAC forbids a read: one line names the server, what and why)'
const NAMED_CLUSTER = 'a --cluster that names no Cluster, or one without spec.topology'

/** When each command exits 1 (the operation failed), by command name. */
const FAILED_WHEN: Readonly<Record<string, string>> = {
  hooks: 'never: listing the catalog cannot fail',
  openapi: 'never: printing the document cannot fail',
  discover: 'the extension cannot be called or its Discovery answer is refused',
  call: 'the aggregate is an error, an extension cannot be discovered, or no handler matches the object',
  conformance: 'a required case failed (advisory failures do not count)',
  simulate: `a hook fails, blocks the cluster longer than --max-blocked, answers the same request twice differently, or a patch does not apply; an extension cannot be discovered; ${UNREADABLE}`,
  'rollout-impact': `${UNREADABLE}, the impact on a Cluster cannot be computed (its line says why), or with --fail-on-rollout a Machine would be replaced; the candidate cannot be reached`,
  held: `${UNREADABLE}, or a Cluster cannot be computed within its budget`,
  replay: 'with --fail-on-difference, an answer differs from the recorded one; the extension cannot be discovered',
  serve: 'the server cannot start (the port is in use, a certificate cannot be loaded); after SIGTERM it exits 0',
  controller: 'the controller cannot start (the port is in use, the ExtensionConfig CRD belongs to another owner, the API server refuses); after SIGTERM it exits 0',
  status: 'the controller cannot be reached or answers an error',
  preflight: 'the CRD belongs to another owner (without --read-only or --take-over-crd), or a registered handler uses a hook version this release does not serve',
  demo: 'the extension or the controller cannot start; after SIGTERM it exits 0',
  completion: 'never'
}

const USAGE = 'usage or input error: an unknown flag or value, an unreadable or invalid file (a recording truncated or of another format), a module that exports no handlers'

/** What else is an input error (exit 2) for a command, by command name. */
const USAGE_ALSO: Readonly<Record<string, string>> = {
  simulate: `${NAMED_CLUSTER}, or whose ClusterClass or a template does not exist`,
  'rollout-impact': `${NAMED_CLUSTER}, or whose ClusterClass or a template does not exist`,
  held: NAMED_CLUSTER
}

/** The exit codes of a command and when each happens; undefined for a command this table does not know. */
export function exitCodesOf (command: string): Array<[number, string]> | undefined {
  const failed = FAILED_WHEN[command]
  const also = USAGE_ALSO[command]
  return failed === undefined ? undefined : [[EXIT_OK, 'success'], [EXIT_FAILED, failed], [EXIT_USAGE, also === undefined ? USAGE : `${USAGE}; ${also}`]]
}

/** The "Exit codes" paragraph of a command's help. */
export function exitCodesHelp (command: string): string {
  const codes = exitCodesOf(command)
  return codes === undefined ? '' : `\nExit codes:\n${codes.map(([code, when]) => `  ${code}  ${when}`).join('\n')}\n`
}
