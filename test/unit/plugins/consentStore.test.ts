/**
 * The consent store and the run-only consents (src/plugins/consent.ts), rule by rule: where the file lives, what a
 * damaged file gives, each decision's words, grants remembered and replaced, revoking, and the CLI's and the app's
 * run-only consents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  allowExecuteConsent,
  appConfigDir,
  confirmedConsent,
  createConsentStore,
  defaultConsentFile,
  denyAllConsent,
  noConsentMessage,
  type ConsentSubject,
} from '../../../src/plugins/consent';
import { hashPluginPackage, snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-consent-store-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function plugin(): ConsentSubject {
  const rootDir = join(tempDir(), 'engine');
  mkdirSync(rootDir);
  writeFileSync(join(rootDir, 'openclaw.plugin.json'), '{"id":"engine","configSchema":{}}');
  writeFileSync(join(rootDir, 'index.js'), 'module.exports = {};');
  return { id: 'engine', rootDir, realPath: rootDir, manifestPath: join(rootDir, 'openclaw.plugin.json'), entries: [] };
}

describe('where consent is kept', () => {
  it('in $CONTEXTSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/contextscope, else ~/.config/contextscope (Linux)', () => {
    expect(appConfigDir({ CONTEXTSCOPE_CONFIG_DIR: ' /cfg ', XDG_CONFIG_HOME: '/xdg', HOME: '/h' })).toBe('/cfg');
    expect(appConfigDir({ CONTEXTSCOPE_CONFIG_DIR: ' ', XDG_CONFIG_HOME: '/xdg', HOME: '/h' })).toBe(
      '/xdg/contextscope',
    );
    expect(appConfigDir({ XDG_CONFIG_HOME: ' ', HOME: ' /h ' })).toBe('/h/.config/contextscope');
    expect(defaultConsentFile({ CONTEXTSCOPE_CONFIG_DIR: '/cfg' })).toBe('/cfg/plugin-consent.json');
  });
});

describe('the consent file', () => {
  it('says where and how to recover when it is not JSON', () => {
    const file = join(tempDir(), 'consent.json');
    writeFileSync(file, '{ not json');
    expect(() => createConsentStore(file).check(plugin())).toThrow(
      new RegExp(
        `^the plugin consent file ${file} is not valid JSON \\(.+\\); fix or delete it to approve plugins again$`,
      ),
    );
  });

  it('keeps only well-formed grants: a hash is required, ids and dates are text, host grants are cleaned', () => {
    const file = join(tempDir(), 'consent.json');
    writeFileSync(
      file,
      JSON.stringify({
        grants: {
          '/a': { pluginId: 7, hash: 'h-a', grants: { childProcess: true, worker: 'yes', extra: true } },
          '/b': { pluginId: 'b' },
          '/c': { hash: 'h-c', grants: { worker: false } },
        },
      }),
    );
    expect(createConsentStore(file).list()).toEqual([
      { realPath: '/a', pluginId: '7', hash: 'h-a', grantedAt: '', grants: { childProcess: true } },
      { realPath: '/c', pluginId: '', hash: 'h-c', grantedAt: '' },
    ]);
  });

  it('is empty when its grants are missing or not an object', () => {
    for (const text of ['{}', '{"grants":[]}', '{"grants":"x"}', 'null']) {
      const file = join(tempDir(), 'consent.json');
      writeFileSync(file, text);
      expect(createConsentStore(file).list(), text).toEqual([]);
    }
  });
});

describe('the consent store', () => {
  it('approves a granted plugin, saying when, with the host grants remembered with it', () => {
    const subject = plugin();
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    const grant = store.grant(subject, undefined, { childProcess: true, worker: false });
    expect(grant).toMatchObject({ realPath: subject.realPath, pluginId: 'engine', grants: { childProcess: true } });
    expect(store.check(subject)).toEqual({
      granted: true,
      reason: `approved on ${grant.grantedAt}`,
      hash: hashPluginPackage(subject),
      snapshot: snapshotPluginPackage(subject),
      grants: { childProcess: true },
    });
  });

  it('replaces the host grants when granted again, and remembers none when given none', () => {
    const subject = plugin();
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    store.grant(subject, undefined, { worker: true });
    store.grant(subject);
    expect(store.check(subject).grants).toBeUndefined();
    expect(store.list()[0]!.grants).toBeUndefined();
  });

  it('refuses to remember a package that changed since the person reviewed it, and writes nothing', () => {
    const subject = plugin();
    const file = join(tempDir(), 'consent.json');
    const reviewed = hashPluginPackage(subject);
    writeFileSync(join(subject.rootDir, 'index.js'), 'module.exports = { changed: true };');
    const now = hashPluginPackage(subject);
    expect(() => createConsentStore(file).grant(subject, reviewed)).toThrow(
      `${subject.realPath} changed since its consent was asked for (content hash ${reviewed.slice(0, 12)} → ${now.slice(0, 12)}); nothing was approved. Review it and approve it again.`,
    );
    expect(statSync(file, { throwIfNoEntry: false })).toBeUndefined();
    expect(createConsentStore(file).grant(subject, now).hash).toBe(now);
  });

  it('revokes only what it has, and does not write the file for nothing', () => {
    const subject = plugin();
    const file = join(tempDir(), 'consent.json');
    const store = createConsentStore(file);
    expect(store.revoke(subject.realPath)).toBe(false);
    expect(statSync(file, { throwIfNoEntry: false })).toBeUndefined();
    store.grant(subject);
    const written = readFileSync(file, 'utf8');
    expect(store.revoke('/elsewhere')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(store.revoke(subject.realPath)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, grants: {} });
  });
});

describe('consent for one run', () => {
  it('--allow-execute approves every plugin, and a lane’s own grant request as asked', () => {
    const subject = plugin();
    expect(allowExecuteConsent().check(subject)).toEqual({
      granted: true,
      reason: 'allowed by --allow-execute',
      hash: hashPluginPackage(subject),
      snapshot: snapshotPluginPackage(subject),
      grantsAsRequested: true,
    });
  });

  it('deny-all lists the plugin and runs nothing', () => {
    const subject = plugin();
    expect(denyAllConsent().check(subject)).toEqual({
      granted: false,
      reason: noConsentMessage(subject.realPath),
      hash: hashPluginPackage(subject),
    });
  });

  it('a plugin confirmed in the app runs while its content is what was confirmed, with the grants confirmed', async () => {
    const subject = plugin();
    const hash = hashPluginPackage(subject);
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    const consent = confirmedConsent([{ realPath: subject.realPath, hash, grants: { worker: true } }], store);
    expect(await consent.check(subject)).toMatchObject({
      granted: true,
      reason: 'confirmed for this run',
      grants: { worker: true },
    });
    const plain = confirmedConsent([{ realPath: subject.realPath, hash }], store);
    expect((await plain.check(subject)).grants).toBeUndefined();
    writeFileSync(join(subject.rootDir, 'index.js'), 'module.exports = 2;');
    const changed = await consent.check(subject);
    expect(changed.granted).toBe(false);
    expect(changed.reason).toBe(
      `not executed: ${subject.realPath} changed since consent was confirmed (content hash ${hash.slice(0, 12)} → ${changed.hash.slice(0, 12)}); review it and confirm again`,
    );
  });

  it('any other plugin needs a remembered grant', async () => {
    const subject = plugin();
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    const consent = confirmedConsent([{ realPath: '/some/other', hash: 'x' }], store);
    expect((await consent.check(subject)).granted).toBe(false);
    store.grant(subject);
    expect((await consent.check(subject)).granted).toBe(true);
  });
});
