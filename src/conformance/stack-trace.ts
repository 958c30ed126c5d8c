// Recognising stack traces in messages: Cluster API copies handler messages into conditions and logs, where a
// trace leaks file paths and internals (and often the data being processed).

const PATTERNS: ReadonlyArray<[string, RegExp]> = [
  // V8: "    at handler (/srv/ext/index.js:12:7)", "at /srv/ext/index.js:12:7", "at async file:///srv/a.mjs:3:9"
  ['a JavaScript stack frame', /\bat (?:async )?(?:[^\s()]+ )?\(?(?:file:\/\/|node:)?[^\s():]*[\w\]>]:\d+:\d+\)?/],
  // Go: "goroutine 7 [running]:", "panic: runtime error: ...", "\t/src/handlers.go:42 +0x1d"
  ['a Go goroutine dump', /\bgoroutine \d+ \[[^\]]+\]:?/],
  ['a Go panic', /(?:^|\n)\s*panic: /],
  ['a Go stack frame', /\.go:\d+ \+0x[0-9a-f]+/],
  // Python and the JVM, for extensions written in them.
  ['a Python traceback', /Traceback \(most recent call last\)/],
  ['a Java stack frame', /\bat [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)/]
]

/** The first stack-trace-like fragment of a text and what it looks like, or undefined. */
export function findStackTrace (text: string): {
  /** kind says what it looks like, e.g. "a JavaScript stack frame" or "a Go panic". */
  kind: string
  /** excerpt is the fragment found. */
  excerpt: string
} | undefined {
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(text)
    if (match) return { kind, excerpt: match[0].trim() }
  }
  return undefined
}
