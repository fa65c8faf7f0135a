/**
 * A small hand-made Recording for renderer tests: 3 turns, lanes `legacy` and `recent-window`, with every
 * provenance, a summarized and a dropped range, a compaction, a refused compaction, a quarantine and findings.
 * Typed against the bridge's Recording, so it breaks (in tsc) when the schema changes.
 */
import type {
  AssembledRef,
  LaneRecord,
  MessageRecord,
  Recording,
  ReplayEvent,
  TurnRecord,
} from '../../renderer/src/recordingTypes';

const user = (text: string, timestamp: number): MessageRecord['message'] =>
  ({ role: 'user', content: text, timestamp }) as MessageRecord['message'];

const messages: Record<string, MessageRecord> = {
  u1: {
    role: 'user',
    message: user('Fix the login bug in src/auth.ts', 1),
    estTokens: 10,
    tiktokenTokens: 8,
    entryId: 'u1',
  },
  a1: {
    role: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'Looking at src/auth.ts now.' }],
      timestamp: 2,
    } as MessageRecord['message'],
    estTokens: 20,
    tiktokenTokens: 18,
    entryId: 'a1',
  },
  u2: { role: 'user', message: user('Now run the tests', 3), estTokens: 6, tiktokenTokens: 5, entryId: 'u2' },
  a2: {
    role: 'assistant',
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Run vitest.' },
        { type: 'toolCall', id: 'c1', name: 'exec', arguments: { command: 'npm test' } },
      ],
      timestamp: 4,
    } as MessageRecord['message'],
    estTokens: 30,
    tiktokenTokens: 25,
    entryId: 'a2',
  },
  t2: {
    role: 'toolResult',
    message: {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'exec',
      content: [{ type: 'text', text: 'PASS 12 tests\nFAIL 1 test: login redirects' }],
      isError: false,
      timestamp: 5,
    } as MessageRecord['message'],
    estTokens: 400,
    tiktokenTokens: 380,
    entryId: 't2',
  },
  u3: { role: 'user', message: user('Why does it fail?', 6), estTokens: 5, tiktokenTokens: 5, entryId: 'u3' },
  a3: {
    role: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'The redirect URL is wrong.' }],
      timestamp: 7,
    } as MessageRecord['message'],
    estTokens: 9,
    tiktokenTokens: 8,
    entryId: 'a3',
  },
  s1: {
    role: 'compactionSummary',
    message: {
      role: 'compactionSummary',
      summary: '## Goal\nFix the login bug.',
      tokensBefore: 30,
      timestamp: 5,
    } as MessageRecord['message'],
    estTokens: 12,
    tiktokenTokens: 11,
    covers: { sessionId: 'sess-1', ranges: [[0, 2]] },
  },
  'h:mod': {
    role: 'toolResult',
    message: {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'exec',
      content: [{ type: 'text', text: 'FAIL 1 test: login redirects [truncated]' }],
      isError: false,
      timestamp: 5,
    } as MessageRecord['message'],
    estTokens: 15,
    tiktokenTokens: 14,
  },
  'h:syn': {
    role: 'custom',
    message: {
      role: 'custom',
      customType: 'memory',
      content: 'Relevant memory: prefer integer cents.',
      display: false,
      timestamp: 6,
    } as MessageRecord['message'],
    estTokens: 9,
    tiktokenTokens: 9,
  },
};

const ref = (key: string, provenance: AssembledRef['provenance'], extra: Partial<AssembledRef> = {}): AssembledRef => ({
  key,
  provenance,
  estTokens: messages[key]!.estTokens,
  tiktokenTokens: messages[key]!.tiktokenTokens,
  ...extra,
});

const HOST = {
  id: 'openclaw-embedded',
  label: 'OpenClaw embedded runner',
  capabilities: ['assemble-before-prompt', 'compact'],
};

function lane(id: string, source: LaneRecord['source']): LaneRecord {
  return {
    id,
    label: id,
    spec: source === 'legacy' ? 'legacy' : `plugin:/plugins/${id}`,
    source,
    requestedEngineId: id,
    ...(source === 'plugin' ? { pluginId: id, pluginPath: `/plugins/${id}` } : {}),
    contextWindow: 32_000,
    reserveTokens: 20_000,
    keepRecentTokens: 20_000,
    host: HOST,
    sessionId: 'sess-1',
    sessionKey: 'agent:main:demo',
    turnCount: 3,
  };
}

const TURN_STARTS = [0, 2, 5];
const PROMPTS = ['u1', 'u2', 'u3'];
const NEW_KEYS = [
  ['u1', 'a1'],
  ['u2', 'a2', 't2'],
  ['u3', 'a3'],
];

