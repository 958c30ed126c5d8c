// `runtime-sdk rollout-impact --handlers dist/labels.js`: version 2 labelling the workers' bootstrap templates.
import { version2 } from './version-2.js'

export default version2('labels')
