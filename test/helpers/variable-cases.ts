// ClusterClass variables and Cluster values that exercise what Cluster API's Cluster webhook does to them
// (DefaultVariables, then ValidateClusterVariables): defaults at every depth, each OpenAPI check, unknown fields,
// CEL rules with message, messageExpression, reason and fieldPath, overrides, names not defined or set twice.
// test/capi/simulate.test.ts creates each Cluster on Cluster API (server-side dry run) and compares its answer,
// the defaulted variables or the refusal's message, with simulate's.

/** The variables of the ClusterClass the cases are written against (spec.variables). */
export const CLASS_VARIABLES = [
  { name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string', minLength: 2, maxLength: 10, pattern: '^[a-z0-9-]+$' } } },
  { name: 'replicas', required: false, schema: { openAPIV3Schema: { type: 'integer', minimum: 1, maximum: 5, default: 3 } } },
  { name: 'mode', required: false, schema: { openAPIV3Schema: { type: 'string', enum: ['fast', 'safe'], default: 'safe' } } },
  {
    name: 'owner',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        required: ['team'],
        properties: {
          team: { type: 'string', description: 'the owning team' },
          email: { type: 'string', format: 'email' },
          tags: { type: 'array', maxItems: 2, uniqueItems: true, items: { type: 'string' } }
        },
        'x-kubernetes-validations': [
          { rule: "!has(self.email) || self.email.endsWith('@example.com')", message: 'email must be at example.com' },
          { rule: "self.team != 'root'", messageExpression: "'team ' + self.team + ' is reserved'", reason: 'FieldValueForbidden', fieldPath: '.team' }
        ]
      }
    }
  },
  { name: 'limits', required: false, schema: { openAPIV3Schema: { type: 'object', maxProperties: 2, additionalProperties: { type: 'integer', minimum: 0 } } } },
  { name: 'size', required: false, schema: { openAPIV3Schema: { 'x-kubernetes-int-or-string': true, default: '10Gi' } } },
  { name: 'settings', required: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { level: { type: 'integer', default: 1 } } } } },
  {
    name: 'ports',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'array',
        maxItems: 4,
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 } },
          'x-kubernetes-validations': [{ rule: 'self.port < 1024', message: 'ports must be below 1024' }]
        }
      }
    }
  },
  {
    name: 'network',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        default: {},
        properties: {
          cidr: { type: 'string', format: 'cidr', default: '10.0.0.0/16' },
          dns: { type: 'object', default: {}, properties: { domain: { type: 'string', default: 'cluster.local' }, servers: { type: 'array', items: { type: 'string', format: 'ipv4' } } } }
        }
      }
    }
  },
  { name: 'pinned', required: false, schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'pinned is immutable' }] } } }
]

/** A Cluster's variables and, optionally, the overrides of its MachineDeployment md-0. */
export interface VariableCase {
  name: string
  variables: Array<{ name: string, value?: unknown }>
  overrides?: Array<{ name: string, value?: unknown }>
}

const region = { name: 'region', value: 'eu-1' }

export const VARIABLE_CASES: VariableCase[] = [
  { name: 'only the required variable: every default added', variables: [region] },
  { name: 'values given keep their order, defaults fill nested objects', variables: [{ name: 'network', value: { dns: { servers: ['10.0.0.10'] } } }, region, { name: 'ports', value: [{ name: 'http' }, { name: 'https', port: 443 }] }] },
  { name: 'preserved unknown fields are kept', variables: [region, { name: 'settings', value: { level: 2, extra: { any: 'thing' } } }] },
  { name: 'int-or-string takes both', variables: [region, { name: 'size', value: 20 }] },
  { name: 'overrides are defaulted, not added', variables: [region], overrides: [{ name: 'network', value: { cidr: '10.1.0.0/16' } }, { name: 'replicas', value: 2 }] },
  { name: 'a transition rule does not run on create', variables: [region, { name: 'pinned', value: 'v1' }] },
  { name: 'the required variable missing', variables: [] },
  { name: 'a string too long and not matching the pattern', variables: [{ name: 'region', value: 'Europe_West_One' }] },
  { name: 'a string too short', variables: [{ name: 'region', value: 'e' }] },
  { name: 'the wrong type', variables: [{ name: 'region', value: 42 }] },
  { name: 'a null value', variables: [{ name: 'region', value: null }] },
  { name: 'integers out of range', variables: [region, { name: 'replicas', value: 0 }] },
  { name: 'a number that is not an integer', variables: [region, { name: 'replicas', value: 2.5 }] },
  { name: 'a value not in the enum', variables: [region, { name: 'mode', value: 'reckless' }] },
  { name: 'a required property missing', variables: [region, { name: 'owner', value: { email: 'a@example.com' } }] },
  { name: 'a property the schema does not define', variables: [region, { name: 'owner', value: { team: 'a', boss: 'b', deep: { x: 1 } } }] },
  { name: 'a format not met', variables: [region, { name: 'owner', value: { team: 'a', email: 'not-an-email' } }] },
  { name: 'a CEL rule with a message', variables: [region, { name: 'owner', value: { team: 'a', email: 'a@elsewhere.org' } }] },
  { name: 'a CEL rule with messageExpression, reason and fieldPath', variables: [region, { name: 'owner', value: { team: 'root' } }] },
  { name: 'two CEL rules failing', variables: [region, { name: 'owner', value: { team: 'root', email: 'root@elsewhere.org' } }] },
  { name: 'a list too long, with duplicates', variables: [region, { name: 'owner', value: { team: 'a', tags: ['x', 'x', 'y'] } }] },
  { name: 'a map value invalid and too many properties', variables: [region, { name: 'limits', value: { cpu: -1, memory: 2, disk: 3 } }] },
  { name: 'int-or-string given a boolean', variables: [region, { name: 'size', value: true }] },
  { name: 'a list item missing its required field', variables: [region, { name: 'ports', value: [{ port: 22 }] }] },
  { name: 'a CEL rule over a list, defaults applied first', variables: [region, { name: 'ports', value: [{ name: 'a' }, { name: 'b', port: 8080 }] }] },
  { name: 'formats deep in a defaulted object', variables: [region, { name: 'network', value: { cidr: '10.0.0.0/33', dns: { servers: ['10.0.0.300'] } } }] },
  { name: 'a variable the class does not define', variables: [region, { name: 'nope', value: { a: 1 } }] },
  { name: 'a variable set twice', variables: [region, { name: 'mode', value: 'fast' }, { name: 'mode', value: 'safe' }] },
  { name: 'an override that is invalid', variables: [region], overrides: [{ name: 'replicas', value: 9 }, { name: 'owner', value: { team: 'root' } }] },
  { name: 'an override the class does not define', variables: [region], overrides: [{ name: 'nope', value: 'x' }] },
  { name: 'errors in several variables at once', variables: [{ name: 'region', value: 'UPPER' }, { name: 'replicas', value: 'three' }, { name: 'mode', value: 'x' }, { name: 'nope', value: 1 }] }
]
