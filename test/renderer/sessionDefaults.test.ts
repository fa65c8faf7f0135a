import { beforeEach, describe, expect, it } from 'vitest';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSessionDefaultsStore, useSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { demoDefaults } from './sessionDefaultsFixture';

const defaults = demoDefaults;

/** A runtime whose `replay.defaults` answers only when `answer()` is called (or fails with `fail()`). */
function slowDefaults() {
  let answer!: () => void;
  let fail!: () => void;
  const fake = createFakeInspectorClient({
    'replay.defaults': () =>
      new Promise((resolve, reject) => {
        answer = () => resolve(defaults);
        fail = () => reject(new Error('unreadable session'));
      }),
  });
  return { client: fake.client, answer: () => answer(), fail: () => fail() };
}

beforeEach(() => {
  resetReplayStore();
  resetSessionDefaultsStore();
});

describe('the replay form and the session defaults', () => {
  it('fills every field from the defaults when nothing was typed while they were asked for', async () => {
    const runtime = slowDefaults();
    const applied = useSessionDefaultsStore.getState().apply(runtime.client, '/s/a.jsonl');
    runtime.answer();
    await applied;
    const form = useReplayStore.getState().form;
    expect([form.window, form.keepRecentTokens, form.openclawVersion, form.reserve]).toEqual([
      '48000',
      '8000',
      '2026.7.35',
      '',
    ]);
  });

  it('keeps what was typed before the defaults arrived, and fills the rest', async () => {
    const runtime = slowDefaults();
    const applied = useSessionDefaultsStore.getState().apply(runtime.client, '/s/a.jsonl');
    useReplayStore.getState().setForm({ window: '8000', extraSpecs: 'legacy?window=64000' });
    runtime.answer();
    await applied;
    const form = useReplayStore.getState().form;
    expect(form.window).toBe('8000');
    expect(form.extraSpecs).toBe('legacy?window=64000');
    expect(form.keepRecentTokens).toBe('8000');
    expect(form.openclawVersion).toBe('2026.7.35');
    expect(useSessionDefaultsStore.getState().defaults).toEqual(defaults);
  });

  it('keeps what was typed when the defaults fail too', async () => {
    const runtime = slowDefaults();
    useReplayStore.getState().setForm({ keepRecentTokens: '5000' });
    const applied = useSessionDefaultsStore.getState().apply(runtime.client, '/s/a.jsonl');
    useReplayStore.getState().setForm({ window: '16000' });
    runtime.fail();
    await applied;
    const form = useReplayStore.getState().form;
    expect(form.window).toBe('16000');
    // not typed while asking: the failed defaults reset it (nothing of the previous session carries over)
    expect(form.keepRecentTokens).toBe('');
    expect(useSessionDefaultsStore.getState().error).toMatch(/unreadable session/);
  });
});
