// The -o/--output flag and what it prints: JSON, YAML or the command's table. Its own module so that commands
// printing no documents (serve, controller) never load the YAML library.
import { Option } from 'commander'
import { stringify } from 'yaml'

export type OutputFormat = 'table' | 'json' | 'yaml'

/** -o/--output with the formats a command prints, the first being the default. */
export function outputOption<const F extends string> (formats: readonly F[], description = 'output format'): Option {
  return new Option('-o, --output <format>', description).choices(formats).default(formats[0])
}

/** A value as JSON or YAML, or the command's table. */
export function render (format: string, value: unknown, table: () => string): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`
  if (format === 'yaml') return stringify(value)
  return table()
}
