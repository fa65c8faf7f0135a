/**
 * The per-runtime quarantine table (behaviour §4.4): one record per engine id, the first failure wins, and every new
 * record produces OpenClaw's exact error log line plus a structured event.
 */
import type { ContextEngineQuarantine } from '../contract';
import { sanitizeForLog } from './sanitizeForLog';
import { errorMessage } from '../common/errorText';

/** The slot id of the default engine every quarantine falls back to. */
export const DEFAULT_CONTEXT_ENGINE_ID = 'legacy';

/** One failure to record. */
export interface QuarantineInput {
  engineId: string;
  owner?: string;
  operation: string;
  /** the thrown value (its message becomes the reason) or a reason string */
  error: unknown;
  failedAt?: Date;
}

/** `error.message` for Errors, `String(error)` otherwise (behaviour §4.4; a plain `{message}` object gives "[object Object]"). */
export function describeQuarantineReason(error: unknown): string {
  return errorMessage(error);
}

/** The exact `console.error` line OpenClaw prints when it quarantines an engine. */
export function formatQuarantineLogLine(
  record: Pick<ContextEngineQuarantine, 'engineId' | 'owner' | 'operation' | 'reason'>,
): string {
  const owner = record.owner ? ` owner=${sanitizeForLog(record.owner)}` : '';
  return (
    `[context-engine] Context engine "${sanitizeForLog(record.engineId)}"${owner} failed during ` +
    `${sanitizeForLog(record.operation)}: ${sanitizeForLog(record.reason)}; quarantining it for this process ` +
    `and falling back to default engine "${DEFAULT_CONTEXT_ENGINE_ID}".`
  );
}

/** Side effects of a new quarantine record (logging, events). */
export interface QuarantineStoreHooks {
  /** called once per new record, with the formatted log line */
  onQuarantine(record: ContextEngineQuarantine, logLine: string): void;
}

/** Quarantine records keyed by engine id, in insertion order. */
export class QuarantineStore {
  private readonly records = new Map<string, ContextEngineQuarantine>();

  constructor(private readonly hooks: QuarantineStoreHooks) {}

  /** Record a failure unless the engine is already quarantined; returns the record in force. */
  quarantine(input: QuarantineInput): ContextEngineQuarantine {
    const existing = this.records.get(input.engineId);
    if (existing) return existing;
    const record: ContextEngineQuarantine = {
      engineId: input.engineId,
      ...(input.owner ? { owner: input.owner } : {}),
      operation: input.operation,
      reason: describeQuarantineReason(input.error),
      failedAt: input.failedAt ?? new Date(),
    };
    this.records.set(record.engineId, record);
    this.hooks.onQuarantine(record, formatQuarantineLogLine(record));
    return record;
  }

  has(engineId: string): boolean {
    return this.records.has(engineId);
  }

  get(engineId: string): ContextEngineQuarantine | undefined {
    const record = this.records.get(engineId);
    return record ? copyRecord(record) : undefined;
  }

  clear(engineId: string): boolean {
    return this.records.delete(engineId);
  }

  list(): ContextEngineQuarantine[] {
    return [...this.records.values()].map(copyRecord);
  }
}

function copyRecord(record: ContextEngineQuarantine): ContextEngineQuarantine {
  return { ...record, failedAt: new Date(record.failedAt.getTime()) };
}
