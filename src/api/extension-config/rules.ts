// The admission rules of Cluster API's ExtensionConfig webhook (core/webhooks/admission/extensionconfig.go),
// as CEL for the CRD and TypeScript for validateExtensionConfig. Stricter than Cluster API where its own
// documentation says so: URLs carry no user info, query or fragment.
import { type GoURL, parseRequestURI, URLParseError, urlHostname } from '../../go/url.js'
import type { Rule } from '../schema/cel-rules.js'

// Patterns are shared verbatim by CEL (RE2) and TypeScript; they avoid quotes and backslashes so that they
// can sit in a CEL string literal unchanged.
export const DNS1123_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'
/** A DNS-1123 subdomain: DNS-1123 labels joined by dots (its 253-character bound is checked apart). */
export const DNS1123_SUBDOMAIN_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'
export const DNS1035_LABEL_PATTERN = '^[a-z]([-a-z0-9]*[a-z0-9])?$'
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$'
/** A qualified name: optional DNS-1123 subdomain and '/', then a name of at most 63 characters. */
export const QUALIFIED_NAME_PATTERN = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$'
/** An authority with user info: `scheme://user@host`, the authority ending at the first '/' or '?' (as in Go). */
export const USER_INFO_PATTERN = '^[A-Za-z][-A-Za-z0-9+.]*://[^/?]*@'

const DNS_SUBDOMAIN_MAX_LENGTH = 253

const matches = (pattern: string) => {
  const re = new RegExp(pattern)
  return (value: string) => re.test(value)
}
const isDNS1123Label = matches(DNS1123_LABEL_PATTERN)
const isDNS1035Label = matches(DNS1035_LABEL_PATTERN)
const isLabelValue = matches(LABEL_VALUE_PATTERN)
const hasUserInfo = matches(USER_INFO_PATTERN)
const qualifiedNameShape = matches(QUALIFIED_NAME_PATTERN)

function isQualifiedName (key: string): boolean {
  return qualifiedNameShape(key) && (!key.includes('/') || key.indexOf('/') <= DNS_SUBDOMAIN_MAX_LENGTH)
}

/** CEL for isQualifiedName applied to the variable `v`. */
const qualifiedNameCEL = (v: string) =>
  `${v}.matches('${QUALIFIED_NAME_PATTERN}') && (!${v}.contains('/') || ${v}.indexOf('/') <= ${DNS_SUBDOMAIN_MAX_LENGTH})`

// Kubernetes' wording (k8s.io/apimachinery/pkg/util/validation), so users meet the messages they know.
export const DNS1123_LABEL_MESSAGE = 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character ' +
  '(e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')'
export const DNS1035_LABEL_MESSAGE = 'a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character ' +
  '(e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')'
export const LABEL_VALUE_MESSAGE = 'a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character ' +
  '(e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')'
export const LABEL_KEY_MESSAGE = 'label keys must be qualified names: an optional DNS subdomain prefix of at most 253 characters and \'/\', then a name of at most 63 characters ' +
  'that consists of alphanumeric characters, \'-\', \'_\' or \'.\', and starts and ends with an alphanumeric character (e.g. \'MyName\',  or \'example.com/my.name\')'

interface HasName { metadata: { name: string } }
interface ClientConfigLike { url?: string, service?: unknown }
interface Requirement { operator: string, values?: string[] }

/** metadata.name, checked on the root object: the API server itself only requires a DNS-1123 subdomain. */
export const nameRule: Rule<HasName> = {
  rule: `size(self.metadata.name) <= 63 && self.metadata.name.matches('${DNS1123_LABEL_PATTERN}')`,
  fieldPath: '.metadata.name',
  message: `ExtensionConfig name should be a valid DNS1123 label name: ${DNS1123_LABEL_MESSAGE} and must be no more than 63 characters`,
  check: (self) => self.metadata.name.length <= 63 && isDNS1123Label(self.metadata.name)
}

export const urlOrServiceRule: Rule<ClientConfigLike> = {
  rule: 'has(self.url) || has(self.service)',
  message: 'either url or service must be defined',
  check: (self) => self.url !== undefined || self.service !== undefined
}

/** v1alpha1 makes spec optional; without one there is no client config, which Cluster API reports like this. */
export const specRequiredRule: Rule<{ spec?: unknown }> = {
  rule: 'has(self.spec)',
  fieldPath: '.spec.clientConfig',
  message: urlOrServiceRule.message,
  check: (self) => self.spec !== undefined
}

export const notUrlAndServiceRule: Rule<ClientConfigLike> = {
  rule: '!has(self.url) || !has(self.service)',
  message: 'only one of url or service can be defined',
  check: (self) => self.url === undefined || self.service === undefined
}

