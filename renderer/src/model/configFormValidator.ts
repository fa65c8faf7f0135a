/**
 * The validator the schema forms use. The app's Content-Security-Policy forbids `eval`, which ajv's compiled
 * validators need, so the browser does not validate: ajv runs on the Node side (`config.preview`) and its errors
 * come back as the forms' `extraErrors`. What rjsf still needs here is `isValid` for choosing among `oneOf` /
 * `anyOf` options and `if`/`then` branches; `matchesSchema` answers that structurally (types, enum, const,
 * required, properties, items, allOf/anyOf/oneOf, local $refs). Pure; no DOM.
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: unknown, value: unknown): boolean {
  const actual = typeOf(value);
  const list = Array.isArray(expected) ? expected : [expected];
  return list.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

function resolveRef(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/'))
    node = isRecord(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isRecord(node) ? node : {};
}

function objectMatches(schema: Schema, value: Record<string, unknown>, root: Schema): boolean {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.some((key) => !(key in value))) return false;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  return Object.entries(value).every(([key, v]) => {
    const property = properties[key];
    if (isRecord(property)) return matchesSchema(property, v, root);
    if (schema.additionalProperties === false) return false;
    return isRecord(schema.additionalProperties) ? matchesSchema(schema.additionalProperties, v, root) : true;
  });
}

/** Whether `value` fits `schema` as far as choosing an option needs (no formats, lengths or ranges). */
export function matchesSchema(input: unknown, value: unknown, root: Schema = isRecord(input) ? input : {}): boolean {
  if (input === true || input === undefined) return true;
  if (input === false || !isRecord(input)) return false;
  const schema = resolveRef(input, root);
  if (schema.type !== undefined && !typeMatches(schema.type, value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((s) => matchesSchema(s, value, root))) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => matchesSchema(s, value, root))) return false;
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((s) => matchesSchema(s, value, root)).length !== 1)
    return false;
  if (isRecord(value) && !objectMatches(schema, value, root)) return false;
  if (Array.isArray(value) && isRecord(schema.items)) return value.every((v) => matchesSchema(schema.items, v, root));
  return true;
}

/** rjsf's validator: no errors of its own (they come from the bridge), structural isValid. */
export const configFormValidator: ValidatorType<unknown, RJSFSchema> = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema, formData, rootSchema) => matchesSchema(schema as Schema, formData, rootSchema as Schema),
  rawValidation: () => ({ errors: [] }),
};
