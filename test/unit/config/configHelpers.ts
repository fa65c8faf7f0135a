/** Temporary copies of the config fixtures and an environment whose discovery sees only the bundled plugins. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ConfigEnvironment } from '../../../src/config';

export const FIXTURES = resolve(import.meta.dirname, '../../fixtures/config');

const temps: string[] = [];

export function tempDir(prefix = 'cs-config-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

export function cleanTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A copy of test/fixtures/config/<name> in a temporary folder; returns the folder. */
export function copyFixture(name: string): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** Discovery sees the bundled sample plugins and an empty state dir (nothing from the machine's ~/.openclaw). */
export function testEnvironment(): ConfigEnvironment {
  return { stateDir: tempDir('cs-state-'), env: { HOME: tempDir('cs-home-') } };
}
