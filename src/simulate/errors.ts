// The error of input a simulation cannot use: a missing or invalid Cluster, ClusterClass, template or variable.
// Its message names the object (and, from the CLI, the file) and the field, and says what to change.
import { codedError } from '../errors/index.js'

/** Input `simulate` cannot use; the CLI exits 2 with its message. */
export class SimulationInputError extends codedError('ERR_RUNTIME_SDK_SIMULATION_INPUT') {}
