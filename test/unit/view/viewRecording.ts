/**
 * Hand-written Recordings for the view-model tests: a session of messages by key (u… user, a… assistant,
 * t… tool result), lanes whose turns list what they assembled, and the omitted ranges worked out the way the
 * replay records them (what a turn does not keep of its history is summarized where the test says so, else
 * dropped). Typed against the contract, so a schema change breaks these tests in tsc.
 */
import type {
  AssembledRef,
  LaneRecord,
  MessageRecord,
  Recording,
  ReplayEvent,
  TurnRecord,
} from '../../../src/contract/recording';

export type RefSpec =
  | string
  | { raw: string }
  | { modified: string; key: string; text: string }
  | { summary: string; text?: string; covers?: [number, number][]; coversKeys?: string[] }
  | { synthetic: string; text: string; customType?: string; role?: string };

export interface TurnSpec {
  history: number;
  assembled: RefSpec[];
  /** ranges of the history the lane summarized (the rest of what it did not keep is dropped) */
  summarized?: [number, number][];
  systemPromptAddition?: string | null;
  events?: ReplayEvent[];
  engine?: Partial<TurnRecord['engine']>;
}

function roleOf(key: string): string {
  return key.startsWith('u') ? 'user' : key.startsWith('t') ? 'toolResult' : 'assistant';
}

function messageFor(key: string, role: string, text: string, extra: Record<string, unknown> = {}): MessageRecord {
  const message =
    role === 'compactionSummary'
      ? { role, summary: text, tokensBefore: 100, timestamp: 1 }
      : role === 'toolResult'
        ? { role, toolCallId: `c-${key}`, toolName: 'exec', content: [{ type: 'text', text }], isError: false }
        : { role, content: text, ...extra };
  const tokens = Math.max(1, Math.ceil(text.length / 4));
  return { role, message: message as MessageRecord['message'], estTokens: tokens, tiktokenTokens: tokens + 1 };
}

export class ViewRecording {
  readonly messages: Record<string, MessageRecord> = {};
  readonly lanes: LaneRecord[] = [];
  readonly turns: Record<string, TurnRecord[]> = {};
  readonly events: ReplayEvent[] = [];

  constructor(
    readonly keys: string[],
    readonly sessionId = 'sess-1',
  ) {
    for (const key of keys) this.messages[key] = { ...messageFor(key, roleOf(key), `text of ${key}`), entryId: key };
  }

  private refFor(spec: RefSpec): AssembledRef {
    const t = (key: string) => ({
      estTokens: this.messages[key]!.estTokens,
      tiktokenTokens: this.messages[key]!.tiktokenTokens,
    });
    if (typeof spec === 'string' || 'raw' in spec) {
      const key = typeof spec === 'string' ? spec : spec.raw;
      return { key, provenance: 'raw', ...t(key) };
    }
    if ('modified' in spec) {
      this.messages[spec.key] = messageFor(spec.key, roleOf(spec.modified), spec.text);
      return { key: spec.key, provenance: 'modified', sourceKey: spec.modified, ...t(spec.key) };
    }
    if ('summary' in spec) {
      if (!this.messages[spec.summary]) {
        this.messages[spec.summary] = {
          ...messageFor(spec.summary, 'compactionSummary', spec.text ?? `summary ${spec.summary}`),
          ...(spec.covers ? { covers: { sessionId: this.sessionId, ranges: spec.covers } } : {}),
        };
      }
      return {
        key: spec.summary,
        provenance: 'summary',
        ...t(spec.summary),
        ...(spec.coversKeys ? { coversKeys: spec.coversKeys } : {}),
      };
    }
    this.messages[spec.synthetic] = messageFor(spec.synthetic, spec.role ?? 'custom', spec.text, {
      ...(spec.customType ? { customType: spec.customType } : {}),
    });
    return { key: spec.synthetic, provenance: 'synthetic', ...t(spec.synthetic) };
  }

