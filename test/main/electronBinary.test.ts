import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../main/electronBinary';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'contextscope-electron-bin-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function installElectronPackage({ pathTxt, binary }: { pathTxt?: string; binary?: boolean }) {
  const dir = path.join(root, 'node_modules', 'electron');
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  if (pathTxt) writeFileSync(path.join(dir, 'path.txt'), pathTxt);
  if (binary && pathTxt) {
    writeFileSync(path.join(dir, 'dist', pathTxt), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'dist', pathTxt), 0o755);
  }
}

describe('findElectronBinary', () => {
  it('reports a package installed without its binary (no path.txt) — the case on machines without GitHub', () => {
    installElectronPackage({});
    expect(findElectronBinary(root, {})).toEqual({
      found: false,
      reason: 'the Electron binary was never downloaded: node_modules/electron/path.txt is missing',
    });
  });

  it('reports a missing package', () => {
    expect(findElectronBinary(root, {})).toEqual({ found: false, reason: 'the electron package is not installed' });
  });

  it('finds the downloaded binary named by path.txt', () => {
    installElectronPackage({ pathTxt: 'electron', binary: true });
    expect(findElectronBinary(root, {})).toEqual({
      found: true,
      path: path.join(root, 'node_modules', 'electron', 'dist', 'electron'),
    });
  });

  it('reports path.txt pointing at a deleted binary', () => {
    installElectronPackage({ pathTxt: 'electron' });
    expect(findElectronBinary(root, {})).toMatchObject({
      found: false,
      reason: expect.stringContaining('the Electron binary is missing'),
    });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    installElectronPackage({});
    const dist = path.join(root, 'my-electron');
    mkdirSync(dist);
    writeFileSync(path.join(dist, 'electron'), '');
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toEqual({
      found: true,
      path: path.join(dist, 'electron'),
    });
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: path.join(root, 'nowhere') })).toMatchObject({
      found: false,
    });
  });

  it('honours ELECTRON_EXEC_PATH first', () => {
    const exe = path.join(root, 'electron-exe');
    writeFileSync(exe, '');
    expect(findElectronBinary(root, { ELECTRON_EXEC_PATH: exe })).toEqual({ found: true, path: exe });
    expect(findElectronBinary(root, { ELECTRON_EXEC_PATH: `${exe}-missing` })).toEqual({
      found: false,
      reason: `ELECTRON_EXEC_PATH points to ${exe}-missing, which does not exist`,
    });
  });
});
