/**
 * The timestamp stamps of the "as sent" view, as each release puts them on the wire: 2026.6.5+ stamps user messages
 * at the LLM boundary from their own timestamps, except text that already carries an envelope, a cron message's
 * `Current time: ` marker, an inter-session message or empty text; 2026.5.2 sends the stored text unstamped (the
 * differential's recorded 5.2 run checks the same on the real wire).
 */
import { describe, expect, it } from 'vitest';
import { shapeWireView, wireProfileFor } from '../../../src/replay/wire';

const AT = Date.UTC(2026, 11, 7, 4, 26);
const user = (content: unknown) => ({ role: 'user', content, timestamp: AT });
const STAMP = '[Mon 2026-12-07 04:26 UTC] ';

function prefixes(version: string, messages: unknown[]): (string | undefined)[] {
  const sources = messages.map((message, i) => ({ key: `m${i}`, message }));
  const view = shapeWireView(sources.slice(0, -1), sources.at(-1)!, {
    profile: wireProfileFor(version),
    agentId: 'main',
    sessionKey: null,
    sessionId: 's',
  });
  return view.messages.filter((m) => m.origin !== 'host').map((m) => m.prefix);
}

describe('timestamp stamps on the wire', () => {
  const messages = [
    user('Hello'),
    user([{ type: 'text', text: '[Sun 2026-12-06 09:00 UTC] from a channel' }]),
    user('Cron job ran. Current time: 2026-12-07 04:26'),
    user('[Inter-session message] from another agent'),
    user('   '),
    user([{ type: 'text', text: 'the prompt' }]),
  ];

  it('2026.6.5 and later stamp plain user text and leave envelopes, cron, inter-session and empty text alone', () => {
    for (const version of ['2026.6.5', '2026.6.11', '2026.7.35', '2026.9.6']) {
      expect(prefixes(version, messages)).toEqual([STAMP, undefined, undefined, undefined, undefined, STAMP]);
    }
  });

  it('2026.6.1 and earlier send the stored text as it is', () => {
    for (const version of ['2026.4.25', '2026.5.2', '2026.6.1']) {
      expect(prefixes(version, messages)).toEqual(messages.map(() => undefined));
    }
  });
});
