// Reads counters out of Prometheus text: the sum of a metric's samples whose labels include the given ones.
export function counter (text: string, metric: string, labels: Record<string, string> = {}): number {
  let sum = 0
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match || match[1] !== metric) continue
    const sample = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(m => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => sample[k] === v)) sum += Number(match[3])
  }
  return sum
}
