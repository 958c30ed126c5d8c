// The pictures `simulate --html` and `rollout-impact --html` write: one self-contained HTML page each (inline CSS
// and SVG, no script, nothing fetched). A Cluster's life: every hook call as a mark on the virtual clock, one lane
// per hook, the time each hook held the Cluster as a bar, the patched templates with their changes. A rollout
// impact: per Cluster, what each object would do and why.
import { type RolloutImpactReport, summaryText } from '../impact/live.js'
import type { SimulationResult, TimelineEntry } from '../simulate/index.js'

const escape = (text: unknown): string => String(text).replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f24}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse}td,th{border-bottom:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
.call.Success{fill:#1a7f37}.call.Failure,.call.Error{fill:#cf222e}.call.Event{fill:#6e7781}.call.blocking{fill:#bf8700}
.hold{fill:#f6d860;opacity:.6}.lane{font-size:11px;fill:#57606a}.axis{stroke:#d0d7de}pre{background:#f6f8fa;padding:.5rem;overflow:auto}
.rollout,.refused{color:#cf222e;font-weight:600}.in-place{color:#bf8700}.none{color:#57606a}`

function page (title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head><body><h1>${escape(title)}</h1>${body}</body></html>\n`
}

/** How long each hook held the Cluster: from a blocking answer to the next answer that lets it go. */
function holds (timeline: readonly TimelineEntry[]): Array<{ hook: string, from: number, to: number, calls: number, message: string }> {
  const out: Array<{ hook: string, from: number, to: number, calls: number, message: string }> = []
  const open = new Map<string, { from: number, calls: number, message: string }>()
  for (const e of timeline) {
    if (!e.hook || e.status === 'Event') continue
    const held = open.get(e.hook)
    if ((e.retryAfterSeconds ?? 0) > 0) {
      open.set(e.hook, { from: held?.from ?? e.at, calls: (held?.calls ?? 0) + 1, message: e.message ?? '' })
    } else if (held) {
      out.push({ hook: e.hook, from: held.from, to: e.at, calls: held.calls, message: held.message })
      open.delete(e.hook)
    }
  }
  const end = timeline.at(-1)?.at ?? 0
  for (const [hook, held] of open) out.push({ hook, from: held.from, to: end, calls: held.calls, message: held.message })
  return out
}

function timelineSvg (timeline: readonly TimelineEntry[]): string {
  const lanes = [...new Set(timeline.map(e => e.hook || 'cluster'))]
  const end = Math.max(1, timeline.at(-1)?.at ?? 1)
  const left = 190
  const width = 900
  const x = (at: number) => left + (at / end) * (width - left - 20)
  const y = (lane: string) => 20 + lanes.indexOf(lane) * 22
  const height = 30 + lanes.length * 22
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="hook calls on the virtual clock">`]
  lanes.forEach(lane => parts.push(`<text class="lane" x="4" y="${y(lane) + 4}">${escape(lane)}</text><line class="axis" x1="${left}" x2="${width - 20}" y1="${y(lane)}" y2="${y(lane)}"/>`))
  for (const h of holds(timeline)) parts.push(`<rect class="hold" x="${x(h.from)}" y="${y(h.hook) - 7}" width="${Math.max(2, x(h.to) - x(h.from))}" height="14"><title>${escape(`${h.hook} held the Cluster ${h.to - h.from}s (${h.calls} calls): ${h.message}`)}</title></rect>`)
  for (const e of timeline) {
    const blocking = (e.retryAfterSeconds ?? 0) > 0 ? ' blocking' : ''
    const what = [e.hook || 'cluster', e.handler, e.status, e.retryAfterSeconds ? `retry ${e.retryAfterSeconds}s` : '', e.step, e.message].filter(Boolean).join(' · ')
    parts.push(`<circle class="call ${escape(e.status)}${blocking}" data-hook="${escape(e.hook)}" cx="${x(e.at)}" cy="${y(e.hook || 'cluster')}" r="5"><title>${escape(`${e.at}s: ${what}`)}</title></circle>`)
  }
  parts.push(`<text class="lane" x="${left}" y="${height - 4}">0s</text><text class="lane" x="${width - 60}" y="${height - 4}">${end}s</text></svg>`)
  return parts.join('')
}

/** The page of a Cluster's simulated life. */
export function simulationHtml (result: SimulationResult, cluster: string): string {
  const held = holds(result.timeline)
  let body = `<p>${escape(result.outcome === 'completed' ? `Completed: ${result.calls} handler calls.` : `Failed: ${result.error ?? ''}`)}</p>`
  body += `<h2>Hook calls on the virtual clock</h2>${timelineSvg(result.timeline)}`
  body += '<h2>What held the Cluster</h2>'
  body += held.length === 0
    ? '<p>No hook held it.</p>'
    : `<table><tr><th>Hook</th><th>From</th><th>For</th><th>Calls</th><th>Message</th></tr>${held.map(h => `<tr class="held"><td>${escape(h.hook)}</td><td>${h.from}s</td><td>${h.to - h.from}s</td><td>${h.calls}</td><td>${escape(h.message)}</td></tr>`).join('')}</table>`
  for (const phase of result.phases) {
    body += `<h2>Templates after the patches (${escape(phase.phase)} at ${escape(phase.version)})</h2>`
    for (const t of phase.templates) {
      const ops = t.diff.map(op => `${op.op} ${op.path}${'value' in op ? ` ${JSON.stringify(op.value)}` : ''}`).join('\n')
      body += `<details><summary>${escape(`${t.role}: ${t.kind} ${t.name} -> ${t.generatedName} (${t.diff.length === 0 ? 'unchanged' : `${t.diff.length} changes`})`)}</summary>${ops ? `<pre>${escape(ops)}</pre>` : ''}</details>`
    }
  }
  return page(`Cluster ${cluster}: its life as Cluster API drives it`, body)
}

/** A refused object's refusal, or the refused object it waits for. */
function objectNotes (o: { refused?: string, waitsFor?: string }): string {
  if (o.refused !== undefined) return `<div class="refused">${escape(`refused: ${o.refused}`)}</div>`
  return o.waitsFor !== undefined ? `<div>${escape(`waits: Cluster API stops at ${o.waitsFor}, refused`)}</div>` : ''
}

/** The page of a rollout impact report. */
export function impactHtml (report: RolloutImpactReport): string {
  const s = report.summary
  let body = `<p>${escape(`${summaryText(s).slice(0, -1)}; the candidate replaces ExtensionConfig ${report.extensionConfig}.`)}</p>`
  for (const c of report.clusters) {
    body += `<h2>${escape(c.cluster)}</h2>`
    if ('error' in c) {
      body += `<p class="rollout">${escape(c.error)}</p>`
      continue
    }
    if (c.topologyReconciled) body += `<p class="refused">${escape(`TopologyReconciled ${c.topologyReconciled.status} ${c.topologyReconciled.reason}: ${c.topologyReconciled.message}`)}</p>`
    body += `<table><tr><th>Role</th><th>Object</th><th>Effect</th><th>Machines</th><th>Changes</th></tr>${c.objects.map(o => `<tr><td>${escape(o.role)}</td><td>${escape(o.object)}</td><td class="${escape(o.effect)}">${escape(o.effect)}</td><td>${o.machines ?? ''}</td><td>${objectNotes(o)}${o.changes.map(ch => `<div>${escape(`${ch.object} ${ch.path}: ${JSON.stringify(ch.before)} -> ${JSON.stringify(ch.after)} (${ch.why})`)}</div>`).join('')}${o.inPlace ? `<div>${escape(`${o.inPlace.hook}: ${o.inPlace.accepted ? 'in place' : o.inPlace.reason}`)}</div>` : ''}</td></tr>`).join('')}</table>`
  }
  return page('Rollout impact', body)
}
