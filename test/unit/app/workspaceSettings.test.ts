/** The state dir every view reads: remembered in the app config dir's workspace.json, real folders and files. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseStateDir, readWorkspace, workspaceSettingsFile } from '../../../src/app';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-workspace-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('workspace settings (the state dir every view reads)', () => {
  it('uses $OPENCLAW_STATE_DIR, else ~/.openclaw, until a folder is chosen; the choice persists and can be forgotten', () => {
    const home = tempDir();
    const stateDir = join(home, 'custom-state');
    mkdirSync(stateDir);
    const settingsFile = join(tempDir(), 'workspace.json');
    const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };

    expect(readWorkspace({ env, settingsFile })).toMatchObject({
      stateDir,
      source: 'OPENCLAW_STATE_DIR',
      exists: true,
    });
    expect(readWorkspace({ env: { HOME: home }, settingsFile })).toMatchObject({
      stateDir: join(home, '.openclaw'),
      source: 'home',
      exists: false,
    });

    const chosen = join(home, 'other');
    mkdirSync(chosen);
    chooseStateDir(chosen, { env, settingsFile });
    // a fresh read (another window, a restart) sees the choice
    expect(readWorkspace({ env, settingsFile })).toMatchObject({
      stateDir: chosen,
      source: 'chosen',
      defaultStateDir: stateDir,
    });
    chooseStateDir(null, { env, settingsFile });
    expect(readWorkspace({ env, settingsFile }).stateDir).toBe(stateDir);
  });

  it('refuses a folder that does not exist, saying so, and keeps the previous choice', () => {
    const settingsFile = join(tempDir(), 'workspace.json');
    const env = { HOME: tempDir() };
    expect(() => chooseStateDir('/nonexistent/state', { env, settingsFile })).toThrow(
      /\/nonexistent\/state is not a folder/,
    );
    expect(readWorkspace({ env, settingsFile }).source).toBe('home');
  });

  it('keeps the choice in workspace.json of the app config dir ($CONTEXTSCOPE_CONFIG_DIR) when no file is named', () => {
    const configDir = tempDir();
    const chosen = tempDir();
    const env = { HOME: tempDir(), CONTEXTSCOPE_CONFIG_DIR: configDir };
    const info = chooseStateDir(chosen, { env });
    expect(info.settingsFile).toBe(workspaceSettingsFile(configDir));
    expect(JSON.parse(readFileSync(join(configDir, 'workspace.json'), 'utf8'))).toEqual({ stateDir: chosen });
  });

  it('reads a settings file it cannot parse as no choice', () => {
    const settingsFile = join(tempDir(), 'workspace.json');
    writeFileSync(settingsFile, '{ not json');
    const env = { HOME: tempDir() };
    expect(readWorkspace({ env, settingsFile })).toMatchObject({ source: 'home', settingsFile });
  });
});
