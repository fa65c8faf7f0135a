/**
 * The release profiles of the 2026.3 – 2026.6 lines (src/replay/lane/versionProfiles.ts), axis by axis: what each
 * checked release (openclaw@2026.3.31, 4.25, 5.2, 6.11) does against 2026.7.35, where inside a line a behaviour
 * changed (read in the registry tarballs of the releases around it), and the rules that consume the profile —
 * the reserve, the heartbeat pairs filter and the tool-call id policy.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  HEARTBEAT_TRANSCRIPT_PROMPT,
  HistorySanitizer,
  rewritesToolCallIds,
  runHistoryPipeline,
} from '../../../src/engines/legacy';
import { openClawVersionProfile, parseOpenClawVersion } from '../../../src/replay/lane/openclawVersion';
import {
  behaviourOfRelease,
  LINE_2026_3,
  LINE_2026_4,
  LINE_2026_5,
  LINE_2026_6,
  LINE_2026_7,
  type VersionBehaviour,
} from '../../../src/replay/lane/versionProfiles';
import { resolveCompactionSettings } from '../../../src/runtime';
import { assistantCall, assistantText, toolResult, user } from '../legacy/helpers';

const axes = (b: VersionBehaviour) => {
  const { toolCallIds, ...rest } = b;
  return { ...rest, toolCallIds: { ...toolCallIds } };
};

describe('accepted releases', () => {
  it('2026.3.x – 2026.6.x parse to their line; a re-published -N release parses as its patch', () => {
    expect(openClawVersionProfile('2026.3.31').line).toBe('2026.3');
    expect(openClawVersionProfile('2026.4.25').line).toBe('2026.4');
    expect(openClawVersionProfile('2026.5.2').line).toBe('2026.5');
    expect(openClawVersionProfile('2026.6.11').line).toBe('2026.6');
    expect(openClawVersionProfile('2026.7.35').line).toBe('2026.7');
    expect(openClawVersionProfile('2026.9.6').line).toBe('2026.8+');
    expect(parseOpenClawVersion('2026.5.3-1')).toEqual({ year: 2026, month: 5, patch: 3, beta: false });
    expect(openClawVersionProfile('2026.3.23-1').version).toBe('2026.3.23-1');
  });

  it('refuses a release before 2026.3 with the oldest one it has, and an unparseable one with the accepted form', () => {
    expect(() => openClawVersionProfile('2026.2.26')).toThrow(
      /OpenClaw 2026\.2\.26 is older than any release ContextScope has a profile for \(2026\.3\.1 and later\)/,
    );
    expect(() => openClawVersionProfile('2025.12.1')).toThrow(/older than any release/);
    expect(() => openClawVersionProfile('v4')).toThrow(/year\.month\.patch/);
  });
});

describe('each checked release against 2026.7.35', () => {
  it('2026.3 (3.31): no precheck, no heartbeat filter, uncapped reserve, no quarantine, provider-family id policy, no after-run compaction, no owner hooks', () => {
    expect(axes(LINE_2026_3)).toEqual({
      ...axes(LINE_2026_7),
      line: '2026.3',
      contractEra: 'E1',
      reserveRule: 'uncapped',
      precheck: 'none',
      precheckEstimator: 'harness-chars',
      precheckOwningEngines: 'checked',
      precheckUnwindowed: 'assembled-differs',
      cjkCounting: 'basic',
      heartbeatFilter: 'none',
      hostRequirementMismatch: 'ignored',
      turnEngineFailures: 'log',
      assembleTokenBudget: 'context-window',
      toolCallIds: { keyedOn: 'provider-family', codexApi: 'openai-codex-responses', ollama: 'unowned' },
      turnBudgetCompaction: 'none',
      ownerModelCallHook: 'none',
      ownerCompactionAfterTurn: 'none',
    });
  });

  it('2026.4 (4.25): the precheck compacts on a chars/4 estimate, adjacent heartbeat pairs, the floor alone capped, the after-run budget compaction, the model-call hook', () => {
    expect(axes(LINE_2026_4)).toEqual({
      ...axes(LINE_2026_3),
      line: '2026.4',
      reserveRule: 'floor-capped',
      precheck: 'compacts',
      heartbeatFilter: 'pairs-2026.4',
      toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-codex-responses', ollama: 'unowned' },
      turnBudgetCompaction: 'raw-branch',
      ownerModelCallHook: 'afterTurn-then-assemble',
    });
  });

  it("2026.5 (5.2): as 2026.4 but the poll placeholder pairs, Ollama's own api rewritten, unwindowed only on authority", () => {
    expect(axes(LINE_2026_5)).toEqual({
      ...axes(LINE_2026_4),
      line: '2026.5',
      heartbeatFilter: 'pairs-2026.5',
      precheckUnwindowed: 'preassembly-may-overflow',
      toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-codex-responses', ollama: 'openai-compatible' },
    });
  });

  it('2026.6 (6.11): 2026.7 but for the reserve cap, the precheck of owning engines, the assemble budget and CJK counting', () => {
    expect(axes(LINE_2026_6)).toEqual({
      ...axes(LINE_2026_7),
      line: '2026.6',
      reserveRule: 'floor-capped',
      precheckOwningEngines: 'checked',
      assembleTokenBudget: 'context-window',
      cjkCounting: 'basic',
    });
  });

  it('the changes inside 2026.3 – 2026.6 add up to the checked 2026.7 profile at 2026.7.1', () => {
    expect(axes(behaviourOfRelease('2026.7.1'))).toEqual(axes(LINE_2026_7));
  });
});

describe('where inside a line a behaviour changed', () => {
  const at = (v: string) => openClawVersionProfile(v);
  it.each([
    ['contextEngineSlot', '2026.3.2', false, '2026.3.7', true],
    ['precheck', '2026.4.5', 'none', '2026.4.7', 'compacts'],
    ['heartbeatFilter', '2026.4.5', 'none', '2026.4.7', 'pairs-2026.4'],
    ['reserveRule', '2026.4.14', 'uncapped', '2026.4.15', 'floor-capped'],
    ['heartbeatFilter', '2026.4.24', 'pairs-2026.4', '2026.4.26', 'pairs-2026.5'],
    ['precheckUnwindowed', '2026.4.29', 'assembled-differs', '2026.5.2', 'preassembly-may-overflow'],
    ['heartbeatFilter', '2026.5.18', 'pairs-2026.5', '2026.5.19', '2026.7'],
    ['precheckEstimator', '2026.5.20', 'harness-chars', '2026.5.22', 'llm-boundary'],
    ['hostRequirementMismatch', '2026.5.20', 'ignored', '2026.5.22', 'fail-closed'],
    ['turnEngineFailures', '2026.5.27', 'log', '2026.5.28', 'quarantine'],
    ['reserveRule', '2026.6.35', 'floor-capped', '2026.7.1', 'floor-capped-by-min-prompt'],
  ] as const)('%s: %s is %s, %s is %s', (axis, before, was, after, is) => {
    expect(at(before)[axis]).toBe(was);
    expect(at(after)[axis]).toBe(is);
  });

  it.each([
    ['2026.4.4', 'provider-family', 'openai-codex-responses', 'unowned'],
    ['2026.4.5', 'provider-plugin', 'openai-codex-responses', 'unowned'],
    ['2026.4.26', 'provider-plugin', 'openai-codex-responses', 'openai-compatible'],
    ['2026.5.20', 'provider-plugin', 'openai-codex-responses', 'native'],
    ['2026.6.1', 'provider-plugin', 'openai-chatgpt-responses', 'native'],
  ] as const)('tool-call ids on %s: keyed on %s, %s, ollama %s', (version, keyedOn, codexApi, ollama) => {
    expect(at(version).toolCallIds).toEqual({ keyedOn, codexApi, ollama });
  });
});

describe('reserve per release (8192 window, default reserve 16384; the 200k session keeps the configured one)', () => {
  const reserveOf = (version: string, window: number, reserveTokens?: number) =>
    resolveCompactionSettings({
      contextTokenBudget: window,
      ...(reserveTokens !== undefined ? { reserveTokens } : {}),
      reserveRule: openClawVersionProfile(version).reserveRule,
    }).reserveTokens;

  it('2026.3 keeps max(reserve, floor 20000); 2026.4–6 cap only the floor; 2026.7 caps the reserve too', () => {
    expect(reserveOf('2026.3.31', 8192)).toBe(20_000);
    expect(reserveOf('2026.4.14', 8192)).toBe(20_000);
    expect(reserveOf('2026.4.25', 8192)).toBe(16_384);
    expect(reserveOf('2026.5.2', 8192)).toBe(16_384);
    expect(reserveOf('2026.6.11', 8192)).toBe(16_384);
    expect(reserveOf('2026.7.35', 8192)).toBe(4096);
    expect(reserveOf('2026.4.25', 48_000, 45_000)).toBe(45_000);
    expect(reserveOf('2026.7.35', 48_000, 45_000)).toBe(40_000);
  });
});

describe('heartbeat filters before 2026.5.19', () => {
  const poll = (): AgentMessage => user(HEARTBEAT_TRANSCRIPT_PROMPT);
  const heartbeatPrompt = (): AgentMessage =>
    user(
      'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.\nCurrent time: 09:30',
    );
  const history = (): AgentMessage[] => [
    user('deploy the api'),
    assistantText('deployed'),
    heartbeatPrompt(),
    assistantText('HEARTBEAT_OK'),
    heartbeatPrompt(),
    assistantCall('c1', 'read', { path: 'HEARTBEAT.md' }),
    toolResult('c1', 'read', '- nothing due'),
    assistantText('HEARTBEAT_OK'),
    poll(),
    assistantText('HEARTBEAT_OK'),
    poll(),
    assistantText(''),
    user('thanks'),
  ];
  const kept = (variant: 'pairs-2026.4' | 'pairs-2026.5' | '2026.7') =>
    runHistoryPipeline(history(), { heartbeat: { variant } }).messages.map((m) =>
      m.role === 'user' ? `u:${(m.content as string).slice(0, 12)}` : m.role,
    );

  it('pairs-2026.4 removes only a prompt directly acked; a heartbeat that read a file stays, and the poll is not known', () => {
    expect(kept('pairs-2026.4')).toEqual([
      'u:deploy the a',
      'assistant',
      'u:Read HEARTBE',
      'assistant',
      'toolResult',
      'assistant',
      'u:[OpenClaw he',
      'assistant',
      'u:[OpenClaw he',
      'assistant',
      'u:thanks',
    ]);
  });

  it('pairs-2026.5 also pairs the poll placeholder (an empty reply acks); 2026.7 removes the heartbeat that read a file too', () => {
    expect(kept('pairs-2026.5')).toEqual([
      'u:deploy the a',
      'assistant',
      'u:Read HEARTBE',
      'assistant',
      'toolResult',
      'assistant',
      'u:thanks',
    ]);
    expect(kept('2026.7').slice(0, 3)).toEqual(['u:deploy the a', 'assistant', 'u:[OpenClaw he']);
  });
});

describe("tool-call id policy per release (the turn's called model)", () => {
  const strict = (version: string, provider: string, api: string) =>
    rewritesToolCallIds({ provider, api }, openClawVersionProfile(version).toolCallIds);

  it("Ollama's native api: kept on 2026.3/4, rewritten on 2026.4.26 – 5.19 (the openai-completions policy), kept again from 5.20", () => {
    expect(strict('2026.3.31', 'ollama', 'ollama')).toBe(false);
    expect(strict('2026.4.25', 'ollama', 'ollama')).toBe(false);
    expect(strict('2026.4.29', 'ollama', 'ollama')).toBe(true);
    expect(strict('2026.5.2', 'ollama', 'ollama')).toBe(true);
    expect(strict('2026.5.20', 'ollama', 'ollama')).toBe(false);
    expect(strict('2026.6.11', 'ollama', 'ollama')).toBe(false);
    expect(strict('2026.6.11', 'ollama', 'openai-completions')).toBe(true);
  });

  it('2026.3 keys on provider families: OpenAI providers keep Responses ids, Anthropic providers rewrite on any api', () => {
    expect(strict('2026.3.31', 'openai', 'openai-responses')).toBe(false);
    expect(strict('2026.4.25', 'openai', 'openai-responses')).toBe(true);
    expect(strict('2026.3.31', 'minimax', 'openai-responses')).toBe(true);
    expect(strict('2026.3.31', 'anthropic', 'custom-api')).toBe(true);
    expect(strict('2026.4.25', 'anthropic', 'custom-api')).toBe(false);
    expect(strict('2026.3.31', 'openai', 'openai-completions')).toBe(true);
  });

  it('the ChatGPT-login Responses api is openai-codex-responses until 2026.5, openai-chatgpt-responses from 2026.6.1', () => {
    expect(strict('2026.5.2', 'custom', 'openai-codex-responses')).toBe(true);
    expect(strict('2026.5.2', 'custom', 'openai-chatgpt-responses')).toBe(false);
    expect(strict('2026.6.11', 'custom', 'openai-codex-responses')).toBe(false);
    expect(strict('2026.6.11', 'custom', 'openai-chatgpt-responses')).toBe(true);
  });

  it('by default (no turn given) the latest called model decides; a message OpenClaw wrote itself names none', () => {
    const ollama = { ...assistantCall('call_1', 'exec', {}), provider: 'ollama', api: 'ollama' } as AgentMessage;
    const mirror = assistantText('(sent)', { provider: 'openclaw', api: 'openai-responses' });
    const out = new HistorySanitizer().sanitize([ollama, toolResult('call_1', 'exec', 'ok'), mirror]);
    expect((out[1] as { toolCallId: string }).toolCallId).toBe('call_1');
    const openai = { ...ollama, provider: 'openai', api: 'openai-completions' } as AgentMessage;
    const rewritten = new HistorySanitizer().sanitize([openai, toolResult('call_1', 'exec', 'ok'), mirror]);
    expect((rewritten[1] as { toolCallId: string }).toolCallId).toBe('call1');
  });
});
