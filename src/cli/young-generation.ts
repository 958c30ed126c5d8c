// Imported first by main.ts: the command's processes (serve, controller) keep V8's young generation at 4 MB per
// semi-space instead of Node 20's 16 MB. Their garbage is small and short-lived (one hook call, one watch event), so
// scavenges stay as cheap while the idle process holds ~35 MB less (measured in bench/, scenario 6). A
// --max-semi-space-size given in NODE_OPTIONS or on the command line wins.
import { setFlagsFromString } from 'node:v8'

const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some(arg => arg.includes('semi-space-size') || arg.includes('semi_space_size'))
if (!given) setFlagsFromString('--max-semi-space-size=4')
