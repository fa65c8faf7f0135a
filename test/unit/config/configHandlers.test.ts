/**
 * The config.* bridge methods through the real handler table and dispatcher (requests and responses validated
 * against their schemas): read, preview, save (and its refusals), restore, try-before-save lanes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBridgeDispatcher, type BridgeOutcome } from '../../../src/bridge';
import type {
  ConfigPreviewInfo,
  ConfigReadResponse,
  ConfigSaveResponse,
  ConfigTryLanesResponse,
} from '../../../src/bridge/methods';
import { createHandlers } from '../../../main/handlers';
import { cleanTemps, copyFixture, tempDir } from './configHelpers';

afterEach(cleanTemps);

function setup() {
  const dir = copyFixture('realistic');
  const configPath = join(dir, 'openclaw.json');
  const stateDir = tempDir('cs-state-');
  const dispatcher = createBridgeDispatcher(
    createHandlers({ shell: 'browser', runtimeHost: 'node', consentFile: join(tempDir(), 'consent.json') }),
    { validateResponses: true },
  );
  const call = async <T>(method: string, params: Record<string, unknown>): Promise<T> => {
    const outcome: BridgeOutcome = await dispatcher.call(method, { configPath, stateDir, ...params });
    if (!outcome.ok) throw new Error(`${method}: ${JSON.stringify(outcome.error)}`);
    return outcome.result as T;
  };
  return { dir, configPath, call, original: readFileSync(configPath, 'utf8') };
}

const slotToRecentWindow = [{ op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' }];

describe('config.* over the bridge', () => {
  it('config.read: text, hash, effective config, the $include read-only, plugins with schema and uiHints', async () => {
    const { call, dir } = setup();
    const read = await call<ConfigReadResponse>('config.read', {});
    expect(read).toMatchObject({ exists: true, syntaxError: null, readOnly: null, issues: [], backups: [] });
    expect(read.includes).toEqual([
      expect.objectContaining({
        at: 'channels',
        include: './channels.json5',
        file: join(dir, 'channels.json5'),
        error: null,
      }),
    ]);
    const recent = read.plugins.find((p) => p.id === 'recent-window')!;
    expect(recent).toMatchObject({ enabled: true, loadable: true, consent: 'missing', engines: ['recent-window'] });
    expect(recent.config).toEqual({ budgetShare: 0.8, minRecentTurns: 1 });
    expect(Object.keys((recent.configSchema as any).properties)).toContain('budgetShare');
    expect(recent.uiHints.budgetShare).toMatchObject({ label: 'Budget share' });
  });

  it('config.preview writes nothing and says what would change', async () => {
    const { call, configPath, original } = setup();
    const { hash } = await call<ConfigReadResponse>('config.read', {});
    const preview = await call<ConfigPreviewInfo>('config.preview', { baseHash: hash, changes: slotToRecentWindow });
    expect(preview).toMatchObject({ ok: true, changed: true, stale: false, refused: null });
    expect(preview.changes).toEqual([
      { path: ['plugins', 'slots', 'contextEngine'], kind: 'changed', from: 'legacy', to: 'recent-window' },
    ]);
    expect(readFileSync(configPath, 'utf8')).toBe(original);
    // changed on disk since it was read: the preview says so (and applies to the version there now)
    writeFileSync(configPath, original.replace('port: 18789', 'port: 1'));
    const stale = await call<ConfigPreviewInfo>('config.preview', { baseHash: hash, changes: slotToRecentWindow });
    expect([stale.stale, stale.baseHash, stale.text.includes('port: 1,')]).toEqual([true, hash, true]);
    writeFileSync(configPath, original);
    const raw = await call<ConfigPreviewInfo>('config.preview', { baseHash: hash, text: '{ plugins: ' });
    expect(raw.ok).toBe(false);
    expect(raw.issues[0]).toMatchObject({ code: 'syntax', line: 1, column: 12 });
  });

  it('config.save: written with a backup; a stale hash is refused with what changed on disk; restore undoes', async () => {
    const { call, configPath, original } = setup();
    const { hash } = await call<ConfigReadResponse>('config.read', {});
    const saved = await call<ConfigSaveResponse>('config.save', { baseHash: hash, changes: slotToRecentWindow });
    if (!saved.ok) throw new Error(saved.message);
    expect(readFileSync(configPath, 'utf8')).toContain('contextEngine: "recent-window"');
    // someone edits the file; a save against the old hash is refused and shows their change
    const external = readFileSync(configPath, 'utf8').replace('port: 18789', 'port: 4000');
    writeFileSync(configPath, external);
    const stale = await call<ConfigSaveResponse>('config.save', {
      baseHash: saved.hash,
      changes: [{ op: 'setContextWindow', tokens: 64000 }],
    });
    expect(stale).toMatchObject({ ok: false, reason: 'changed-on-disk', current: { text: external } });
    if (stale.ok || stale.reason !== 'changed-on-disk') throw new Error('expected a refusal');
    expect(stale.externalDiff.split('\n').filter((l) => /^[+-] /.test(l))).toEqual([
      '-  gateway: { port: 18789, bind: "loopback" },',
      '+  gateway: { port: 4000, bind: "loopback" },',
    ]);
    expect(readFileSync(configPath, 'utf8')).toBe(external);
    // restore the backup the first save made (a guarded save against the current hash)
    const read = await call<ConfigReadResponse>('config.read', {});
    expect(read.backups.map((b) => readFileSync(b.file, 'utf8'))).toEqual([original]);
    const restored = await call<ConfigSaveResponse>('config.restore', {
      baseHash: read.hash,
      backupFile: read.backups[0]!.file,
    });
    expect(restored.ok).toBe(true);
    expect(readFileSync(configPath, 'utf8')).toBe(original);
  });

  it('config.save refuses a value the schema refuses (path in the message) and leaves the file alone', async () => {
    const { call, configPath, original } = setup();
    const { hash } = await call<ConfigReadResponse>('config.read', {});
    const bad = await call<ConfigSaveResponse>('config.save', {
      baseHash: hash,
      changes: [{ op: 'setPluginConfig', pluginId: 'recent-window', config: { budgetShare: 0.01 } }],
    });
    expect(bad).toMatchObject({ ok: false, reason: 'invalid' });
    expect(!bad.ok && bad.message).toContain('plugins.entries.recent-window.config.budgetShare must be >= 0.1');
    expect(readFileSync(configPath, 'utf8')).toBe(original);
    expect(existsSync(`${configPath}.backups`)).toBe(false);
  });

  it('config.tryLanes: a saved and an edited lane; the edited plugin config is in a temporary file only', async () => {
    const { call, configPath, original } = setup();
    const { hash } = await call<ConfigReadResponse>('config.read', {});
    const lanes = await call<ConfigTryLanesResponse>('config.tryLanes', {
      baseHash: hash,
      changes: [
        ...slotToRecentWindow,
        { op: 'setPluginConfig', pluginId: 'recent-window', config: { budgetShare: 0.5 } },
      ],
    });
    expect(lanes.saved.spec).toBe('legacy?label=saved%20config');
    expect(lanes.edited.engineId).toBe('recent-window');
    expect(JSON.parse(readFileSync(lanes.edited.configFile!, 'utf8'))).toEqual({ budgetShare: 0.5 });
    expect(lanes.edited.configFile!.startsWith(join(configPath, '..'))).toBe(false);
    expect(readFileSync(configPath, 'utf8')).toBe(original);
  });
});
