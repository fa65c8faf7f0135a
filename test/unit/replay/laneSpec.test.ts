import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { laneConfigFromSpec, LaneSpecError, parseHostSpec, parseLaneSpec } from '../../../src/replay';
import { tempDir } from './sessionBuilder';

describe('lane specs', () => {
  it('parses legacy with per-lane options', () => {
    expect(parseLaneSpec('legacy')).toEqual({ kind: 'legacy', spec: 'legacy' });
    expect(parseLaneSpec('legacy?window=32000&reserve=0&host=cli:claude&label=small')).toEqual({
      kind: 'legacy',
      spec: 'legacy?window=32000&reserve=0&host=cli:claude&label=small',
      window: 32000,
      reserve: 0,
      host: 'cli:claude',
      label: 'small',
    });
  });

  it('parses plugin lanes by path or id with config and engine', () => {
    expect(parseLaneSpec('plugin:./plugins/tree?config=cfg.json&engine=tree-v2')).toEqual({
      kind: 'plugin',
      spec: 'plugin:./plugins/tree?config=cfg.json&engine=tree-v2',
      plugin: './plugins/tree',
      configFile: 'cfg.json',
      engineId: 'tree-v2',
    });
    expect(parseLaneSpec('plugin:summary-tree')).toMatchObject({ kind: 'plugin', plugin: 'summary-tree' });
    expect(parseLaneSpec('plugin:/a%26b?config=x%3Fy.json')).toMatchObject({ plugin: '/a&b', configFile: 'x?y.json' });
  });

  it('rejects malformed specs with a message naming the problem', () => {
    expect(() => parseLaneSpec('lossless')).toThrow(
      'Invalid lane spec "lossless": it must start with "legacy" or "plugin:"',
    );
    expect(() => parseLaneSpec('plugin:')).toThrow('plugin: needs a path or a plugin id');
    expect(() => parseLaneSpec('legacy?engine=x')).toThrow(
      'unknown option "engine". legacy lanes accept window, reserve, host, label.',
    );
    expect(() => parseLaneSpec('legacy?window=0')).toThrow('window=0 must be a positive whole number of tokens');
    expect(() => parseLaneSpec('legacy?window=1&window=2')).toThrow('option "window" is given twice');
    expect(() => parseLaneSpec('plugin:x?config=')).toThrow('option "config" needs a value');
    expect(() => parseLaneSpec('legacy?host=ssh')).toThrow(LaneSpecError);
  });

  it('parses hosts', () => {
    expect(parseHostSpec('embedded')).toBe('embedded');
    expect(parseHostSpec('codex')).toBe('codex');
    expect(parseHostSpec(' cli:gemini ')).toBe('cli:gemini');
    expect(parseHostSpec('agent-harness:h1')).toBe('agent-harness:h1');
    expect(() => parseHostSpec('cli:')).toThrow(
      'Invalid host "cli:": use embedded, codex, cli:<backendId> or agent-harness:<id>.',
    );
  });

  it('turns a spec into a lane config, reading the plugin config as JSON5', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'cfg.json5'), '{ // comment\n freshTailTokens: 4000, }');
    const lane = laneConfigFromSpec('plugin:./p?config=cfg.json5&window=64000', {
      contextWindow: 32000,
      reserveTokens: 1000,
      host: 'codex',
      baseDir: dir,
    });
    expect(lane).toEqual({
      label: 'p@64000',
      spec: 'plugin:./p?config=cfg.json5&window=64000',
      contextWindow: 64000,
      reserveTokens: 1000,
      host: 'codex',
      engine: { kind: 'plugin', plugin: join(dir, 'p'), pluginConfig: { freshTailTokens: 4000 } },
    });
    expect(laneConfigFromSpec('legacy', { contextWindow: 8000 })).toEqual({
      label: 'legacy',
      spec: 'legacy',
      contextWindow: 8000,
      engine: { kind: 'legacy' },
    });
    expect(() => laneConfigFromSpec('plugin:x?config=missing.json', { contextWindow: 1, baseDir: dir })).toThrow(
      `Lane "plugin:x?config=missing.json": cannot read the plugin config ${join(dir, 'missing.json')}`,
    );
    writeFileSync(join(dir, 'arr.json'), '[1]');
    expect(() => laneConfigFromSpec('plugin:x?config=arr.json', { contextWindow: 1, baseDir: dir })).toThrow(
      'must hold a JSON object',
    );
  });
});
