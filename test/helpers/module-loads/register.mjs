// node --import this file: every module loaded is printed to stderr as "module-loaded <url>", ES modules by the
// loader hooks, CommonJS files (the packages' own require()s, which those hooks do not see on Node 20) here.
import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'

register('./hooks.mjs', import.meta.url)

const Module = createRequire(import.meta.url)('node:module')
const loadJs = Module._extensions['.js']
Module._extensions['.js'] = function (module, filename) {
  process.stderr.write(`module-loaded ${pathToFileURL(filename).href}\n`)
  return loadJs.call(this, module, filename)
}
