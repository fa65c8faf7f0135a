/**
 * A plugin's `configSchema` (JSON Schema, compiled with ajv + ajv-formats) and the validation of
 * `plugins.entries.<id>.config` against it: defaults are applied first (as OpenClaw does), then every problem
 * is reported as a JSON path (`/budgetShare: must be <= 1`).
 */
import type { ValidateFunction } from 'ajv';
import { createAjv, formatSchemaErrors, type SchemaViolation } from './formatSchemaErrors';
import { errorMessage } from '../common/errorText';

// Plugin schemas come from third parties: unknown keywords (uiHints-like annotations) must not fail compilation.
const ajv = createAjv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });
const compiledBySource = new Map<string, ValidateFunction>();
const MAX_CACHED = 256;

export type CompiledConfigSchema = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

export function compilePluginConfigSchema(schema: Record<string, unknown>): CompiledConfigSchema {
  let source: string;
  try {
    source = JSON.stringify(schema);
  } catch (error) {
    return { ok: false, error: `configSchema cannot be serialised: ${String(error)}` };
  }
  const cached = compiledBySource.get(source);
  if (cached) return { ok: true, validate: cached };
  try {
    // a copy: ajv keeps a reference and `$id`s would clash across plugins sharing one instance
    const copy = JSON.parse(source) as Record<string, unknown>;
    delete copy.$id;
    const validate = ajv.compile(copy);
    if (compiledBySource.size >= MAX_CACHED) compiledBySource.delete(compiledBySource.keys().next().value as string);
    compiledBySource.set(source, validate);
    return { ok: true, validate };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

export interface PluginConfigValidation {
  /** the config with schema defaults applied (a copy; the input is not modified) */
  config: Record<string, unknown>;
  violations: SchemaViolation[];
}

export function validatePluginConfig(validate: ValidateFunction, config: unknown): PluginConfigValidation {
  const copy = config === undefined ? {} : (structuredClone(config) as unknown);
  const valid = validate(copy);
  const violations = valid ? [] : formatSchemaErrors(validate.errors);
  const asRecord = copy && typeof copy === 'object' && !Array.isArray(copy) ? (copy as Record<string, unknown>) : {};
  return { config: asRecord, violations };
}
