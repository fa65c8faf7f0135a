/**
 * The mutable record of one lane turn while it runs: engine calls, events, and the raw facts the findings are
 * computed from. `finalizeTurn` turns it into the TurnRecord stored in the Recording.
 */
import type { EngineCallSink, EngineMethod } from './recordEngineCalls';
import type { CompactionOutcome } from './compactionOutcome';
import type { EngineCall, ProviderCheck, ReplayEvent } from '../../contract/recording';

/** A quarantine as the lane's runtime reported it, in order (shared by a lane and its subagent lanes). */
export interface QuarantineLogEntry {
  engineId: string;
  owner?: string;
  operation: string;
  reason: string;
  failedAt: number;
}

/** Distributes `Omit` over the event union. */
export type EventInput = ReplayEvent extends infer E
  ? E extends ReplayEvent
    ? Omit<E, 'lane' | 'turn' | 'seq'>
    : never
  : never;

export interface DraftClock {
  /** ms since the replay started */
  now(): number;
  nextSeq(): number;
}

export class TurnDraft implements EngineCallSink {
  readonly calls: EngineCall[] = [];
  readonly events: ReplayEvent[] = [];
  readonly voidResults: EngineMethod[] = [];
  /** contract problems of result fields OpenClaw ignores (`method`: what the engine returned) */
  readonly invalidResults: { method: EngineMethod; problem: string }[] = [];
  readonly quarantines: QuarantineLogEntry[] = [];
  readonly compactions: CompactionOutcome[] = [];
  /** whether the provider overflowed, per attempt that reached it, and which source decided */
  readonly providerChecks: ProviderCheck[] = [];
  attemptNo = 0;
  /** message keys of the first and second assemble of the same params (checkDeterminism) */
  determinism?: { first: string[]; second: string[] };

  constructor(
    private readonly clock: DraftClock,
    readonly lane: string,
    /** null for events outside any turn (lane setup, end of replay) */
    readonly turn: number | null,
    private readonly quarantineLog: QuarantineLogEntry[],
  ) {}

  now(): number {
    return this.clock.now();
  }

  attempt(): number {
    return this.attemptNo;
  }

  quarantineMark(): number {
    return this.quarantineLog.length;
  }

  quarantinesSince(mark: number): { operation: string; reason: string }[] {
    return this.quarantineLog.slice(mark);
  }

  record(call: EngineCall): void {
    this.calls.push(call);
  }

  voidResult(method: EngineMethod): void {
    this.voidResults.push(method);
  }

  invalidResult(method: EngineMethod, problem: string): void {
    this.invalidResults.push({ method, problem });
  }

  /** Add an event stamped with this draft's lane, turn and the next sequence number. */
  addEvent(event: EventInput): ReplayEvent {
    const stamped = { ...event, lane: this.lane, turn: this.turn, seq: this.clock.nextSeq() } as ReplayEvent;
    this.events.push(stamped);
    return stamped;
  }

  warn(message: string): void {
    this.addEvent({ type: 'warning', message });
  }
}
