import { describe, expect, it } from 'vitest';
import {
  buildContextEngineRuntimeSettings,
  normalizeRuntimeSettingsReason,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
} from '../../../src/runtime';

describe('normalizeRuntimeSettingsReason', () => {
  it.each([
    ['provider_timeout', 'provider_timeout'],
    ['rate_limited', 'rate_limited'],
    ['unknown', 'unknown'],
    ['Request TIMEOUT after 30s', 'provider_timeout'],
    ['rate exceeded', 'rate_limited'],
    ['quota limit', 'rate_limited'],
    ['HTTP 429', 'rate_limited'],
    ['context window overflow', 'context_overflow'],
    ['memory pressure', 'context_overflow'],
    ['runtime crashed', 'runtime_unavailable'],
    ['primary model down', 'provider_unavailable'],
    ['service unavailable', 'provider_unavailable'],
    ['something odd', 'unknown'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeRuntimeSettingsReason(input)).toBe(expected);
  });

  it('maps empty and non-string values to null', () => {
    expect(normalizeRuntimeSettingsReason('')).toBeNull();
    expect(normalizeRuntimeSettingsReason(undefined)).toBeNull();
    expect(normalizeRuntimeSettingsReason(429)).toBeNull();
  });
});

describe('buildContextEngineRuntimeSettings', () => {
  it('fills every field from the embedded runner’s inputs, trimming strings', () => {
    expect(
      buildContextEngineRuntimeSettings({
        harnessId: ' pi ',
        runtimeId: 'run-1',
        requestedModel: 'gpt-x',
        resolvedModel: 'gpt-x',
        provider: 'openai',
        modelFamily: 'gpt',
        selectedContextEngineId: 'lossless',
        contextEngineSelectionSource: 'default',
        promptTokenBudget: 100_000,
        maxOutputTokens: 16_384,
        contextEngineHost: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
      }),
    ).toEqual({
      schemaVersion: 1,
      runtime: { host: 'openclaw', mode: 'normal', harnessId: 'pi', runtimeId: 'run-1' },
      model: { requested: 'gpt-x', resolved: 'gpt-x', provider: 'openai', family: 'gpt' },
      contextEngineSelection: { selectedId: 'lossless', source: 'default' },
      executionHost: { id: 'openclaw-embedded', label: 'OpenClaw embedded runner' },
      limits: { promptTokenBudget: 100_000, maxOutputTokens: 16_384 },
      diagnostics: { fallbackReason: null, degradedReason: null },
    });
  });

  it('an explicit mode wins; degraded beats fallback; the other reason is not nulled', () => {
    expect(buildContextEngineRuntimeSettings({ mode: 'normal', degradedReason: 'timeout' }).runtime.mode).toBe(
      'normal',
    );
    const both = buildContextEngineRuntimeSettings({ fallbackReason: 'rate', degradedReason: 'overflow' });
    expect(both.runtime.mode).toBe('degraded');
    expect(both.diagnostics).toEqual({ fallbackReason: 'rate_limited', degradedReason: 'context_overflow' });
  });

  it('infinite numbers become null', () => {
    expect(
      buildContextEngineRuntimeSettings({ maxOutputTokens: Number.POSITIVE_INFINITY }).limits.maxOutputTokens,
    ).toBeNull();
  });
});
