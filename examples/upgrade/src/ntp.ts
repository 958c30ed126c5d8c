// `runtime-sdk rollout-impact --handlers dist/ntp.js`: version 2 with NTP on the workers.
import { version2 } from './version-2.js'

export default version2('ntp')
