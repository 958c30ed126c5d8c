// node --import this file: every module loaded through the ESM loader is printed to stderr as "module-loaded <url>".
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)
