/**
 * Re-import an exported Recording: parse, validate against `RecordingSchema` with ajv, and report every problem
 * with a JSON path (`$.turns.legacy[3].assembled[0].key`) so a person can find it in the file.
 */
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  RECORDING_SCHEMA_VERSION,
  RecordingFileSchema,
  RecordingSchema,
  type Recording,
} from '../../contract/recording';
import { errorMessage } from '../../common/errorText';
import { ListDeltaError, type EncodedTurnRecord } from '../../view/listDelta';
import { decodeSharedLaneTurns } from '../../view/sharedTurnLists';
import { RECORDING_FILE_VERSION } from './exportRecording';

/** File versions this build reads: 1 (every list in full) and 2 (lists as deltas against the previous turn). */
const READABLE_VERSIONS = [RECORDING_SCHEMA_VERSION, RECORDING_FILE_VERSION];

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

const validators = new Map<object, ValidateFunction>();
function getValidator(schema: object = RecordingSchema): ValidateFunction {
  let validator = validators.get(schema);
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validators.set(schema, (validator = ajv.compile(schema)));
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

/**
 * A parsed document with its turns' list deltas applied and `schemaVersion` set to the in-memory schema's (the
 * decoded shape of both file versions is schema v1). Turns that are not lists are left to the schema check.
 */
function decodeRecordingTurns(document: Record<string, unknown>, source: string): Record<string, unknown> {
  const turns = document.turns;
  if (!turns || typeof turns !== 'object' || Array.isArray(turns)) return document;
  const decoded: Record<string, unknown> = {};
  for (const [lane, records] of Object.entries(turns as Record<string, unknown>)) {
    if (!Array.isArray(records)) {
      decoded[lane] = records;
      continue;
    }
    const where = jsonPointerToPath(`/turns/${lane.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    try {
      decoded[lane] = decodeSharedLaneTurns(records as EncodedTurnRecord[], where);
    } catch (error) {
      if (!(error instanceof ListDeltaError)) throw error;
      throw new RecordingImportError(`${source} cannot be imported: ${error.message}.`, [
        { path: where, message: error.message },
      ]);
    }
  }
  return { ...document, schemaVersion: RECORDING_SCHEMA_VERSION, turns: decoded };
}

/** Validate an already-parsed value; returns the issues (empty when valid). */
export function validateRecording(value: unknown, schema: object = RecordingSchema): RecordingValidationIssue[] {
  const validate = getValidator(schema);
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
  if (value && typeof value === 'object' && !READABLE_VERSIONS.includes(version as number)) {
    const issue = {
      path: '$.schemaVersion',
      message: `is ${JSON.stringify(version)}; this ContextScope reads schemaVersion ${READABLE_VERSIONS.join(' and ')}`,
    };
    throw new RecordingImportError(
      `${source} cannot be imported: ${issue.path} ${issue.message}. Re-export it with a matching ContextScope version.`,
      [issue],
    );
  }
  // checked as written (deltas and all: the cost of the file, not of its decoded turns), then decoded
  const issues = validateRecording(value, RecordingFileSchema);
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
  return decodeRecordingTurns(value as Record<string, unknown>, source) as unknown as Recording;
}
