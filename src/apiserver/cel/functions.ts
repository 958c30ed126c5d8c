// The functions of the Kubernetes 1.36 CEL base environment, by name, gathered from the libraries. A name several
// libraries define (indexOf on strings and lists, compareTo on quantities and semvers…) dispatches on the receiver.
//
// Left out, refused when a rule uses them (compile error): the authorizer library (authorizer, path, group,
// resource…; it needs a request's authorizer, which validation rules never get), cel.bind and math.* (not in the
// Kubernetes base environment), message construction, and cost limits (rules are not priced here).
import { LIST_FUNCTIONS, listIndexOf } from './ext-lists.js'
import { STRINGS_FUNCTIONS } from './ext-strings.js'
import { K8S_FUNCTIONS } from './k8s-libs.js'
import { QUANTITY_FUNCTIONS, Quantity } from './quantity.js'
import { type FunctionDef, type Impl, STANDARD_FUNCTIONS } from './stdlib.js'
import { CelList } from './values.js'

/** Names that only exist in libraries this evaluator leaves out, with why. */
export const UNSUPPORTED_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ...['authorizer', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'check', 'allowed', 'reason', 'errored',
    'error', 'serviceAccount', 'fieldSelector', 'labelSelector'].map(n => [n, 'the authorizer library is only available to admission policies'] as const),
  ['cel.bind', 'cel.bind is not part of the Kubernetes CEL environment'],
  ['math.greatest', 'the math extension is not part of the Kubernetes CEL environment'],
  ['math.least', 'the math extension is not part of the Kubernetes CEL environment']
])

const registry = new Map<string, FunctionDef>()

function register (defs: Record<string, FunctionDef>): void {
  for (const [name, def] of Object.entries(defs)) {
    const existing = registry.get(name)
    registry.set(name, existing ? { ...existing, ...def } : def)
  }
}

register(STANDARD_FUNCTIONS)
register(STRINGS_FUNCTIONS)
register(LIST_FUNCTIONS)
register(QUANTITY_FUNCTIONS)
register(K8S_FUNCTIONS)

const byReceiver = (onList: Impl, otherwise: Impl): Impl => (args, name) => args[0] instanceof CelList ? onList(args, name) : otherwise(args, name)
const quantityOr = (name: string): Impl => {
  const q = QUANTITY_FUNCTIONS[name]?.member as Impl
  const other = K8S_FUNCTIONS[name]?.member as Impl
  return (args, n) => args[0] instanceof Quantity ? q(args, n) : other(args, n)
}

registry.set('indexOf', { member: byReceiver(args => listIndexOf(args, false), STRINGS_FUNCTIONS.indexOf?.member as Impl) })
registry.set('lastIndexOf', { member: byReceiver(args => listIndexOf(args, true), STRINGS_FUNCTIONS.lastIndexOf?.member as Impl) })
for (const name of ['isGreaterThan', 'isLessThan', 'compareTo']) registry.set(name, { member: quantityOr(name) })

/** A function of the environment by its (qualified) name. */
export function lookupFunction (name: string): FunctionDef | undefined {
  return registry.get(name)
}

export type { FunctionDef, Impl }
