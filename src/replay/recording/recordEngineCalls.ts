/**
 * Every call the simulated host makes into a lane's engine goes through here and is recorded: method, timing,
 * outcome. The recorder sits outside the runtime's wrappers (the runtime stays unaware of it), so it sees what
 * the host sees; it also notices when the runtime quarantined the engine *during* the call and answered with
 * the legacy fallback, and records the engine's true outcome (error + reason) next to what the host got.
 */
import { checkEngineResult, type ContextEngine } from '../../contract';
import type { EngineCall } from '../../contract/recording';
import { errorMessage } from '../../common/errorText';

export type EngineMethod =
  | 'bootstrap'
  | 'maintain'
  | 'ingest'
  | 'ingestBatch'
  | 'afterTurn'
  | 'assemble'
  | 'compact'
  | 'prepareSubagentSpawn'
  | 'onSubagentEnded'
  | 'commitTurn'
  | 'dispose';

/** Methods for which OpenClaw specifies a result object (a `void` return is a finding). */
const RESULT_OBJECT_METHODS: ReadonlySet<EngineMethod> = new Set(['bootstrap', 'ingest', 'ingestBatch', 'maintain']);

export type CallOutcome<T> = { ok: true; value: T; fellBack: boolean } | { ok: false; error: unknown; message: string };

export interface EngineCallSink {
  /** ms since the replay started */
  now(): number;
  /** attempt number the call belongs to */
  attempt(): number;
  /** a monotonically increasing count of quarantines recorded for this lane */
  quarantineMark(): number;
  /** quarantines recorded after `mark` (operation + reason) */
  quarantinesSince(mark: number): { operation: string; reason: string }[];
  record(call: EngineCall): void;
  /** a result-object method returned undefined */
  voidResult(method: EngineMethod): void;
  /** a result broke the contract in a field OpenClaw ignores (a finding; the call counts as ok) */
  invalidResult(method: EngineMethod, problem: string): void;
}

/** Quarantines the engine for a result the host cannot use (the lane's runtime; see src/replay/lane). */
export type ContractFailureHandler = (method: EngineMethod, reason: string) => void;

const RESULT_TYPE_NAMES: Partial<Record<EngineMethod, string>> = {
  assemble: 'AssembleResult',
  compact: 'CompactResult',
};

/** `assemble() returned an invalid AssembleResult: <problem>`. */
export function invalidResultReason(method: EngineMethod, problem: string): string {
  return `${method}() returned an invalid ${RESULT_TYPE_NAMES[method] ?? 'result'}: ${problem}`;
}

export class RecordedEngine {
  /**
   * `onContractFailure` quarantines the engine when a result breaks the contract where the host reads it; results
   * are checked only when it is given (not for the built-in legacy engine)
   */
  constructor(
    readonly engine: ContextEngine,
    private readonly onContractFailure?: ContractFailureHandler,
  ) {}

  /** The engine's live `info` (the fallback's once quarantined). */
  get info(): ContextEngine['info'] {
    return this.engine.info;
  }

  has(method: EngineMethod): boolean {
    return typeof (this.engine as unknown as Record<string, unknown>)[method] === 'function';
  }

  /**
   * Call `method` (which must exist) and record it into `sink` (the turn the call belongs to); never throws —
   * the outcome says what happened.
   */
  async call<T>(sink: EngineCallSink, method: EngineMethod, params: unknown, note?: string): Promise<CallOutcome<T>> {
    const fn = (this.engine as unknown as Record<string, unknown>)[method] as (p?: unknown) => Promise<T>;
    const mark = sink.quarantineMark();
    const startedAtMs = sink.now();
    const started = performance.now();
    let outcome: CallOutcome<T>;
    try {
      const value = await (method === 'dispose' ? fn.call(this.engine) : fn.call(this.engine, params));
      const quarantined = sink.quarantinesSince(mark).find((q) => q.operation === method);
      // without a handler the engine is the built-in legacy one (its results are the host's own): not checked
      if (!quarantined && this.onContractFailure) {
        const check = checkEngineResult(method, value);
        for (const note of check.notes) sink.invalidResult(method, note);
        if (check.breaking !== undefined) {
          const reason = invalidResultReason(method, check.breaking);
          this.onContractFailure?.(method, reason);
          throw new Error(reason);
        }
      }
      outcome = { ok: true, value, fellBack: quarantined !== undefined };
      const call: EngineCall = {
        method,
        attempt: sink.attempt(),
        startedAtMs,
        durationMs: performance.now() - started,
        outcome: quarantined ? 'error' : 'ok',
      };
      if (quarantined) {
        call.error = quarantined.reason;
        call.fellBack = true;
      }
      if (note) call.note = note;
      sink.record(call);
      if (!quarantined && value === undefined && RESULT_OBJECT_METHODS.has(method)) sink.voidResult(method);
    } catch (error) {
      const message = errorMessage(error);
      outcome = { ok: false, error, message };
      const call: EngineCall = {
        method,
        attempt: sink.attempt(),
        startedAtMs,
        durationMs: performance.now() - started,
        outcome: 'error',
        error: message,
      };
      if (note) call.note = note;
      sink.record(call);
    }
    return outcome;
  }
}