/** url.ParseRequestURI, as CEL's url() and isURL() see it: the URL, or undefined where Go refuses the string. */
function requestURI (s: string): GoURL | undefined {
  try {
    return parseRequestURI(s)
  } catch (err) {
    if (err instanceof URLParseError) return undefined
    throw err
  }
}

const isURL = (s: string): boolean => requestURI(s) !== undefined

export const urlValidRule: Rule<string> = {
  rule: 'isURL(self) && url(self).getHostname() != \'\'',
  message: 'must be a valid URL with a host, e.g. https://example.com',
  check: (self) => { const u = requestURI(self); return u !== undefined && urlHostname(u) !== '' }
}

export const urlHttpsRule: Rule<string> = {
  // Go lower-cases the scheme, so HTTPS://… passes, as it does in Cluster API.
  rule: '!isURL(self) || url(self).getScheme() == \'https\'',
  message: '\'https\' is the only allowed URL scheme, e.g. https://example.com',
  check: (self) => { const u = requestURI(self); return u === undefined || u.scheme === 'https' }
}

export const urlNoUserInfoRule: Rule<string> = {
  rule: `!self.matches('${USER_INFO_PATTERN}')`,
  message: 'user info ("user:password@") is not allowed in the URL',
  check: (self) => !hasUserInfo(self)
}

export const urlNoQueryRule: Rule<string> = {
  rule: '!self.contains(\'?\')',
  message: 'query parameters ("?...") are not allowed in the URL',
  check: (self) => !self.includes('?')
}

export const urlNoFragmentRule: Rule<string> = {
  rule: '!self.contains(\'#\')',
  message: 'fragments ("#...") are not allowed in the URL',
  check: (self) => !self.includes('#')
}

export const serviceNameRule: Rule<string> = {
  rule: `self.matches('${DNS1035_LABEL_PATTERN}')`,
  message: DNS1035_LABEL_MESSAGE,
  check: isDNS1035Label
}

export const serviceNamespaceRule: Rule<string> = {
  rule: `self.matches('${DNS1123_LABEL_PATTERN}')`,
  message: DNS1123_LABEL_MESSAGE,
  check: isDNS1123Label
}

export const servicePathValidRule: Rule<string> = {
  // Only judged once the path starts with '/', so a relative path gets one message, not two.
  rule: '!self.startsWith(\'/\') || isURL(self)',
  message: 'must be a valid URL path e.g. /path/to/hook',
  check: (self) => !self.startsWith('/') || isURL(self)
}

export const servicePathSlashRule: Rule<string> = {
  rule: 'self.startsWith(\'/\')',
  message: 'must start with "/" to be a valid URL path',
  check: (self) => self.startsWith('/')
}

export const servicePortRule: Rule<number> = {
  rule: 'self >= 1 && self <= 65535',
  message: 'must be between 1 and 65535, inclusive',
  check: (self) => self >= 1 && self <= 65535
}

export const valuesRequiredRule: Rule<Requirement> = {
  rule: '!(self.operator in [\'In\', \'NotIn\']) || (has(self.values) && size(self.values) > 0)',
  fieldPath: '.values',
  message: 'for \'in\', \'notin\' operators, values set can\'t be empty',
  check: (self) => !['In', 'NotIn'].includes(self.operator) || (self.values ?? []).length > 0
}

export const valuesForbiddenRule: Rule<Requirement> = {
  rule: '!(self.operator in [\'Exists\', \'DoesNotExist\']) || !has(self.values) || size(self.values) == 0',
  fieldPath: '.values',
  message: 'values set must be empty for exists and does not exist',
  check: (self) => !['Exists', 'DoesNotExist'].includes(self.operator) || (self.values ?? []).length === 0
}

export const labelKeyRule: Rule<string> = {
  rule: qualifiedNameCEL('self'),
  message: LABEL_KEY_MESSAGE,
  check: isQualifiedName
}

export const labelKeysRule: Rule<Record<string, string>> = {
  rule: `self.all(k, ${qualifiedNameCEL('k')})`,
  message: LABEL_KEY_MESSAGE,
  check: (self) => Object.keys(self).every(isQualifiedName)
}

export const labelValueRule: Rule<string> = {
  rule: `self.matches('${LABEL_VALUE_PATTERN}')`,
  message: LABEL_VALUE_MESSAGE,
  check: isLabelValue
}

/** Keys of free-form string maps (settings) cannot be bounded by OpenAPI in a CRD; this rule does it. */
export function keyLengthRule (maxLength: number): Rule<Record<string, string>> {
  return {
    rule: `self.all(k, size(k) <= ${maxLength})`,
    message: `keys must be at most ${maxLength} characters long`,
    check: (self) => Object.keys(self).every(k => [...k].length <= maxLength)
  }
}
