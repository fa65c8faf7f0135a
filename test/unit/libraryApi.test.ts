/**
 * The public library surface (src/index.ts) keeps OpenClaw's names: plugin authors and scripts import these.
 * Removing or renaming one is a breaking change, so the list is explicit.
 */
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index';

const FUNCTIONS = [
  // runtime (issue 3)
  'createContextRuntime',
  'describeContextEngineContractError',
  'buildContextEngineRuntimeSettings',
  'evaluateContextEngineHostSupport',
  'assertContextEngineHostSupport',
  'cliContextEngineHost',
  'prependSystemPromptAddition',
  'computePromptPrecheck',
  'resolveCompactionSettings',
  // sessions, tokens, legacy (issue 4)
  'readSessionFile',
  'buildSessionContext',
  'writeSessionFile',
  'estimateMessageTokens',
  'estimatePrecheckTokens',
  'countTokens',
  'shouldCompact',
  'findCutPoint',
  'convertToLlm',
  'createLegacyContextEngine',
  'delegateCompactionToRuntime',
  'generateSession',
  // plugins (issue 5)
  'discoverPlugins',
  'loadPlugin',
  'runDoctor',
  'createConsentStore',
] as const;

describe('library API (src/index.ts)', () => {
  it.each(FUNCTIONS)('exports %s as a function', (name) => {
    expect(typeof (lib as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the host constants with OpenClaw’s ids', () => {
    expect(lib.OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST.id).toBe('openclaw-embedded');
    expect(lib.CODEX_APP_SERVER_CONTEXT_ENGINE_HOST.id).toBe('codex-app-server');
  });

  it('a runtime created from the library resolves the built-in legacy engine by default', async () => {
    const runtime = lib.createContextRuntime({ logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const engine = await runtime.resolveContextEngine({});
    expect(engine.info).toEqual(lib.LEGACY_ENGINE_INFO);
  });
});
