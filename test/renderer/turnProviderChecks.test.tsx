/**
 * The turn view's Precheck section says whether the provider overflowed and which source decided (issue 31 item 3),
 * on a replay of a generated Chinese MiniMax session whose recorded usage is 0.4× tiktoken's count: the legacy lane
 * sends OpenClaw's context, so the recorded usage decides; a lane whose engine assembles something else has its
 * tiktoken count scaled by the session's measured ratio, shown with the turns it was measured on; a model served
 * by Ollama never overflows.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TurnView } from '../../renderer/src/components/TurnView';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import type { Recording } from '../../renderer/src/recordingTypes';
import type { AssembleResult, AgentMessage } from '../../src/contract';
import { replaySession } from '../../src/replay';
import { chineseText, writeProviderUsageSession } from '../unit/replay/providerUsageSession';
import { recordingEngine, tempDir } from '../unit/replay/sessionBuilder';

const dirs: string[] = [];
const SHAPE = { turns: 6, replyChars: 3000, ratio: 0.4, overhead: 1500 };

async function replayCjk(): Promise<Recording> {
  const dir = tempDir('cs-provider-view-');
  dirs.push(dir);
  const paster = recordingEngine(
    { id: 'paster', ownsCompaction: true },
    {
      async assemble(params): Promise<AssembleResult> {
        const { messages } = params as { messages: AgentMessage[] };
        const pasted: AgentMessage = { role: 'user', content: chineseText(5000, 3), timestamp: 1 };
        return { messages: [...messages, pasted], estimatedTokens: 0 };
      },
    },
  );
  return (await replaySession({
    openclawVersion: '2026.7.35',
    session: await writeProviderUsageSession(dir, SHAPE),
    lanes: [
      // 2026.7.35's estimate-based precheck (a CJK character is a token to it) fits this window without compacting
      { engine: { kind: 'legacy' }, contextWindow: 64_000 },
      { engine: { kind: 'in-process', engineId: 'paster', factory: paster.factory as never }, contextWindow: 64_000 },
    ],
  })) as Recording;
}

async function replayOllama(): Promise<Recording> {
  const dir = tempDir('cs-provider-view-');
  dirs.push(dir);
  const session = await writeProviderUsageSession(dir, {
    ...SHAPE,
    turns: 2,
    noUsage: true,
    provider: 'ollama',
    api: 'ollama',
    model: 'llama3',
  });
  return (await replaySession({ session, lanes: [{ engine: { kind: 'legacy' }, contextWindow: 8192 }] })) as Recording;
}

function renderTurn(recording: Recording, laneId: string, turn: number) {
  render(
    <TurnView
      detail={buildTurnDetail(recording, laneId, turn)!}
      turnCount={recording.session.turnStarts.length}
      prompt=""
      lanes={recording.lanes.map((l) => ({ id: l.id, label: l.label, color: '#4c6ef5' }))}
      onSelectLane={() => {}}
      expanded={{}}
      onToggle={() => {}}
    />,
  );
  return screen.getByTestId('provider-check');
}

describe('TurnView: the provider-overflow check', () => {
  let cjk: Recording;
  let ollama: Recording;
  beforeAll(async () => {
    [cjk, ollama] = await Promise.all([replayCjk(), replayOllama()]);
  }, 120_000);
  afterEach(cleanup);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('says the recorded usage decided on a lane that sends what OpenClaw sent', () => {
    const check = renderTurn(cjk, 'legacy', 5);
    expect(check.getAttribute('data-source')).toBe('recorded');
    expect(within(check).getByTestId('provider-check-source').textContent).toBe('recorded');
    expect(check.textContent).toContain('fits');
    expect(check.textContent).toContain('provider tokens of 64,000');
    expect(check.textContent).toContain('minimax/MiniMax-M2');
    expect(within(check).queryByTestId('provider-check-ratio')).toBeNull();
  });

  it('shows the measured ratio and how many turns it was measured on for a lane that assembles something else', () => {
    const check = renderTurn(cjk, 'paster', 5);
    expect(check.getAttribute('data-source')).toBe('scaled');
    expect(within(check).getByTestId('provider-check-source').textContent).toBe('scaled');
    const ratio = within(check).getByTestId('provider-check-ratio').textContent!;
    expect(ratio).toMatch(/×0\.40\d \+ 1,?[45]\d\d/);
    expect(ratio).toContain('measured on 6 recorded turns of minimax/MiniMax-M2');
    expect(check.getAttribute('title')).toContain('scaled');
  });

  it('says a provider that truncates silently never overflows', () => {
    const check = renderTurn(ollama, 'legacy', 1);
    expect(check.getAttribute('data-source')).toBe('never');
    expect(within(check).getByTestId('provider-check-source').textContent).toBe('never (provider truncates silently)');
    expect(check.textContent).toContain('never overflows');
  });
});
