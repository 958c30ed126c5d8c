// Loader hooks for register.mjs: report each module as it loads.
export async function load (url, context, nextLoad) {
  process.stderr.write(`module-loaded ${url}\n`)
  return nextLoad(url, context)
}
