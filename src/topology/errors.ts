// The errors of the topology mutation toolkit, each with a stable code. Their messages name a variable path, a
// template or a schema keyword, never a variable's value, so they are safe to answer Cluster API with.
import { codedError } from '../errors/index.js'

/**
 * VariableError: a variable path cannot be resolved the way Cluster API's GetVariable resolves it (bad syntax, an
 * index into something that is not a list or past its end), or the builtin variables cannot be merged. A variable
 * that does not exist is not an error: the getters return undefined.
 */
export class VariableError extends codedError('ERR_RUNTIME_SDK_VARIABLE') {}

/** VariableTypeError: a variable exists but its value is not of the type asked for (or fails the schema given). */
export class VariableTypeError extends codedError('ERR_RUNTIME_SDK_VARIABLE_TYPE') {}

/** VariableSchemaError: a variable definition Cluster API would refuse (its name, or its schema at a path). */
export class VariableSchemaError extends codedError('ERR_RUNTIME_SDK_VARIABLE_SCHEMA') {}

/**
 * TemplateMutationError: a mutate function threw an error that is not meant for the caller (not a HookError or one
 * of the variable errors); its message names the template, `cause` is the original error. The extension server
 * logs it and answers a generic Failure.
 */
export class TemplateMutationError extends codedError('ERR_RUNTIME_SDK_TEMPLATE_MUTATION') {}
