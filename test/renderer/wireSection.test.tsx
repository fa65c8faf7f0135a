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

/**
 * 2026.7.35 wrapped turn 2's prompt in the subagent steering event (the child had finished) and stored only
 * "Thanks.": the wrapper comes from the trajectory, marked apart from the stamp; turn 1 has none.
 */
describe('TurnView: as sent, a prompt OpenClaw wrapped (OpenClaw 2026.7.35)', () => {
  const SPAWN = path.resolve(import.meta.dirname, '../fixtures/openclaw-real/2026.7.35/subagent-spawn');

  it('shows the recorded steering event between the stamp and the stored prompt', async () => {
    const session = await loadSession({ stateDir: SPAWN, session: 'differential-session' });
    const recording = (await replaySession({
      session,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 64_000 }],
      openclawVersion: '2026.7.35',
      transcriptFiles: 'none',
    })) as Recording;
    const laneId = recording.lanes[0]!.id;
    const show = (turn: number) => {
      const view = render(
        <TurnView
          detail={buildTurnDetail(recording, laneId, turn)!}
          turnCount={2}
          prompt=""
          lanes={[{ id: laneId, label: laneId, color: '#4c6ef5' }]}
          onSelectLane={() => {}}
          expanded={{}}
          onToggle={() => {}}
        />,
      );
      fireEvent.click(screen.getByRole('tab', { name: 'As sent (OpenClaw 2026.7.35)' }));
      return view;
    };
    const first = show(0);
    expect(within(screen.getByTestId('wire-section')).queryByTestId('wire-recorded-prefix')).toBeNull();
    first.unmount();
    show(1);
    const wire = screen.getByTestId('wire-section');
    const prompt = within(wire)
      .getAllByTestId('wire-message')
      .find((m) => m.getAttribute('data-origin') === 'prompt')!;
    const wrapper = within(prompt).getByTestId('wire-recorded-prefix').textContent!;
    expect(wrapper.startsWith('[OpenClaw runtime event] Agent steering queue items arrived')).toBe(true);
    expect(wrapper.endsWith('Current parent turn:\n\n')).toBe(true);
    const sent = prompt.querySelector('pre')!.textContent!;
    expect(sent.startsWith(within(prompt).getByTestId('wire-prefix').textContent! + wrapper)).toBe(true);
    expect(sent.endsWith('Thanks.')).toBe(true);
  });
});
