import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';

// ajv and ajv-formats are CommonJS; depending on the loader the class arrives as the module or as `.default`.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export interface SchemaProblem {
  /** JSON pointer to the offending value ('' = the whole value). */
  path: string;
  message: string;
}

export type CompiledValidator = (value: unknown) => SchemaProblem | null;

// Validation never changes the value (no defaults, no coercion): results must not differ between dev and production.
let sharedAjv: InstanceType<typeof AjvModule> | undefined;
const compiled = new WeakMap<TSchema, CompiledValidator>();

/**
 * Returns a compile function backed by one process-wide ajv instance; each schema object is compiled once and the
 * validator reused (dispatchers are created per shell, per window and per test — compiling is the expensive part).
 */
export function createSchemaCompiler(): (schema: TSchema) => CompiledValidator {
  sharedAjv ??= addFormats(new Ajv({ allErrors: false, strict: true, useDefaults: false, coerceTypes: false }));
  const ajv = sharedAjv;
  return (schema) => {
    const cached = compiled.get(schema);
    if (cached) return cached;
    const validate: ValidateFunction = ajv.compile(schema);
    const check: CompiledValidator = (value) => (validate(value) ? null : describeSchemaErrors(validate.errors ?? []));
    compiled.set(schema, check);
    return check;
  };
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Turns ajv's errors into one problem a person can act on: the deepest location, with the property name for
 * missing/unexpected properties and the allowed values for a union of literals.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[]): SchemaProblem {
  if (errors.length === 0) return { path: '', message: 'value does not match the schema' };
  const located = errors.map((error) => locate(error));
  const deepest = located.reduce((best, candidate) => (depth(candidate.path) > depth(best.path) ? candidate : best));
  const samePath = located.filter((entry) => entry.path === deepest.path);
  const allowed = samePath
    .filter((entry) => entry.error.keyword === 'const')
    .map((entry) => entry.error.params.allowedValue);
  if (allowed.length > 1) {
    return {
      path: deepest.path,
      message: `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`,
    };
  }
  const specific =
    samePath.find((entry) => entry.error.keyword !== 'anyOf' && entry.error.keyword !== 'oneOf') ?? deepest;
  return { path: specific.path, message: specific.message };
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

function locate(error: ErrorObject): { path: string; message: string; error: ErrorObject } {
  if (error.keyword === 'required') {
    const property = String(error.params.missingProperty);
    return {
      path: `${error.instancePath}/${escapePointerToken(property)}`,
      message: `required property "${property}" is missing`,
      error,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const property = String(error.params.additionalProperty);
    return {
      path: `${error.instancePath}/${escapePointerToken(property)}`,
      message: `unexpected property "${property}"`,
      error,
    };
  }
  return { path: error.instancePath, message: error.message ?? `fails "${error.keyword}"`, error };
}
