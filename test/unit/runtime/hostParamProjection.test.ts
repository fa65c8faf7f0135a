import { describe, expect, it } from 'vitest';
import { projectContextEngineHostParams } from '../../../src/runtime';

const signal = new AbortController().signal;
const params = {
  sessionId: 's',
  messages: [],
  tokenBudget: 10,
  sessionKey: 'k',
  prompt: 'p',
  runtimeSettings: {},
  sessionTarget: {},
  runtimeContext: {},
  abortSignal: signal,
};

describe('projectContextEngineHostParams', () => {
  it('passes everything through when acceptedHostParams is undefined (same object)', () => {
    expect(projectContextEngineHostParams('assemble', params, undefined)).toBe(params);
  });

  it('keeps native params and only the declared host keys', () => {
    expect(projectContextEngineHostParams('assemble', params, ['prompt', 'sessionTarget'])).toEqual({
      sessionId: 's',
      messages: [],
      tokenBudget: 10,
      prompt: 'p',
      sessionTarget: {},
    });
  });

  it('always keeps abortSignal on compact, and on maintain only when declared', () => {
    expect(projectContextEngineHostParams('compact', params, [])).toEqual({
      sessionId: 's',
      messages: [],
      tokenBudget: 10,
      abortSignal: signal,
    });
    expect(projectContextEngineHostParams('maintain', params, [])).toEqual({
      sessionId: 's',
      messages: [],
      tokenBudget: 10,
    });
    expect(projectContextEngineHostParams('maintain', params, ['abortSignal'])).toMatchObject({ abortSignal: signal });
  });

  it('leaves non-object params alone', () => {
    expect(projectContextEngineHostParams('dispose', undefined, [])).toBeUndefined();
  });
});
