/**
 * The doctor diagnoses on a realistic conversation (the seeded generator's: several turns, tool calls, results of
 * thousands of characters), on real engine hosts with the doctor-realistic fixture: each finding shows for the
 * engine that has the fault and not for its twin — noop-compact for a compact() that never does anything but not
 * for one that prunes large tool results; estimate-drift for an engine reporting tokens freed but not for one that
 * estimates serialized JSON or weights tool output; orphaned tool results for an engine that drops tool-call-only
 * steps but keeps their results, not for one that drops the pairs; compact-no-effect judged by the context assembled
 * before and after (an engine claiming 1000 → 400 that assembles the same, not one reporting equal counts that
 * assembles less).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessage } from '../../../src/contract';
import { runDoctor } from '../../../src/plugins';
import { doctorConversation } from '../../../src/plugins/doctor/doctorConversation';
import { checkAssembleResult, MIN_DRIFT_SAMPLE_TOKENS } from '../../../src/plugins/doctor/resultChecks';
import { smokeMessages } from '../../../src/plugins/doctor/smokeConversation';
import { estimateMessagesTokens } from '../../../src/tokens';

const FIXTURE = join(import.meta.dirname, '../../fixtures/plugins/doctor-realistic');
const textLength = (m: AgentMessage) => JSON.stringify((m as { content?: unknown }).content ?? '').length;

describe('doctor on a realistic conversation', () => {
  it('drives engines with several turns of tool calls and large tool results, under a budget of three quarters of the history', () => {
    const { history, reply, prompt, tokenBudget } = doctorConversation();
    const roles = history.map((m) => m.role);
    expect(roles.filter((r) => r === 'user').length).toBeGreaterThanOrEqual(7);
    expect(history.filter((m) => m.role === 'toolResult' && textLength(m) > 2000).length).toBeGreaterThanOrEqual(3);
    expect(prompt.length).toBeGreaterThan(0);
    expect(reply[0]?.role).toBe('assistant');
    expect(tokenBudget).toBe(Math.floor((estimateMessagesTokens(history) * 3) / 4));
  });

  it('shows each finding on the engine with the fault and none on its twin', async () => {
    const report = await runDoctor({
      allowExecute: true,
      pluginPaths: [FIXTURE],
      bundledDir: false,
      stateDir: mkdtempSync(join(tmpdir(), 'cs-doctor-realistic-')),
      deadlines: { defaultMs: 10_000 },
    });
    const byEngine: Record<string, string[]> = {};
    for (const engine of report.plugins[0]!.engines) byEngine[engine] = [];
    for (const f of report.findings) if (f.where.engineId) byEngine[f.where.engineId]?.push(f.code);
    expect(byEngine).toEqual({
      'prune-tools': [],
      'noop-compact': ['noop-compact'],
      'json-estimate': [],
      'tokens-freed': ['estimate-drift'],
      'drop-silent-steps': ['orphaned-tool-results'],
      'drop-silent-pairs': [],
      'claims-compaction': ['compact-no-effect'],
      'quiet-compaction': [],
    });
    expect(report.findings.find((f) => f.where.engineId === 'claims-compaction')?.message).toMatch(
      /^compacted:true \(tokensBefore 1000 → tokensAfter 400\), and the context assemble\(\) returns did not shrink \((\d+) → \1 tokens, chars\/4\)$/,
    );
  }, 60_000);

  it('does not judge an estimate on a tiny sample, and 0 is "no estimate" for every engine', () => {
    const tiny = smokeMessages();
    expect(estimateMessagesTokens(tiny)).toBeLessThan(MIN_DRIFT_SAMPLE_TOKENS);
    expect(checkAssembleResult({ pluginId: 'p', engineId: 'e' }, { messages: tiny, estimatedTokens: 1 })).toEqual([]);
    const { history } = doctorConversation();
    const ref = { pluginId: 'p', engineId: 'e' };
    expect(checkAssembleResult(ref, { messages: history, estimatedTokens: 0 })).toEqual([]);
    expect(checkAssembleResult(ref, { messages: history, estimatedTokens: 1 }).map((f) => f.code)).toEqual([
      'estimate-drift',
    ]);
  });
});
