// sprig v3.3.0's HermeticTxtFuncMap(): GenericFuncMap without the functions sprig itself calls non-hermetic (date,
// now, env, random strings, uuidv4, getHostByName…). Some functions that remain are still random or clock-bound in
// Go (randInt, shuffle, ago, the certificate and key generators, encryptAES); this engine keeps their signatures
// (so arity and type errors match Go's) and refuses to run them. toYaml and required are not sprig functions.
import type { GoFunc } from '../values.js'
import { CRYPTO } from './crypto.js'
import { DEFAULTS } from './defaults.js'
import { DICTS } from './dicts.js'
import { ENCODING } from './encoding.js'
import { LISTS } from './lists.js'
import { NUMBERS } from './numbers.js'
import { REGEX } from './regex.js'
import { SEMVER } from './semver.js'
import { STRINGS } from './strings.js'
import { URLS } from './url.js'

/** Every function of sprig.HermeticTxtFuncMap(), by name. */
export const SPRIG_HERMETIC_TXT: Readonly<Record<string, GoFunc>> = Object.freeze({
  ...STRINGS, ...NUMBERS, ...LISTS, ...DICTS, ...DEFAULTS, ...ENCODING, ...CRYPTO, ...REGEX, ...SEMVER, ...URLS
})
