// node --import this file: every module loaded is printed to stderr as "module-loaded <url>", ES modules by the
// loader hooks, CommonJS files (the packages' own require()s, which those hooks do not see on Node 20) here.
import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'

register('./hooks.mjs', import.meta.url)

const Module = createRequire(import.meta.url)('node:module')
// .cjs has its own handler when a TypeScript loader registered one (the test runner's), else Node's .js one.
for (const extension of ['.js', '.cjs']) {
  const load = Module._extensions[extension]
  if (!load) continue
  Module._extensions[extension] = function (module, filename) {
    process.stderr.write(`module-loaded ${pathToFileURL(filename).href}\n`)
    return load.call(this, module, filename)
  }
}
