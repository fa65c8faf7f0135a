/**
 * Twins (src/plugins/host/wireTwin.ts): an engine that renders its summaries anew on every call returns fresh
 * objects equal to ones it returned before; the engine host sends such an object as a reference to the earlier one
 * (same role and timestamp, encoded exactly as that one was sent), so the app gets the object it already holds.
 */
import { describe, expect, it } from 'vitest';
import { MessageRefTable } from '../../../src/plugins/host/messageRefTable';
import { DATA_ONLY_DECODE, DATA_ONLY_ENCODE, decodeWire, encodeWire } from '../../../src/plugins/host/wireCodec';

function channel() {
  const parent = new MessageRefTable('parent');
  const child = new MessageRefTable('child');
  const wire: string[] = [];
  const cross = (value: unknown, from: MessageRefTable, to: MessageRefTable): any => {
    const enc = from.beginEncode();
    const json = JSON.stringify(encodeWire(value, { ...DATA_ONLY_ENCODE, side: from.side, messageRefs: enc }));
    enc.commit();
    wire.push(json);
    const dec = to.beginDecode();
    const out = decodeWire(JSON.parse(json), { ...DATA_ONLY_DECODE, side: to.side, messageRefs: dec });
    dec.commit();
    return out;
  };
  return {
    wire,
    toChild: (value: unknown) => cross(value, parent, child),
    toParent: (value: unknown) => cross(value, child, parent),
  };
}

const summary = (text: string, timestamp = 100) => ({
  role: 'user',
  content: [{ type: 'text', text: `[summary] ${text}` }],
  timestamp,
});

describe('engine-host twins', () => {
  it('sends a fresh summary equal to one sent before as a reference to it', () => {
    const c = channel();
    const first = c.toParent({ messages: [summary('old turns'), summary('later turns', 200)] });
    const second = c.toParent({ messages: [summary('old turns'), summary('later turns', 200)] });
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(second.messages[1]).toBe(first.messages[1]);
    expect(c.wire[1]).not.toContain('old turns');
    expect(c.wire[1]).toContain('"$cs":"refs"');
  });

  it('gives the engine its latest object back when the app returns the reference', () => {
    const c = channel();
    c.toParent({ messages: [summary('old turns')] });
    const latest = summary('old turns');
    const received = c.toParent({ messages: [latest] });
    const back = c.toChild({ messages: received.messages });
    expect(back.messages[0]).toBe(latest);
  });

  it('sends in full what differs in content, key order or a value JSON does not carry', () => {
    const c = channel();
    const first = c.toParent({ messages: [summary('old turns')] }).messages[0];
    const changed = c.toParent({ messages: [summary('old turns, and one more')] }).messages[0];
    expect(changed).not.toBe(first);
    expect(changed.content[0].text).toBe('[summary] old turns, and one more');
    const reordered = { timestamp: 100, role: 'user', content: [{ type: 'text', text: '[summary] old turns' }] };
    const third = c.toParent({ messages: [reordered] }).messages[0];
    expect(third).not.toBe(first);
    expect(Object.keys(third)).toEqual(['timestamp', 'role', 'content']);
    const withUndefined = { ...summary('old turns'), details: undefined };
    const fourth = c.toParent({ messages: [withUndefined] }).messages[0];
    expect(fourth).not.toBe(first);
    expect('details' in fourth).toBe(true);
  });

  it('compares with what was sent, not with the earlier object as the engine changed it since', () => {
    const c = channel();
    const earlier = summary('old turns');
    const sent = c.toParent({ messages: [earlier] }).messages[0];
    earlier.content[0]!.text = '[summary] rewritten in place';
    const fresh = c.toParent({ messages: [summary('rewritten in place')] }).messages[0];
    expect(fresh).not.toBe(sent);
    expect(fresh.content[0].text).toBe('[summary] rewritten in place');
    expect(sent.content[0].text).toBe('[summary] old turns');
  });
});
