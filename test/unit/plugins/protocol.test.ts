import { describe, expect, it } from 'vitest';
import {
  RegisterReport,
  describeChildMessageViolation,
  describeParentMessageViolation,
  describeProtocolViolation,
} from '../../../src/plugins/host/protocol';

describe('engine-host protocol validation', () => {
  it('accepts well-formed messages in each direction', () => {
    expect(describeChildMessageViolation({ type: 'ready', protocol: 1, pid: 12, node: 'v20.20.2' })).toBeNull();
    expect(describeChildMessageViolation({ type: 'request', id: 1, op: 'delegateCompaction', args: [{}] })).toBeNull();
    expect(describeParentMessageViolation({ type: 'request', id: 3, op: 'callEngine', args: [] })).toBeNull();
    expect(describeParentMessageViolation({ type: 'cancel', id: 3, reason: 'deadline' })).toBeNull();
  });

  it('names what is wrong with a message from the child', () => {
    expect(describeChildMessageViolation('hello')).toBe('message is not an object');
    expect(describeChildMessageViolation({ type: 'bogus' })).toBe('unknown message type "bogus"');
    expect(describeChildMessageViolation({ type: 'log', level: 'info' })).toBe(
      '"log" message /message: Expected required property',
    );
    expect(describeChildMessageViolation({ type: 'pong', nonce: 1, extra: true })).toBe(
      '"pong" message /extra: Unexpected property',
    );
  });

  it('does not let the child ask for parent-only operations', () => {
    expect(describeChildMessageViolation({ type: 'request', id: 1, op: 'callEngine', args: [] })).toMatch(
      /^"request" message \/op: /,
    );
    expect(describeChildMessageViolation({ type: 'shutdown' })).toBe('unknown message type "shutdown"');
  });

  it('checks the decoded register report', () => {
    expect(
      describeProtocolViolation(RegisterReport, {
        entries: [],
        engines: [],
        tools: [],
        commands: [],
        hooks: [],
        stubs: [],
      }),
    ).toBeNull();
    expect(
      describeProtocolViolation(RegisterReport, {
        entries: [],
        engines: [{ seq: -1, pluginId: 'p', id: 'x', factoryIsFunction: true }],
        tools: [],
        commands: [],
        hooks: [],
        stubs: [],
      }),
    ).toBe('/engines/0/seq: Expected integer to be greater or equal to 0');
  });
});
