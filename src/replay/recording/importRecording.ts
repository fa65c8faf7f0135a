/**
 * Re-import an exported Recording: parse, validate against `RecordingSchema` with ajv, and report every problem
 * with a JSON path (`$.turns.legacy[3].assembled[0].key`) so a person can find it in the file.
 */
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import { RECORDING_SCHEMA_VERSION, RecordingSchema, type Recording } from '../../contract/recording';
import { errorMessage } from '../../common/errorText';

export interface RecordingValidationIssue {
  /** JSON path of the offending value, `$` for the document itself */
  path: string;
  message: string;
}

export class RecordingImportError extends Error {
  readonly code = 'recording_invalid';
  constructor(
    message: string,
    readonly issues: RecordingValidationIssue[],
  ) {
    super(message);
    this.name = 'RecordingImportError';
  }
}

// ajv is CommonJS; depending on the loader the class arrives as the module or as `.default`.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;

let validator: ValidateFunction | undefined;
function getValidator(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validator = ajv.compile(RecordingSchema);
  }
  return validator;
}

/** `/turns/legacy/3/key` → `$.turns.legacy[3].key` (keys that are not identifiers are quoted). */
export function jsonPointerToPath(pointer: string): string {
  if (!pointer) return '$';
  let path = '$';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) path += `.${part}`;
    else path += `[${JSON.stringify(part)}]`;
  }
  return path;
}

function describeIssue(error: ErrorObject): RecordingValidationIssue {
  let path = jsonPointerToPath(error.instancePath);
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    message = `has an unknown property "${extra}"`;
  } else if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    message = `is missing the required property "${missing}"`;
  } else if (error.keyword === 'const' || error.keyword === 'enum') {
    const allowed = (error.params as { allowedValue?: unknown; allowedValues?: unknown[] }).allowedValue;
    if (allowed !== undefined) message = `must be ${JSON.stringify(allowed)}`;
  }
  if (path === '') path = '$';
  return { path, message };
}

/**
 * ajv reports a failed union (`anyOf`) as errors from every branch. For the discriminated unions of this schema
 * (events), only the branch whose `type` matched is useful to a person: drop the errors of branches that failed
 * on their `type` literal, unless every branch did (then the `type` itself is wrong and that is reported).
 */
function pruneUnionNoise(errors: ErrorObject[]): ErrorObject[] {
  const branchOf = (schemaPath: string): string | undefined => /^(.*\/anyOf\/\d+)\//.exec(schemaPath)?.[1];
  const typeMismatchBranches = new Set<string>();
  for (const error of errors) {
    const branch = branchOf(error.schemaPath);
    if (branch && error.keyword === 'const' && error.instancePath.endsWith('/type')) typeMismatchBranches.add(branch);
  }
  return errors.filter((error) => {
    const branch = branchOf(error.schemaPath);
    if (error.keyword === 'anyOf') {
      // keep the union failure only when no branch matched its type (nothing more specific to show)
      const branches = errors.filter((e) => e.instancePath.startsWith(error.instancePath) && branchOf(e.schemaPath));
      return branches.every((e) => typeMismatchBranches.has(branchOf(e.schemaPath)!));
    }
    if (!branch) return true;
    return !typeMismatchBranches.has(branch);
  });
}

function dedupe(issues: RecordingValidationIssue[]): RecordingValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const id = `${issue.path} ${issue.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Validate an already-parsed value; returns the issues (empty when valid). */
export function validateRecording(value: unknown): RecordingValidationIssue[] {
  const validate = getValidator();
  if (validate(value)) return [];
  return dedupe(pruneUnionNoise(validate.errors ?? []).map(describeIssue));
}

/**
 * Parse (when given a string) and validate a Recording. Throws `RecordingImportError` listing up to 20 issues
 * with their JSON paths; the full list is on `error.issues`.
 */
export function importRecording(json: string | unknown, source = 'recording'): Recording {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      const reason = errorMessage(error);
      throw new RecordingImportError(`${source} is not valid JSON: ${reason}`, [{ path: '$', message: reason }]);
    }
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (value && typeof value === 'object' && version !== RECORDING_SCHEMA_VERSION) {
    const issue = {
      path: '$.schemaVersion',
      message: `is ${JSON.stringify(version)}; this ContextScope reads schemaVersion ${RECORDING_SCHEMA_VERSION}`,
    };
    throw new RecordingImportError(
      `${source} cannot be imported: ${issue.path} ${issue.message}. Re-export it with a matching ContextScope version.`,
      [issue],
    );
  }
  const issues = validateRecording(value);
  if (issues.length > 0) {
    const shown = issues.slice(0, 20).map((i) => `  ${i.path} ${i.message}`);
    const more = issues.length > 20 ? `\n  … and ${issues.length - 20} more` : '';
    throw new RecordingImportError(
      `${source} does not match the Recording schema v${RECORDING_SCHEMA_VERSION} (${issues.length} problem${
        issues.length === 1 ? '' : 's'
      }):\n${shown.join('\n')}${more}`,
      issues,
    );
  }
  return value as Recording;
}
