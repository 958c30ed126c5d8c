import neostandard from 'neostandard'

// The layers, and what each may import: data flows from the API definitions (src/api: the hooks, the ExtensionConfig
// API, the schema toolkit) through the catalog to the server and the client, the registry and the controller; the CLI
// sits on top. An import against this direction fails lint.
const LAYERS = {
  'src/shims': [],
  'src/errors': [],
  'src/budget': [],
  'src/go': [],
  'src/tls': [],
  'src/backoff': [],
  'src/http': [],
  'src/api': [],
  'src/gotemplate': [],
  'src/telemetry': [],
  'src/apiserver': [],
  'src/kube': ['src/api', 'src/backoff', 'src/http', 'src/gotemplate'],
  'src/catalog': ['src/api'],
  'src/registry': ['src/api', 'src/catalog'],
  'src/client': ['src/api', 'src/catalog', 'src/registry', 'src/kube', 'src/tls', 'src/http', 'src/backoff'],
  'src/server': ['src/api', 'src/catalog', 'src/tls', 'src/http'],
  'src/topology': ['src/api', 'src/server'],
  'src/in-place': ['src/api', 'src/server', 'src/topology'],
  'src/reference-extension': ['src/api', 'src/catalog', 'src/server', 'src/topology', 'src/in-place'],
  'src/controller': ['src/api', 'src/catalog', 'src/registry', 'src/client', 'src/kube', 'src/tls', 'src/http', 'src/backoff'],
  'src/conformance': ['src/api', 'src/catalog', 'src/client', 'src/tls', 'src/http'],
  'src/simulate': ['src/api', 'src/catalog', 'src/registry', 'src/client', 'src/server', 'src/conformance', 'src/topology', 'src/gotemplate', 'src/apiserver'],
  'src/impact': ['src/api', 'src/catalog', 'src/registry', 'src/client', 'src/server', 'src/topology', 'src/simulate', 'src/apiserver'],
  'src/diagnose': ['src/api', 'src/catalog', 'src/registry', 'src/client', 'src/simulate'],
  'src/testing': ['src/api', 'src/catalog', 'src/registry', 'src/client', 'src/server', 'src/tls', 'src/simulate', 'src/reference-extension', 'src/in-place']
}
const FOLDERS = [...Object.keys(LAYERS), 'src/cli']
// The shims of our dependencies' internals, the error factory, the per-Cluster budget, the ports of Go's standard
// library and the tracing API sit under every layer: any layer may import them.
const BELOW_ALL = ['src/shims', 'src/errors', 'src/budget', 'src/go', 'src/telemetry']
const folderName = (folder) => folder.replace(/^src\//, '')

const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => ({
  files: [`${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: FOLDERS.filter(f => f !== folder && !allowed.includes(f) && !BELOW_ALL.includes(f)).map(f => ({
        group: [`**/${folderName(f)}/*`, `**/${folderName(f)}/index.js`],
        message: `${folder} must not import ${f}: the layers are api -> catalog -> server | client -> registry <- controller, CLI on top (eslint.config.js)`
      }))
    }]
  }
}))

// undici's index loads all of undici; src/shims/undici.ts is where its Agent and request come from (types may come
// from the package).
const undiciRule = {
  files: ['src/**/*.ts'],
  ignores: ['src/shims/undici.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', {
      paths: [{ name: 'undici', allowTypeImports: true, message: 'import Agent and request from src/shims/undici.ts, which does not load all of undici' }]
    }]
  }
}

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', '.tap/**', 'node_modules/**'] }),
  ...layerRules,
  undiciRule
]
