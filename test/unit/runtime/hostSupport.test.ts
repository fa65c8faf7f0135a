import { describe, expect, it } from 'vitest';
import type { ContextEngineInfo } from '../../../src/contract';
import {
  agentHarnessContextEngineHost,
  assertContextEngineHostSupport,
  cliCompactionContextEngineHost,
  cliContextEngineHost,
  CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
  ContextEngineHostUnsupportedError,
  evaluateContextEngineHostSupport,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  shouldAssertContextEngineHostSupport,
} from '../../../src/runtime';

describe('built-in hosts', () => {
  it('have OpenClaw’s ids, labels and capabilities', () => {
    expect(OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST).toEqual({
      id: 'openclaw-embedded',
      label: 'OpenClaw embedded runner',
      capabilities: [
        'bootstrap',
        'assemble-before-prompt',
        'reference-context',
        'after-turn',
        'maintain',
        'compact',
        'runtime-llm-complete',
      ],
    });
    expect(CODEX_APP_SERVER_CONTEXT_ENGINE_HOST).toEqual({
      id: 'codex-app-server',
      label: 'Codex app-server harness',
      capabilities: [...OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST.capabilities, 'thread-bootstrap-projection'],
    });
    expect(cliContextEngineHost('claude')).toEqual({
      id: 'cli:claude',
      label: 'CLI backend "claude"',
      capabilities: ['bootstrap', 'after-turn', 'maintain'],
    });
    expect(cliContextEngineHost('x', ['compact']).capabilities).toEqual(['compact']);
    expect(cliCompactionContextEngineHost('claude')).toEqual({
      id: 'cli:claude',
      label: 'CLI backend "claude"',
      capabilities: ['compact', 'maintain'],
    });
    expect(agentHarnessContextEngineHost('h')).toEqual({
      id: 'agent-harness:h',
      label: 'agent harness "h"',
      capabilities: [],
    });
  });
});

describe('evaluate / assert', () => {
  const info: ContextEngineInfo = {
    id: 'e',
    name: 'E',
    hostRequirements: { 'agent-run': { requiredCapabilities: ['compact', 'thread-bootstrap-projection', 'maintain'] } },
  };

  it('lists missing capabilities in requirement order and only checks the asked operation', () => {
    expect(
      evaluateContextEngineHostSupport({
        contextEngineInfo: info,
        operation: 'agent-run',
        host: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
      }),
    ).toEqual({
      ok: false,
      required: ['compact', 'thread-bootstrap-projection', 'maintain'],
      missing: ['thread-bootstrap-projection'],
    });
    expect(
      evaluateContextEngineHostSupport({
        contextEngineInfo: info,
        operation: 'manual-compact',
        host: agentHarnessContextEngineHost('h'),
      }).ok,
    ).toBe(true);
    expect(
      evaluateContextEngineHostSupport({
        contextEngineInfo: { id: 'n', name: 'N' },
        operation: 'agent-run',
        host: agentHarnessContextEngineHost('h'),
      }).ok,
    ).toBe(true);
  });

  it('throws a typed, fail-closed error carrying the evaluation', () => {
    let caught: unknown;
    try {
      assertContextEngineHostSupport({
        contextEngineInfo: info,
        operation: 'agent-run',
        host: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextEngineHostUnsupportedError);
    expect(caught).toMatchObject({
      code: 'context_engine_host_unsupported',
      engineId: 'e',
      operation: 'agent-run',
      hostId: 'openclaw-embedded',
      missing: ['thread-bootstrap-projection'],
    });
  });

  it('the check is skipped for the legacy engine', () => {
    expect(shouldAssertContextEngineHostSupport({ id: 'legacy', name: 'Legacy Context Engine' })).toBe(false);
    expect(shouldAssertContextEngineHostSupport({ id: 'lossless', name: 'L' })).toBe(true);
  });
});
