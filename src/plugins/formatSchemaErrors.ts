/**
 * Turns ajv errors into one line per offending location, as a JSON pointer plus what is wrong:
 * `/budgetShare: must be <= 1`, `/apiKey: is required`, `/kind: must be one of "context-engine", "memory"`.
 */
import AjvModule, { type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS; depending on the loader the class arrives as the module or as `.default`.
const AjvClass = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type AjvInstance = InstanceType<typeof AjvClass>;

export function createAjv(options: Options): AjvInstance {
  const ajv = new AjvClass(options);
  addFormats(ajv);
  return ajv;
}

export interface SchemaViolation {
  /** JSON pointer ('/' for the whole value) */
  path: string;
  message: string;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** preference when several errors land on the same path (lower wins) */
const KEYWORD_RANK: Record<string, number> = {
  required: 0,
  additionalProperties: 0,
  enum: 1,
  const: 1,
  type: 3,
  anyOf: 9,
  oneOf: 9,
};

function locate(error: ErrorObject): SchemaViolation & { rank: number } {
  const base = error.instancePath;
  switch (error.keyword) {
    case 'required':
      return { path: `${base}/${escapeToken(String(error.params.missingProperty))}`, message: 'is required', rank: 0 };
    case 'additionalProperties':
      return {
        path: `${base}/${escapeToken(String(error.params.additionalProperty))}`,
        message: 'is not allowed (the schema does not define this property and has additionalProperties: false)',
        rank: 0,
      };
    case 'enum':
      return {
        path: base || '/',
        message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        rank: 1,
      };
    case 'const':
      return { path: base || '/', message: `must be ${JSON.stringify(error.params.allowedValue)}`, rank: 1 };
    default:
      return {
        path: base || '/',
        message: error.message ?? `fails "${error.keyword}"`,
        rank: KEYWORD_RANK[error.keyword] ?? 2,
      };
  }
}

export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaViolation[] {
  const best = new Map<string, SchemaViolation & { rank: number }>();
  const extra: SchemaViolation[] = [];
  for (const error of errors ?? []) {
    const located = locate(error);
    if (located.rank === 0) {
      // every missing/unexpected property is its own finding
      extra.push({ path: located.path, message: located.message });
      continue;
    }
    const current = best.get(located.path);
    if (!current || located.rank < current.rank) best.set(located.path, located);
  }
  // a union that failed deeper in one branch reports that branch, not "must be string" for the other
  const paths = [...best.keys(), ...extra.map((v) => v.path)];
  const hasDeeper = (path: string) =>
    paths.some((other) => other !== path && other.startsWith(path === '/' ? '/' : `${path}/`));
  const located = [...best.values()].filter((v) => !(v.rank >= 3 && hasDeeper(v.path)));
  const combined = [...extra, ...located.map(({ path, message }) => ({ path, message }))];
  const seen = new Set<string>();
  return combined.filter((v) => {
    const key = `${v.path}\u0000${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function violationText(violation: SchemaViolation): string {
  return `${violation.path}: ${violation.message}`;
}