  private turnRecord(laneId: string, turn: number, spec: TurnSpec): TurnRecord {
    const assembled = spec.assembled.map((s) => this.refFor(s));
    const kept = new Set<number>();
    for (const ref of assembled) {
      const source = ref.provenance === 'modified' ? ref.sourceKey! : ref.key;
      const i = this.keys.indexOf(source);
      if (i >= 0 && i < spec.history && ref.provenance !== 'synthetic') kept.add(i);
    }
    const summarized = spec.summarized ?? [];
    const inSummarized = (i: number) => summarized.some(([a, b]) => i >= a && i < b);
    const dropped: [number, number][] = [];
    let droppedCount = 0;
    for (let i = 0; i < spec.history; i++) {
      if (kept.has(i) || inSummarized(i)) continue;
      droppedCount++;
      const last = dropped[dropped.length - 1];
      if (last && last[1] === i) last[1] = i + 1;
      else dropped.push([i, i + 1]);
    }
    const summarizedCount = summarized.reduce((n, [a, b]) => n + (b - a), 0);
    const sum = (f: (r: AssembledRef) => number) => assembled.reduce((n, r) => n + f(r), 0);
    return {
      lane: laneId,
      turn,
      userEntryId: null,
      promptKey: this.keys[spec.history] ?? this.keys[0]!,
      status: 'ok',
      engine: { requestedId: laneId, engineId: laneId, quarantined: false, ownsCompaction: false, ...spec.engine },
      budget: {
        contextWindow: 32_000,
        reserveTokens: 20_000,
        promptBudget: 12_000,
        tokenBudget: 11_900,
        renderedPromptTokens: 100,
      },
      historyCount: spec.history,
      inputCount: spec.history,
      pipelineRemoved: 0,
      assemblySucceeded: true,
      assembled,
      totals: { estTokens: sum((r) => r.estTokens), tiktokenTokens: sum((r) => r.tiktokenTokens), precheckTokens: 0 },
      omitted: { dropped, summarized, droppedCount, summarizedCount, keptCount: kept.size },
      estimatedTokens: sum((r) => r.estTokens),
      systemPromptAddition: spec.systemPromptAddition ?? null,
      promptAuthority: null,
      precheck: {
        skipped: false,
        estimatedTokens: 0,
        pressureSource: 'assembled',
        promptBudgetBeforeReserve: 12_000,
        effectiveReserveTokens: 20_000,
        overflowTokens: 0,
        reducibleToolResultChars: 0,
        route: 'fits',
        shouldCompact: false,
      },
      attempts: 1,
      calls: [],
      events: spec.events ?? [],
      newMessageKeys: [],
    };
  }

  lane(id: string, turns: TurnSpec[]): this {
    this.lanes.push({
      id,
      label: id,
      spec: id === 'legacy' ? 'legacy' : `plugin:${id}`,
      source: id === 'legacy' ? 'legacy' : 'plugin',
      requestedEngineId: id,
      contextWindow: 32_000,
      reserveTokens: 20_000,
      keepRecentTokens: 20_000,
      host: { id: 'openclaw-embedded', label: 'embedded', capabilities: [] },
      sessionId: this.sessionId,
      sessionKey: null,
      turnCount: turns.length,
    });
    this.turns[id] = turns.map((spec, turn) => this.turnRecord(id, turn, spec));
    return this;
  }

  build(): Recording {
    return {
      schemaVersion: 1,
      createdAt: '2026-12-01T00:00:00.000Z',
      generator: { name: 'contextscope', version: 'test' },
      session: {
        sessionId: this.sessionId,
        path: null,
        cwd: null,
        startedAt: null,
        entryCount: this.keys.length,
        messageKeys: this.keys,
        turnStarts: [],
        recordedCompactions: [],
        problems: [],
      },
      childSessions: {},
      options: {
        honourRecordedCompactions: false,
        checkDeterminism: false,
        driftThreshold: 0.5,
        systemPrompt: '',
        transcriptFiles: 'none',
      },
      lanes: this.lanes,
      messages: this.messages,
      turns: this.turns,
      events: this.events,
      findings: [],
      stats: { wallMs: 1, tokenizer: { hits: 0, misses: 0 } },
    };
  }
}

export const quarantineEvent = (lane: string, turn: number, operation = 'assemble', reason = 'boom'): ReplayEvent => ({
  type: 'quarantine',
  lane,
  turn,
  seq: 1,
  engineId: lane,
  owner: `plugin:${lane}`,
  operation,
  reason,
  failedAt: 1,
});
