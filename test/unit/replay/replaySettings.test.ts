/**
 * A replay of a session from a state dir uses the settings OpenClaw used: the release that wrote the session
 * (inferred from the database or the header), the state dir's openclaw.json and the session model's window —
 * each overridable and each with its source. Also the bridge method the replay form calls, `replay.defaults`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { createBridgeDispatcher } from '../../../src/bridge';
import { resolveReplaySettings, stateDirOfSession } from '../../../src/replay';
import { generateSession, loadSession, writeGeneratedSessions } from '../../../src/transcripts';
import { SessionBuilder } from './sessionBuilder';

const CONFIG = `// written by OpenClaw
{
  meta: { lastTouchedVersion: '2026.7.35' },
  agents: { defaults: { compaction: { mode: 'safeguard', reserveTokens: 24000, keepRecentTokens: 8000 } } },
  models: { providers: { openai: { models: [{ id: 'gpt-5', contextWindow: 64000, contextTokens: 48000 }] } } },
}
`;

async function stateDirWithSession(config: string | null = CONFIG) {
  const stateDir = mkdtempSync(join(tmpdir(), 'cs-settings-'));
  if (config !== null) writeFileSync(join(stateDir, 'openclaw.json'), config);
  const b = new SessionBuilder();
  b.turn('first question').turn('second question');
  const session = await b.write(join(stateDir, 'agents', 'main', 'sessions'));
  return { stateDir, session, file: session.path };
}

describe('resolveReplaySettings', () => {
  it("reads the state dir's openclaw.json and the session model's configured window, and says where each came from", async () => {
    const { stateDir, session } = await stateDirWithSession();
    expect(stateDirOfSession(session)).toBe(stateDir);
    const r = await resolveReplaySettings({ session });
    expect(r.settings).toMatchObject({
      openclawVersion: '2026.7.35',
      contextWindow: 48_000, // contextTokens capped by contextWindow
      reserveTokens: 24_000,
      keepRecentTokens: 8000,
      compactionMode: 'safeguard',
      model: 'openai/gpt-5',
    });
    expect(r.sources).toMatchObject({
      openclawVersion: 'inferred',
      contextWindow: 'openclaw.json',
      reserveTokens: 'openclaw.json',
      keepRecentTokens: 'openclaw.json',
      compactionMode: 'openclaw.json',
      reserveTokensFloor: 'version default',
      model: 'session model',
    });
    expect(r.openclawVersionFrom).toMatch(/lastTouchedVersion/);
    // 2026.7: reserve 24000 capped at 48000 − 8000
    expect(r.effective).toEqual({ reserveTokens: 24_000, promptBudget: 24_000 });
  });

  it('lets every value be overridden, and on 2026.9.6 ignores the retired reserve keys with a note', async () => {
    const { session } = await stateDirWithSession();
    const r = await resolveReplaySettings({
      session,
      overrides: { openclawVersion: '2026.9.6', keepRecentTokens: 4000, contextWindow: 32_000 },
    });
    expect(r.settings).toMatchObject({ openclawVersion: '2026.9.6', keepRecentTokens: 4000, contextWindow: 32_000 });
    expect(r.sources).toMatchObject({
      openclawVersion: 'flag',
      keepRecentTokens: 'flag',
      contextWindow: 'flag',
      reserveTokens: 'version default',
    });
    expect(r.settings.reserveTokens).toBe(16_384);
    expect(r.notes.join('\n')).toMatch(/ignores them \(retired keys\)/);
    // 2026.9.6: min(max(16384, 20000), 32000/4) = 8000 → prompt budget 24000 (issue 20's measurement)
    expect(r.effective).toEqual({ reserveTokens: 8000, promptBudget: 24_000 });
  });

  it('without openclaw.json: version defaults, and a v3 JSONL header infers the newest 2026.7 release', async () => {
    const { session } = await stateDirWithSession(null);
    const r = await resolveReplaySettings({ session });
    expect(r.configPath).toBeNull();
    expect(r.settings).toMatchObject({
      openclawVersion: '2026.7.35',
      contextWindow: 200_000,
      keepRecentTokens: 20_000,
    });
    expect(r.sources.contextWindow).toBe('version default');
    expect(r.openclawVersionFrom).toMatch(/session header \(version 3/);
  });

  it('infers 2026.8+ for a SQLite session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-settings-sqlite-'));
    await writeGeneratedSessions(generateSession({ turns: 3, seed: 'settings' }), dir, { storage: 'sqlite' });
    const session = await loadSession({ stateDir: dir, session: 'agent:main:main' }, { mode: 'tolerant' });
    const r = await resolveReplaySettings({ session });
    expect(r.settings.openclawVersion).toBe('2026.9.6');
    expect(r.sources.openclawVersion).toBe('inferred');
    expect(r.openclawVersionFrom).toMatch(/SQLite/);
  });

  it('names the file and the parse error when openclaw.json is not JSON5', async () => {
    const { session, stateDir } = await stateDirWithSession('{ agents: ');
    await expect(resolveReplaySettings({ session })).rejects.toThrow(
      `${join(stateDir, 'openclaw.json')} is not valid JSON5`,
    );
  });
});

describe('bridge replay.defaults', () => {
  it('answers the replay form with the settings and their sources for a session path', async () => {
    const { file } = await stateDirWithSession();
    const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
      validateResponses: true,
    });
    const answer = await d.call('replay.defaults', { sessionPath: file });
    expect(answer.ok).toBe(true);
    const result = (
      answer as { result: { settings: { keepRecentTokens: number }; sources: object; profile: { line: string } } }
    ).result;
    expect(result.settings.keepRecentTokens).toBe(8000);
    expect(result.sources).toMatchObject({ keepRecentTokens: 'openclaw.json', openclawVersion: 'inferred' });
    expect(result.profile.line).toBe('2026.7');
    const bad = await d.call('replay.defaults', { sessionPath: file, openclawVersion: 'v9' });
    expect(bad.ok).toBe(false);
  });
});
