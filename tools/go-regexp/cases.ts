import { mulberry32 } from '../harness/seeded-random.js'

/* eslint-disable no-template-curly-in-string -- ${name} is a Go regexp expansion here, not JS */
// The cases of src/go/regexp.ts's fixture: seeded random patterns over Go's syntax (groups, named groups, flags,
// classes, Unicode classes, repetitions, anchors, escapes, and what Go refuses) matched against short strings
// mixing ASCII, case-folding pairs and astral characters, and hand-written ones: patterns that make a backtracking
// engine take exponential time, group names used twice, and Go's limits on nesting and size.

/** A case: the pattern, the string it runs over, the ReplaceAll template. */
export interface RegexpCase { pattern: string, input: string, replacement: string }

/** The seed and number of the random cases committed with the fixture. */
export const RANDOM_SEED = 20261201
export const RANDOM_CASES = 3000

const TOKENS = [
  'a', 'b', 'x', '.', '*', '+', '?', '|', '(', ')', '(?:', '(?i)', '(?s)', '(?m)', '(?U)', '(?P<name>', '(?<name>', '(?P<n2>', '[', ']', '[^', '-',
  '^', '$', '\\b', '\\B', '\\A', '\\z', '\\d', '\\w', '\\s', '\\S', '\\pL', '\\p{Greek}', '\\PL', '[[:alpha:]]', '[[:^digit:]]', '{2}', '{1,3}',
  '{2,}', '*?', '+?', '\\Q.*\\E', '\\x41', '\\x{1F600}', '\\', 'é', '😀', '\\.', '\\n', '\\Z', '(?<=a)', '\\C', '\\8', '{', '}', '\\pN', '\\p{^L}',
  '(?i:a)', '[a-z]', '[z-a]', '\\_', '\\-', '[\\d]', '(?-s:.)', '\\v', '\\f', '\\0', '\\01', '\\e', '\\h', '(?#c)', '(?P=name)', '(?x)'
]
const CHARS = ['a', 'b', 'x', 'A', 'B', 'é', 'É', '😀', '\n', ' ', '1', '9', '.', 'α', 'Σ', 'ς', '$', '_', 'k', 'K', '\u212a', 'ſ', 's']
const REPLACEMENTS = ['<$1|${name}|$0>', '$$', '${2}x$n2', '$1W', '[$10]', '$', '${', '$name_x', '-']

/** n random cases from a seed. */
export function randomCases (seed: number, n: number): RegexpCase[] {
  const random = mulberry32(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  return Array.from({ length: n }, () => ({
    pattern: Array.from({ length: 1 + Math.floor(random() * 7) }, () => pick(TOKENS)).join(''),
    input: Array.from({ length: Math.floor(random() * 10) }, () => pick(CHARS)).join(''),
    replacement: pick(REPLACEMENTS)
  }))
}

const forty = 'a'.repeat(40) + '!'

/** Hand-written cases. */
export const HAND_CASES: RegexpCase[] = [
  // Exponential for a backtracking engine, linear for RE2.
  { pattern: '^(a+)+$', input: forty, replacement: 'x' },
  { pattern: '(a|aa)+$', input: forty, replacement: 'x' },
  { pattern: '(a*)*b', input: forty, replacement: '[$1]' },
  { pattern: '^(\\w+\\s?)+$', input: 'word '.repeat(30) + '!', replacement: 'x' },
  { pattern: '(x+x+)+y', input: 'x'.repeat(5000), replacement: 'z' },
  { pattern: '(.*a){20}', input: 'a'.repeat(3000), replacement: '-' },
  { pattern: '^(([a-z])+.)+[A-Z]([a-z])+$', input: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa!', replacement: 'x' },
  // Group names used twice (Go allows it; the first group that matched expands).
  { pattern: '(?P<n>a)|(?P<n>b)', input: 'ab', replacement: '<${n}>' },
  { pattern: '(?P<n>x)?(?P<n>b)', input: 'b', replacement: '<$n>' },
  { pattern: '(?P<n>a)(?P<n>b', input: 'ab', replacement: '' },
  // Go's limits: repetition counts, nesting, size.
  { pattern: 'a{1001}', input: 'a', replacement: '' },
  { pattern: '(?:a{1000}){1000}', input: 'a', replacement: '' },
  { pattern: '('.repeat(1001) + ')'.repeat(1001), input: '', replacement: '' },
  { pattern: '(?:'.repeat(999) + 'a' + ')'.repeat(999), input: 'a', replacement: 'b' },
  { pattern: '\\', input: '', replacement: '' },
  { pattern: '', input: 'abc', replacement: '-' },
  { pattern: 'x*', input: 'a😀b', replacement: '-' }
]
