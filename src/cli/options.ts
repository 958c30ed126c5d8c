// Parsers of option values shared by the subcommands; a bad value gets commander's usage error.
import { InvalidArgumentError } from 'commander'
import { parseGoDuration } from '../go/time.js'

export const portOption = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)')
  return n
}

/** A Go duration (30s, 10m, 1h30m) in milliseconds. */
export const durationOption = (value: string): number => {
  const ms = parseGoDuration(value)
  if (ms === undefined) throw new InvalidArgumentError('must be a duration such as 30s, 10m or 1h30m (0 turns it off)')
  return ms
}

export const countOption = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000')
  return n
}

/** An integer from 1 to max. */
export const boundedCountOption = (max: number) => (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`must be an integer from 1 to ${max}`)
  return n
}

/** Labels written as `key=value,key=value`. */
export const labelsOption = (value: string): Record<string, string> => {
  const labels: Record<string, string> = {}
  for (const pair of value.split(',').map(s => s.trim()).filter(Boolean)) {
    const i = pair.indexOf('=')
    if (i <= 0) throw new InvalidArgumentError(`"${pair}" is not key=value`)
    labels[pair.slice(0, i)] = pair.slice(i + 1)
  }
  return labels
}

const QUANTITY_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }

/** A memory size as Kubernetes writes it (512Mi, 1Gi, 500M, bytes) in bytes. */
export const quantityOption = (value: string): number => {
  const match = /^([0-9]+)([kKMGT]i?|)$/.exec(value.trim())
  const unit = match ? QUANTITY_UNITS[match[2] as string] : undefined
  if (!match || unit === undefined) throw new InvalidArgumentError('must be a memory size such as 512Mi, 1Gi or 500M (0 turns it off)')
  return Number(match[1]) * unit
}
