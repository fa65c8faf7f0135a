/**
 * The turn view's "As sent" tab on a session real OpenClaw 2026.9.6 wrote: replayed as 2026.9.6, turn 2 shows the
 * messages the model received — the timestamp stamps and runtime line OpenClaw added (as logged by the scripted
 * model that served the run), and the internal-context message — while "As assembled" stays the default.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TurnView } from '../../renderer/src/components/TurnView';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import type { Recording } from '../../renderer/src/recordingTypes';
import { replaySession } from '../../src/replay';
import { loadSession } from '../../src/transcripts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/openclaw-real/2026.9.6/plain-text');

function loggedUserTexts(turn: number): string[] {
  const request = fs
    .readFileSync(path.join(FIXTURE, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map(
      (l) => JSON.parse(l) as { turn: number; kind: string; body: { messages: { role: string; content: unknown }[] } },
    )
    .find((r) => r.turn === turn && r.kind === 'turn')!;
  return request.body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content as { text: string }[]).map((p) => p.text).join(''),
    );
}

describe('TurnView: as sent (OpenClaw 2026.9.6)', () => {
  let recording: Recording;

  beforeAll(async () => {
    const session = await loadSession({ stateDir: FIXTURE, session: 'differential-session' });
    recording = (await replaySession({
      session,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 64_000 }],
      openclawVersion: '2026.9.6',
      transcriptFiles: 'none',
    })) as Recording;
  });

  it('shows the request OpenClaw built beside the assembled context', () => {
    const laneId = recording.lanes[0]!.id;
    render(
      <TurnView
        detail={buildTurnDetail(recording, laneId, 1)!}
        turnCount={3}
        prompt="Which of them is warmest?"
        lanes={[{ id: laneId, label: laneId, color: '#4c6ef5' }]}
        onSelectLane={() => {}}
        expanded={{}}
        onToggle={() => {}}
      />,
    );
    expect(screen.getByTestId('assembled-section')).toBeTruthy();
    expect(screen.queryByTestId('wire-section')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'As sent (OpenClaw 2026.9.6)' }));
    const wire = screen.getByTestId('wire-section');
    const messages = within(wire).getAllByTestId('wire-message');
    expect(messages.map((m) => m.getAttribute('data-origin'))).toEqual(['assembled', 'assembled', 'prompt', 'host']);
    const logged = loggedUserTexts(1);
    const stamps = within(wire)
      .getAllByTestId('wire-prefix')
      .map((e) => e.textContent);
    expect(stamps).toEqual(logged.slice(0, 2).map((t) => t.slice(0, t.indexOf('] ') + 2)));
    const runtime = within(wire).getByTestId('wire-suffix').textContent!;
    expect(runtime.startsWith('\n\nRuntime: agent=main | session=agent:main:explicit:differential-session')).toBe(true);
    expect(logged[0]).toContain(runtime.replace(/ \| …$/, ''));
    expect(messages[3]!.textContent).toContain('<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>');
    expect(logged[2]).toBe(messages[3]!.querySelector('pre')!.textContent);
    fireEvent.click(screen.getByRole('tab', { name: 'As assembled' }));
    expect(screen.getByTestId('assembled-section')).toBeTruthy();
  });
});
