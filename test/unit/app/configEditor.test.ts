/**
 * The config editor's own state, on real copies of the config fixtures: the texts it read (a save refused because
 * the file changed on disk shows what changed only against a text this editor read), its try-before-save folders
 * (the newest few kept, the rest removed) and the request it refuses. The config.* bridge tests are in
 * test/unit/config/configHandlers.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfigEditor } from '../../../src/app';
import { cleanTemps, copyFixture, tempDir } from '../config/configHelpers';

afterEach(cleanTemps);

function setup() {
  const configPath = join(copyFixture('realistic'), 'openclaw.json');
  const location = { configPath, stateDir: tempDir('cs-state-') };
  const tempRoot = tempDir('cs-try-');
  const options = { consentFile: join(tempDir(), 'consent.json'), tempRoot };
  return { configPath, location, tempRoot, editor: createConfigEditor(options), options };
}

const setWindow = [{ op: 'setContextWindow' as const, tokens: 64000 }];

describe('the config editor', () => {
  it('shows what changed on disk against the text it read; another editor, which never read it, cannot', () => {
    const { configPath, location, editor, options } = setup();
    const { hash } = editor.read(location);
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('port: 18789', 'port: 4000'));

    const refused = editor.save({ ...location, baseHash: hash, changes: setWindow });
    expect(refused).toMatchObject({ ok: false, reason: 'changed-on-disk' });
    expect(!refused.ok && refused.reason === 'changed-on-disk' && refused.externalDiff).toContain(
      '+  gateway: { port: 4000, bind: "loopback" },',
    );
    const stranger = createConfigEditor(options).save({ ...location, baseHash: hash, changes: setWindow });
    expect(stranger).toMatchObject({ ok: false, reason: 'changed-on-disk', externalDiff: '' });
  });

  it('keeps the newest four try-before-save folders and removes older ones', () => {
    const { location, tempRoot, editor } = setup();
    const { hash } = editor.read(location);
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const before = new Set(readdirSync(tempRoot));
      editor.tryLanes({ ...location, baseHash: hash, changes: setWindow });
      made.push(...readdirSync(tempRoot).filter((dir) => !before.has(dir)));
    }
    expect(made).toHaveLength(6);
    expect(readdirSync(tempRoot).sort()).toEqual(made.slice(2).sort());
  });

  it('refuses form changes and raw text together, naming /text', () => {
    const { location, editor } = setup();
    const { hash, text } = editor.read(location);
    expect(() => editor.preview({ ...location, baseHash: hash, changes: setWindow, text })).toThrow(
      expect.objectContaining({ code: 'invalid_params', path: '/text', message: expect.stringMatching(/not both/) }),
    );
  });

  it('restores only one of the file’s own backups, naming /backupFile', () => {
    const { location, editor } = setup();
    const { hash } = editor.read(location);
    const backupFile = join(tempDir(), 'elsewhere.json5');
    writeFileSync(backupFile, '{}');
    expect(() => editor.restore({ ...location, baseHash: hash, backupFile })).toThrow(
      expect.objectContaining({ code: 'not_found', path: '/backupFile' }),
    );
  });
});
