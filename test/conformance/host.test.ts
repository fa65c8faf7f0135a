/** Behaviour §14.30–33: host requirements. */
import { describe, expect, it } from 'vitest';
import type { ContextEngineInfo } from '../../src/contract';
import {
  assertContextEngineHostSupport,
  CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
  cliContextEngineHost,
  agentHarnessContextEngineHost,
  evaluateContextEngineHostSupport,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
} from '../../src/runtime';

const needsPrompt: ContextEngineInfo = {
  id: 'prompt-owner',
  name: 'Prompt Owner',
  hostRequirements: { 'agent-run': { requiredCapabilities: ['assemble-before-prompt'] } },
};

/** The message `fn` throws (fails the test when it does not throw). */
function thrownMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the call to throw');
}

describe('conformance: host requirements', () => {
  it('§14.30 assemble-before-prompt on a generic CLI host throws "Context engine "<id>" cannot run operation "agent-run" on CLI backend "<id>"."', () => {
    const host = cliContextEngineHost('claude-cli');
    const message = thrownMessage(() =>
      assertContextEngineHostSupport({ contextEngineInfo: needsPrompt, operation: 'agent-run', host }),
    );
    expect(
      message.startsWith('Context engine "prompt-owner" cannot run operation "agent-run" on CLI backend "claude-cli".'),
    ).toBe(true);
    expect(message).toBe(
      'Context engine "prompt-owner" cannot run operation "agent-run" on CLI backend "claude-cli". ' +
        'Missing host capabilities: assemble-before-prompt. Required capabilities: assemble-before-prompt. ' +
        'Host capabilities: bootstrap, after-turn, maintain.',
    );
  });

  it('§14.31 the same engine on the embedded host (openclaw-embedded) passes', () => {
    expect(OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST.id).toBe('openclaw-embedded');
    expect(() =>
      assertContextEngineHostSupport({
        contextEngineInfo: needsPrompt,
        operation: 'agent-run',
        host: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
      }),
    ).not.toThrow();
    expect(() =>
      assertContextEngineHostSupport({
        contextEngineInfo: needsPrompt,
        operation: 'agent-run',
        host: CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
      }),
    ).not.toThrow();
  });

  it('§14.32 empty requiredCapabilities are supported by every host', () => {
    const info: ContextEngineInfo = {
      id: 'easy',
      name: 'Easy',
      hostRequirements: { 'agent-run': { requiredCapabilities: [] } },
    };
    for (const host of [
      OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
      CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
      cliContextEngineHost('x'),
      agentHarnessContextEngineHost('h'),
    ]) {
      expect(evaluateContextEngineHostSupport({ contextEngineInfo: info, operation: 'agent-run', host })).toEqual({
        ok: true,
        required: [],
        missing: [],
      });
      expect(() =>
        assertContextEngineHostSupport({ contextEngineInfo: info, operation: 'agent-run', host }),
      ).not.toThrow();
    }
  });

  it('§14.33 a host with zero capabilities ends "Host capabilities: (none)." then " " + unsupportedMessage', () => {
    const info: ContextEngineInfo = {
      id: 'picky',
      name: 'Picky',
      hostRequirements: {
        'agent-run': {
          requiredCapabilities: ['assemble-before-prompt', 'compact'],
          unsupportedMessage: 'Use the embedded runner.',
        },
      },
    };
    const host = agentHarnessContextEngineHost('bare');
    expect(
      thrownMessage(() => assertContextEngineHostSupport({ contextEngineInfo: info, operation: 'agent-run', host })),
    ).toBe(
      'Context engine "picky" cannot run operation "agent-run" on agent harness "bare". ' +
        'Missing host capabilities: assemble-before-prompt, compact. Required capabilities: assemble-before-prompt, compact. ' +
        'Host capabilities: (none). Use the embedded runner.',
    );
    const withoutMessage: ContextEngineInfo = {
      ...info,
      hostRequirements: { 'agent-run': { requiredCapabilities: ['compact'] } },
    };
    expect(
      thrownMessage(() =>
        assertContextEngineHostSupport({ contextEngineInfo: withoutMessage, operation: 'agent-run', host }),
      ),
    ).toBe(
      'Context engine "picky" cannot run operation "agent-run" on agent harness "bare". ' +
        'Missing host capabilities: compact. Required capabilities: compact. Host capabilities: (none).',
    );
  });
});
