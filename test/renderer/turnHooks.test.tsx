/**
 * The turn view's "Plugin hooks" section on a replay through a real engine host (the hook-context fixture plugin):
 * with a system context configured, before_prompt_build is listed as having changed the turn and the fenced plugin
 * context OpenClaw puts before the system prompt is shown; its false twin (no config) lists the hook with no change
 * and no prompt effect; a legacy lane has no hooks section at all.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TurnView } from '../../renderer/src/components/TurnView';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import type { Recording } from '../../renderer/src/recordingTypes';
import { replaySession } from '../../src/replay';
import { SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/plugins/hook-context');
const NOTES = 'Project notes: indent with tabs.';
const dirs: string[] = [];

function session() {
  const b = new SessionBuilder();
  for (const word of ['alpha', 'beta', 'gamma']) b.turn(`tell me about ${word}`, `${word} `.repeat(50));
  return b.loaded();
}

async function replay(pluginConfig: Record<string, unknown>): Promise<Recording> {
  const workDir = tempDir('cs-turn-hooks-');
  dirs.push(workDir);
  return (await replaySession({
    session: session(),
    systemPrompt: 'You are a careful assistant.',
    lanes: [
      { engine: { kind: 'legacy' }, contextWindow: 32_000 },
      { engine: { kind: 'plugin', plugin: FIXTURE, pluginConfig }, contextWindow: 32_000 },
    ],
    plugins: { allowExecute: true },
    workDir,
  })) as Recording;
}

function renderTurn(recording: Recording, laneId: string) {
  render(
    <TurnView
      detail={buildTurnDetail(recording, laneId, 1)!}
      turnCount={3}
      prompt="tell me about beta"
      lanes={recording.lanes.map((l) => ({ id: l.id, label: l.label, color: '#4c6ef5' }))}
      onSelectLane={() => {}}
      expanded={{}}
      onToggle={() => {}}
    />,
  );
}

describe('TurnView: plugin hooks', () => {
  let hooked: Recording;
  let twin: Recording;
  beforeAll(async () => {
    [hooked, twin] = await Promise.all([replay({ systemContext: NOTES }), replay({})]);
  }, 120_000);
  afterEach(cleanup);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('lists before_prompt_build as changing the turn and shows the context it put before the system prompt', () => {
    const lane = hooked.lanes[1]!;
    expect(lane.error).toBeUndefined();
    renderTurn(hooked, lane.id);
    const section = screen.getByTestId('turn-hooks');
    const build = within(section)
      .getAllByTestId('turn-hook')
      .find((li) => li.getAttribute('data-hook') === 'before_prompt_build')!;
    expect(build.textContent).toContain('changed the turn');
    const effect = within(section).getByTestId('prompt-hook-effect');
    expect(effect.getAttribute('data-field')).toBe('prependSystemContext');
    expect(effect.querySelector('pre')!.textContent).toContain(NOTES);
    expect(effect.querySelector('pre')!.textContent).toContain('OpenClaw plugin-injected system context');
  });

  it('shows the twin hook with no change and no prompt effect, and no section on the legacy lane', () => {
    renderTurn(twin, twin.lanes[1]!.id);
    const section = screen.getByTestId('turn-hooks');
    const build = within(section)
      .getAllByTestId('turn-hook')
      .find((li) => li.getAttribute('data-hook') === 'before_prompt_build')!;
    expect(build.textContent).toContain('no change');
    expect(within(section).queryByTestId('prompt-hook-effect')).toBeNull();
    cleanup();
    renderTurn(twin, twin.lanes[0]!.id);
    expect(screen.queryByTestId('turn-hooks')).toBeNull();
  });
});
