// Summaries of V8 CPU profiles (node --cpu-prof): self time by function and by package, as short text that can be
// committed instead of the multi-megabyte .cpuprofile.

interface CallFrame { functionName: string, url: string, lineNumber: number }
interface ProfileNode { id: number, callFrame: CallFrame }
export interface CpuProfile { nodes: ProfileNode[], samples: number[], timeDeltas: number[] }

export interface SelfTime { name: string, selfMs: number, share: number }

/** Where a function lives: a package under node_modules, node's internals, our sources, or V8 itself. */
export function packageOf (url: string): string {
  if (url === '') return '(V8 / native)'
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/')
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : parts.join('/')}`
  }
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/')
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : rest[0] ?? url
  }
  const repo = /\/(src|hooks|bench|test)\/(.*)$/.exec(url)
  return repo ? `${repo[1]}/${repo[2]}` : url.replace(/^file:\/\//, '')
}

function frameName (frame: CallFrame): string {
  const fn = frame.functionName || '(anonymous)'
  if (frame.url === '') return fn
  const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/(src|hooks|bench)\//, '$1/')
  return `${fn} ${file}:${frame.lineNumber + 1}`
}

/** Self time per key (function or package), highest first; share is of the total sampled time. */
export function selfTimes (profile: CpuProfile, keyOf: (frame: CallFrame) => string): { totalMs: number, rows: SelfTime[] } {
  const byNode = new Map(profile.nodes.map(n => [n.id, n]))
  const totals = new Map<string, number>()
  let totalUs = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    const node = byNode.get(id)
    if (!node) return
    totalUs += us
    const key = keyOf(node.callFrame)
    totals.set(key, (totals.get(key) ?? 0) + us)
  })
  const rows = [...totals].map(([name, us]) => ({ name, selfMs: us / 1000, share: totalUs > 0 ? us / totalUs : 0 }))
  rows.sort((a, b) => b.selfMs - a.selfMs)
  return { totalMs: totalUs / 1000, rows }
}

/** The text committed next to the results: top functions and packages by self time. */
export function summarizeProfile (profile: CpuProfile, heading: string, top = 30): string {
  const functions = selfTimes(profile, frameName)
  const packages = selfTimes(profile, f => f.url === '' ? f.functionName || '(V8 / native)' : packageOf(f.url))
  const line = (r: SelfTime) => `${(r.share * 100).toFixed(1).padStart(5)}%  ${r.selfMs.toFixed(0).padStart(7)} ms  ${r.name}`
  return [
    heading,
    `sampled: ${functions.totalMs.toFixed(0)} ms`,
    '',
    'Self time by package (or V8 category):',
    ...packages.rows.slice(0, 20).map(line),
    '',
    `Top ${top} functions by self time:`,
    ...functions.rows.slice(0, top).map(line),
    ''
  ].join('\n')
}
