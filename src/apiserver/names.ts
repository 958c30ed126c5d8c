// Kubernetes' name checks (k8s.io/apimachinery util/validation and api/validate/content) with their messages: label
// keys and values, DNS labels and subdomains, path segments. Embedded resources' metadata and the CEL format library
// (format.dns1123Label() …) report exactly these strings.
import { byteLength } from '../go/utf8.js'

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const DNS1123_SUBDOMAIN = DNS1123_LABEL + '(\\.' + DNS1123_LABEL + ')*'
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?'
const LABEL_KEY = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const LABEL_VALUE = '(' + LABEL_KEY + ')?'

const whole = (re: string) => new RegExp('^' + re + '$')
const dns1123LabelRe = whole(DNS1123_LABEL)
const dns1123SubdomainRe = whole(DNS1123_SUBDOMAIN)
const dns1035LabelRe = whole(DNS1035_LABEL)
const labelKeyRe = whole(LABEL_KEY)
const labelValueRe = whole(LABEL_VALUE)

/** RegexError: `msg (e.g. 'a' or 'b', regex used for validation is 're')`. */
export function regexError (msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`
  return `${msg} (e.g. ${examples.map(e => `'${e}', `).join(' or ')}regex used for validation is '${re}')`
}

// util/validation says "characters", api/validate/content says "bytes"; both count bytes.
const maxLenChars = (n: number) => `must be no more than ${n} characters`
const maxLenBytes = (n: number) => `must be no more than ${n} bytes`

/** util/validation.IsDNS1123Label. */
export function isDNS1123Label (value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenChars(63))
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots')
    else errs.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL, 'my-name', '123-abc'))
  }
  return errs
}

/** util/validation.IsDNS1123Subdomain. */
export function isDNS1123Subdomain (value: string): string[] {
  return dns1123Subdomain(value, maxLenChars)
}

function dns1123Subdomain (value: string, maxLen: (n: number) => string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 253) errs.push(maxLen(253))
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN, 'example.com'))
  }
  return errs
}

/** util/validation.IsDNS1035Label. */
export function isDNS1035Label (value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenChars(63))
  if (!dns1035LabelRe.test(value)) {
    errs.push(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", DNS1035_LABEL, 'my-name', 'abc-123'))
  }
  return errs
}

const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

/** IsQualifiedName (content.IsLabelKey): `[prefix/]name`. */
export function isQualifiedName (value: string): string[] {
  const errs: string[] = []
  const parts = value.split('/')
  let name: string
  if (parts.length === 1) {
    name = parts[0] as string
  } else if (parts.length === 2) {
    const prefix = parts[0] as string
    name = parts[1] as string
    if (prefix.length === 0) errs.push('prefix part must be non-empty')
    else errs.push(...dns1123Subdomain(prefix, maxLenBytes).map(m => 'prefix part ' + m))
  } else {
    return [...errs, 'a valid label key ' + regexError(LABEL_KEY_MSG, LABEL_KEY, 'MyName', 'my.name', '123-abc') +
      " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
  }
  if (name.length === 0) errs.push('name part must be non-empty')
  else if (byteLength(name) > 63) errs.push('name part ' + maxLenBytes(63))
  if (!labelKeyRe.test(name)) errs.push('name part ' + regexError(LABEL_KEY_MSG, LABEL_KEY, 'MyName', 'my.name', '123-abc'))
  return errs
}

/** IsValidLabelValue (content.IsLabelValue). */
export function isValidLabelValue (value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenBytes(63))
  if (!labelValueRe.test(value)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE, 'MyValue', 'my_value', '12345'))
  }
  return errs
}

/** A generateName is checked with its trailing dash replaced (maskTrailingDash). */
function maskTrailingDash (name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name
}

/** api/validation.NameIsDNSLabel. */
export const nameIsDNSLabel = (name: string, prefix: boolean): string[] => isDNS1123Label(prefix ? maskTrailingDash(name) : name)
/** api/validation.NameIsDNSSubdomain. */
export const nameIsDNSSubdomain = (name: string, prefix: boolean): string[] => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name)
/** api/validation.NameIsDNS1035Label. */
export const nameIsDNS1035Label = (name: string, prefix: boolean): string[] => isDNS1035Label(prefix ? maskTrailingDash(name) : name)

/** content.IsPathSegmentName / IsPathSegmentPrefix: what an embedded resource's name must be. */
export function isPathSegment (name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`]
  return ['/', '%'].filter(c => name.includes(c)).map(c => `may not contain '${c}'`)
}
