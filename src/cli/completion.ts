// runtime-sdk completion bash|zsh|fish: shell completion of subcommands, flags and flag values with fixed choices,
// generated from the command tree so that it never lags behind it.
import { Argument, type Command } from 'commander'
import { action, type CliIO, defaultIO } from './command.js'

const SHELLS = ['bash', 'zsh', 'fish'] as const
type Shell = typeof SHELLS[number]

interface Spec {
  name: string
  description: string
  flags: Array<{ long: string, short?: string, choices?: readonly string[], takesValue: boolean, description: string }>
}

function specs (program: Command): Spec[] {
  return program.commands.map(c => ({
    name: c.name(),
    description: c.description(),
    flags: c.options.filter(o => !o.hidden && o.long).map(o => ({
      long: o.long as string,
      ...(o.short ? { short: o.short } : {}),
      ...(o.argChoices ? { choices: o.argChoices } : {}),
      takesValue: o.required || o.optional,
      description: o.description
    }))
  }))
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`

function bash (program: Command): string {
  const commands = specs(program)
  const cases = commands.map(c => {
    const words = [...c.flags.flatMap(f => f.short ? [f.short, f.long] : [f.long]), '--help'].join(' ')
    const values = c.flags.filter(f => f.choices).map(f =>
      `        ${[f.short, f.long].filter(Boolean).join('|')}) COMPREPLY=($(compgen -W ${quote(f.choices?.join(' ') ?? '')} -- "$cur")); return ;;`)
    return `    ${c.name})\n      case "$prev" in\n${values.join('\n')}${values.length ? '\n' : ''}      esac\n      COMPREPLY=($(compgen -W ${quote(words)} -- "$cur")); return ;;`
  })
  return `# bash completion for runtime-sdk: source <(runtime-sdk completion bash)
_runtime_sdk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" sub="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) sub="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ -z "$sub" ]]; then
    COMPREPLY=($(compgen -W ${quote([...commands.map(c => c.name), '--version', '--help'].join(' '))} -- "$cur")); return
  fi
  case "$sub" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o default -F _runtime_sdk runtime-sdk
`
}

function zsh (program: Command): string {
  return `#compdef runtime-sdk
# zsh completion for runtime-sdk: source <(runtime-sdk completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(program).split('\n').slice(1).join('\n')}`
}

function fish (program: Command): string {
  const lines = ['# fish completion for runtime-sdk: runtime-sdk completion fish | source', 'complete -c runtime-sdk -f']
  for (const c of specs(program)) {
    lines.push(`complete -c runtime-sdk -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description.slice(0, 80))}`)
    for (const f of c.flags) {
      const short = f.short ? ` -s ${f.short.replace(/^-/, '')}` : ''
      const values = f.choices ? ` -x -a ${quote(f.choices.join(' '))}` : f.takesValue ? ' -r -F' : ''
      lines.push(`complete -c runtime-sdk -n '__fish_seen_subcommand_from ${c.name}' -l ${f.long.replace(/^--/, '')}${short}${values} -d ${quote(f.description.slice(0, 80))}`)
    }
  }
  return `${lines.join('\n')}\n`
}

export function completionCommand (program: Command, io: CliIO = defaultIO): Command {
  const generators: Record<Shell, (program: Command) => string> = { bash, zsh, fish }
  return program.command('completion')
    .description('print a shell completion script: source <(runtime-sdk completion bash), or zsh; fish: runtime-sdk completion fish | source')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action(action(io, (shell: Shell) => { io.stdout(generators[shell](program)) }))
}
