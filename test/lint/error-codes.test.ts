// Every error class the public entry points export carries a stable string `code` to branch on.
import t from 'tap'

const entryPoints = ['index', 'server/index', 'client/index', 'controller/index', 'conformance/index', 'testing/index', 'topology/index']

t.test('exported errors have ERR_RUNTIME_SDK_* codes', async t => {
  const seen = new Map<string, string>()
  for (const entry of entryPoints) {
    const module = await import(`../../src/${entry}.js`) as Record<string, unknown>
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue
      const ErrorClass = value as new (...args: unknown[]) => Error & { code?: unknown }
      // HttpError and KubeApiError carry the HTTP/Kubernetes code their protocol defines instead.
      if (name === 'KubeApiError' || name === 'HttpError') continue
      const code = new ErrorClass('message', [], []).code
      t.match(code, /^ERR_RUNTIME_SDK_[A-Z_]+$/, `${name} (${entry})`)
      seen.set(name, String(code))
    }
  }
  t.ok(seen.size >= 5, `errors found: ${[...seen.keys()].join(', ')}`)
  t.equal(new Set(seen.values()).size, seen.size, 'each code names one error')
})