function turn(laneId: string, index: number, tokenBudget: number, patch: Partial<TurnRecord> = {}): TurnRecord {
  const assembled = patch.assembled ?? [];
  return {
    lane: laneId,
    turn: index,
    userEntryId: PROMPTS[index]!,
    promptKey: PROMPTS[index]!,
    status: 'ok',
    engine: { requestedId: laneId, engineId: laneId, quarantined: false, ownsCompaction: false },
    budget: {
      contextWindow: 32_000,
      reserveTokens: 20_000,
      promptBudget: 12_000,
      tokenBudget,
      renderedPromptTokens: 12_000 - tokenBudget,
    },
    historyCount: TURN_STARTS[index]!,
    inputCount: TURN_STARTS[index]!,
    pipelineRemoved: 0,
    assemblySucceeded: true,
    assembled,
    totals: {
      estTokens: assembled.reduce((sum, r) => sum + r.estTokens, 0),
      tiktokenTokens: assembled.reduce((sum, r) => sum + r.tiktokenTokens, 0),
      precheckTokens: 100,
    },
    omitted: { dropped: [], summarized: [], droppedCount: 0, summarizedCount: 0, keptCount: assembled.length },
    estimatedTokens: laneId === 'legacy' ? 0 : 50,
    systemPromptAddition: null,
    promptAuthority: null,
    precheck: {
      skipped: false,
      estimatedTokens: 100,
      pressureSource: 'assembled',
      promptBudgetBeforeReserve: 12_000,
      effectiveReserveTokens: 20_000,
      overflowTokens: 0,
      reducibleToolResultChars: 0,
      route: 'fits',
      shouldCompact: false,
    },
    attempts: 1,
    calls: [{ method: 'assemble', attempt: 0, startedAtMs: 10 + index, durationMs: 1.25, outcome: 'ok' }],
    events: [],
    newMessageKeys: NEW_KEYS[index]!,
    ...patch,
  };
}

const compaction = (laneId: string, turnIndex: number, seq: number, compacted: boolean): ReplayEvent => ({
  type: 'compaction',
  lane: laneId,
  turn: turnIndex,
  seq,
  trigger: compacted ? 'auto' : 'overflow',
  engineId: compacted ? 'built-in' : laneId,
  ok: true,
  compacted,
  ...(compacted ? {} : { reason: 'nothing to compact' }),
  tokensBefore: compacted ? 900 : null,
  tokensAfter: compacted ? 300 : null,
  summary: compacted ? '## Goal\nFix the login bug.' : null,
  firstKeptEntryId: compacted ? 'u2' : null,
});

export function makeRecording(): Recording {
  return {
    schemaVersion: 1,
    createdAt: '2026-03-01T10:00:00.000Z',
    generator: { name: 'contextscope', version: '0.1.0' },
    session: {
      sessionId: 'sess-1',
      path: '/sessions/sess-1.jsonl',
      cwd: '/work',
      startedAt: '2026-03-01T09:00:00.000Z',
      entryCount: 7,
      messageKeys: ['u1', 'a1', 'u2', 'a2', 't2', 'u3', 'a3'],
      turnStarts: TURN_STARTS,
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
    lanes: [lane('legacy', 'legacy'), lane('recent-window', 'plugin')],
    messages,
    turns: {
      legacy: [
        turn('legacy', 0, 11_946),
        turn('legacy', 1, 11_935, { assembled: [ref('u1', 'raw'), ref('a1', 'raw')] }),
        turn('legacy', 2, 11_937, {
          assembled: [ref('u1', 'raw'), ref('a1', 'raw'), ref('u2', 'raw'), ref('a2', 'raw'), ref('t2', 'raw')],
          events: [compaction('legacy', 2, 3, true)],
        }),
      ],
      'recent-window': [
        turn('recent-window', 0, 11_946),
        turn('recent-window', 1, 11_935, {
          assembled: [ref('u1', 'raw'), ref('a1', 'raw')],
          events: [
            {
              type: 'warning',
              lane: 'recent-window',
              turn: 1,
              seq: 1,
              message: 'context engine assemble returned no estimate',
            },
          ],
        }),
        turn('recent-window', 2, 11_937, {
          status: 'prompt_error',
          error: 'Context overflow: prompt too large for the model (precheck).',
          engine: { requestedId: 'recent-window', engineId: 'legacy', quarantined: true, ownsCompaction: false },
          assembled: [
            ref('s1', 'summary'),
            ref('u2', 'raw'),
            ref('h:mod', 'modified', { sourceKey: 't2' }),
            ref('h:syn', 'synthetic'),
          ],
          omitted: { summarized: [[0, 2]], dropped: [[3, 4]], summarizedCount: 2, droppedCount: 1, keptCount: 2 },
          systemPromptAddition: '## Memory\nrecall with memory_search',
          events: [
            compaction('recent-window', 2, 4, false),
            {
              type: 'quarantine',
              lane: 'recent-window',
              turn: 2,
              seq: 5,
              engineId: 'recent-window',
              owner: 'plugin:recent-window',
              operation: 'assemble',
              reason: 'boom',
              failedAt: 1,
            },
          ],
        }),
      ],
    },
    events: [],
    findings: [
      {
        code: 'estimate-drift',
        severity: 'warning',
        lane: 'recent-window',
        turn: 1,
        message: 'estimatedTokens 50 is far from 38',
      },
      {
        code: 'quarantined',
        severity: 'error',
        lane: 'recent-window',
        turn: 2,
        message: 'engine "recent-window" was quarantined in assemble: boom',
      },
    ],
    stats: { wallMs: 1234, tokenizer: { hits: 10, misses: 5 } },
  };
}
