/**
 * What an engine returned from each lifecycle call, checked against the contract before the host reads it.
 *
 * Two kinds of problem, because OpenClaw reads some results and ignores others:
 * - `breaking`: the host reads this value (assemble's messages and system prompt addition, compact's result)
 *   and cannot use it. The call is a contract failure of that lane: the engine is
 *   quarantined with the operation and this reason (the JSON path of what is wrong), the other lanes go on.
 * - `notes`: the value breaks the contract, but OpenClaw never reads it (assemble's `estimatedTokens`, the results
 *   of ingest, ingestBatch, bootstrap and maintain). The lane goes on as OpenClaw's would; the replay reports a
 *   finding with the path.
 * A result-object method that returned `undefined` is not checked here (the replay's void-result finding), nor
 * commitTurn's status (OpenClaw itself answers an invalid one: the advancement stays queued).
 */
import { isRecord } from '../common/guards';
import { describeAssembleMessagesProblem, describeResultValue } from './validateAssembleResult';

export interface EngineResultCheck {
  /** why the host cannot use the result (quarantine), or undefined */
  breaking?: string;
  /** contract problems of fields OpenClaw ignores (findings only) */
  notes: string[];
}

const OK: EngineResultCheck = { notes: [] };

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** `path is <value>, expected <what>` for the first field of `checks` that fails, or undefined. */
function firstProblem(
  record: Record<string, unknown>,
  checks: readonly [field: string, optional: boolean, test: (v: unknown) => boolean, expected: string][],
  prefix = '',
): string | undefined {
  for (const [field, optional, test, expected] of checks) {
    const value = record[field];
    if (optional && value === undefined) continue;
    if (!test(value)) return `${prefix}${field} is ${describeResultValue(value)}, expected ${expected}`;
  }
  return undefined;
}

const isBoolean = (v: unknown) => typeof v === 'boolean';
const isString = (v: unknown) => typeof v === 'string';

function checkAssemble(value: unknown): EngineResultCheck {
  // not an object, or no messages array: OpenClaw's own ensureAssembleResultShape case (the host sends the
  // pipeline messages; handled by the assemble step, no quarantine)
  if (!isRecord(value) || !Array.isArray(value.messages)) return OK;
  const breaking =
    describeAssembleMessagesProblem(value.messages) ??
    firstProblem(value, [['systemPromptAddition', true, isString, 'a string']]);
  const notes: string[] = [];
  if (!isCount(value.estimatedTokens)) {
    notes.push(`estimatedTokens is ${describeResultValue(value.estimatedTokens)}, expected a finite number ≥ 0`);
  }
  return { ...(breaking ? { breaking } : {}), notes };
}

function checkCompact(value: unknown): EngineResultCheck {
  if (!isRecord(value)) {
    return { breaking: `the result is ${describeResultValue(value)}, expected {ok, compacted, result?}`, notes: [] };
  }
  const top = firstProblem(value, [
    ['ok', false, isBoolean, 'a boolean'],
    ['compacted', false, isBoolean, 'a boolean'],
    ['result', true, isRecord, 'an object'],
  ]);
  if (top) return { breaking: top, notes: [] };
  const notes = value.reason !== undefined && !isString(value.reason) ? [reasonNote(value.reason)] : [];
  if (!isRecord(value.result)) return { notes };
  const inner = firstProblem(
    value.result,
    [
      ['tokensBefore', true, isCount, 'a finite number ≥ 0'],
      ['tokensAfter', true, isCount, 'a finite number ≥ 0'],
      ['summary', true, isString, 'a string'],
      ['firstKeptEntryId', true, isString, 'a string'],
      ['sessionId', true, isString, 'a string'],
      ['sessionFile', true, isString, 'a string'],
    ],
    'result.',
  );
  return { ...(inner ? { breaking: inner } : {}), notes };
}

function reasonNote(reason: unknown): string {
  return `reason is ${describeResultValue(reason)}, expected a string`;
}

/** Results OpenClaw never reads: each problem is a note (a finding), never a quarantine. */
const IGNORED_RESULT_FIELDS: Record<string, readonly [string, boolean, (v: unknown) => boolean, string][]> = {
  ingest: [['ingested', false, isBoolean, 'a boolean']],
  ingestBatch: [['ingestedCount', false, isCount, 'a finite number ≥ 0']],
  bootstrap: [
    ['bootstrapped', false, isBoolean, 'a boolean'],
    ['importedMessages', true, isCount, 'a finite number ≥ 0'],
    ['reason', true, isString, 'a string'],
  ],
  maintain: [
    ['changed', false, isBoolean, 'a boolean'],
    ['bytesFreed', false, isCount, 'a finite number ≥ 0'],
    ['rewrittenEntries', false, isCount, 'a finite number ≥ 0'],
    ['reason', true, isString, 'a string'],
  ],
};

function checkIgnored(method: string, value: unknown): EngineResultCheck {
  const fields = IGNORED_RESULT_FIELDS[method];
  if (!fields || value === undefined) return OK;
  if (!isRecord(value)) return { notes: [`the result is ${describeResultValue(value)}, expected an object`] };
  const problem = firstProblem(value, fields);
  return { notes: problem ? [problem] : [] };
}

/** Check what `method` returned (`value`); see the module comment for breaking problems and notes. */
export function checkEngineResult(method: string, value: unknown): EngineResultCheck {
  switch (method) {
    case 'assemble':
      return checkAssemble(value);
    case 'compact':
      return checkCompact(value);
    default:
      return checkIgnored(method, value);
  }
}
