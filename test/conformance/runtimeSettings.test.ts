/** Behaviour §14.34–38: buildContextEngineRuntimeSettings. */
import { describe, expect, it } from 'vitest';
import { buildContextEngineRuntimeSettings } from '../../src/runtime';

describe('conformance: runtimeSettings', () => {
  it('§14.34 requestedModel "a", resolvedModel "b" and no reasons give mode "fallback" with both reasons null', () => {
    const settings = buildContextEngineRuntimeSettings({ requestedModel: 'a', resolvedModel: 'b' });
    expect(settings.runtime.mode).toBe('fallback');
    expect(settings.diagnostics).toEqual({ fallbackReason: null, degradedReason: null });
    expect(settings.model).toEqual({ requested: 'a', resolved: 'b', provider: null, family: null });
  });

  it('§14.35 degradedReason "HTTP 429 from provider" normalises to rate_limited and mode "degraded"', () => {
    const settings = buildContextEngineRuntimeSettings({ degradedReason: 'HTTP 429 from provider' });
    expect(settings.diagnostics.degradedReason).toBe('rate_limited');
    expect(settings.runtime.mode).toBe('degraded');
  });

  it('§14.36 fallbackReason "weird" normalises to "unknown"; "  " to null', () => {
    const weird = buildContextEngineRuntimeSettings({ fallbackReason: 'weird' });
    expect(weird.diagnostics.fallbackReason).toBe('unknown');
    expect(weird.runtime.mode).toBe('fallback');
    const blank = buildContextEngineRuntimeSettings({ fallbackReason: '  ' });
    expect(blank.diagnostics.fallbackReason).toBeNull();
    expect(blank.runtime.mode).toBe('normal');
  });

  it('§14.37 selectedContextEngineId "x" without a source gives "configured"; no id and no source gives "unknown"', () => {
    expect(buildContextEngineRuntimeSettings({ selectedContextEngineId: 'x' }).contextEngineSelection).toEqual({
      selectedId: 'x',
      source: 'configured',
    });
    expect(buildContextEngineRuntimeSettings({}).contextEngineSelection).toEqual({
      selectedId: null,
      source: 'unknown',
    });
  });

  it('§14.38 promptTokenBudget NaN becomes null; schemaVersion is 1 and runtime.host "openclaw"', () => {
    const settings = buildContextEngineRuntimeSettings({ promptTokenBudget: Number.NaN });
    expect(settings).toEqual({
      schemaVersion: 1,
      runtime: { host: 'openclaw', mode: 'normal', harnessId: null, runtimeId: null },
      model: { requested: null, resolved: null, provider: null, family: null },
      contextEngineSelection: { selectedId: null, source: 'unknown' },
      executionHost: { id: null, label: null },
      limits: { promptTokenBudget: null, maxOutputTokens: null },
      diagnostics: { fallbackReason: null, degradedReason: null },
    });
  });
});
