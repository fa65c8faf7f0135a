/**
 * `like` nodes (src/plugins/host/wireLike.ts): a message the app sends for the first time that is a shallow copy
 * of one the engine host holds (OpenClaw's sanitize steps spread a message to rewrite a tool-call id or drop
 * `details`) crosses as what it does not share with it, and the engine host's copy shares the rest with its
 * original as the app's does. Invalid like nodes are refused with a message saying what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { MessageRefTable } from '../../../src/plugins/host/messageRefTable';
import { DATA_ONLY_DECODE, DATA_ONLY_ENCODE, decodeWire, encodeWire } from '../../../src/plugins/host/wireCodec';

/** the app (parent) and an engine host (child) table, and the JSON text of each payload sent to the child */
function channel() {
  const parent = new MessageRefTable('parent');
  const child = new MessageRefTable('child');
  const wire: string[] = [];
  const toChild = (value: unknown): any => {
    const enc = parent.beginEncode();
    const json = JSON.stringify(encodeWire(value, { ...DATA_ONLY_ENCODE, side: 'parent', messageRefs: enc }));
    enc.commit();
    wire.push(json);
    const dec = child.beginDecode();
    const out = decodeWire(JSON.parse(json), { ...DATA_ONLY_DECODE, side: 'child', messageRefs: dec });
    dec.commit();
    return out;
  };
  return { parent, child, wire, toChild };
}

/** decodes a hand-written payload on the engine-host side, after `c` sent its earlier payloads */
function childDecodes(c: ReturnType<typeof channel>, node: unknown): unknown {
  const dec = c.child.beginDecode();
  const out = decodeWire(node, { ...DATA_ONLY_DECODE, side: 'child', messageRefs: dec });
  dec.commit();
  return out;
}

const longText = 'a tool result of some length '.repeat(40);
const raw = {
  role: 'toolResult',
  toolCallId: 'call_abc_1',
  toolName: 'read',
  content: [{ type: 'text', text: longText }],
  details: { bytes: 1200 },
  isError: false,
  timestamp: 5,
};
const assistant = {
  role: 'assistant',
  content: [
    { type: 'text', text: `Reading it. ${longText}` },
    { type: 'toolCall', id: 'call_abc_1', name: 'read', arguments: { path: 'README.md' } },
  ],
  usage: { input: 10, output: 3 },
  stopReason: 'toolUse',
  timestamp: 4,
};

/** what OpenClaw's sanitize steps make of them: ids rewritten, details stripped (shallow copies) */
function sanitized() {
  const { details: _details, ...rest } = raw;
  const result = { ...rest, toolCallId: 'callabc1' };
  const call = { ...assistant.content[1]!, id: 'callabc1' };
  const reply = { ...assistant, content: [assistant.content[0]!, call] };
  return { result, reply };
}

describe('like nodes', () => {
  it('sends a sanitized copy as its differences, decoding to an equal object that shares the rest', () => {
    const c = channel();
    const first = c.toChild({ messages: [assistant, raw] });
    const { result, reply } = sanitized();
    const second = c.toChild({ messages: [reply, result] });

    expect(second.messages).toEqual([reply, result]);
    expect(Object.keys(second.messages[1])).toEqual(Object.keys(result)); // key order kept, details gone
    // the engine host's copies share with its originals what the app's copies share with theirs
    expect(second.messages[1].content).toBe(first.messages[1].content);
    expect(second.messages[0].content[0]).toBe(first.messages[0].content[0]);
    expect(second.messages[0].content[1].arguments).toBe(first.messages[0].content[1].arguments);
    expect(second.messages[0].usage).toBe(first.messages[0].usage);

    const text = c.wire[1]!;
    expect(text).toContain('"$cs":"like"');
    expect(text).not.toContain('a tool result of some length');
    expect(text.length).toBeLessThan(c.wire[0]!.length / 4);
  });

  it('gives the copy its own id: sent again it is a reference to the copy, not to its base', () => {
    const c = channel();
    c.toChild({ messages: [raw] });
    const { result } = sanitized();
    const copy = c.toChild({ messages: [result] }).messages[0];
    const again = c.toChild({ messages: [result] }).messages[0];
    expect(again).toBe(copy);
    expect(c.wire[2]).not.toContain('like');
  });

  it('sends a new message that shares nothing with what was sent in full', () => {
    const c = channel();
    c.toChild({ messages: [raw] });
    const fresh = { role: 'user', content: 'unrelated', timestamp: 9 };
    expect(c.toChild({ messages: [fresh] }).messages).toEqual([fresh]);
    expect(c.wire[1]).not.toContain('like');
  });

  it('refuses a like node whose base the engine host does not hold, naming the reference', () => {
    const c = channel();
    expect(() =>
      childDecodes(c, { message: { $cs: 'like', base: { side: 'parent', id: 99 }, entries: ['role'] } }),
    ).toThrow('message reference parent#99 is unknown');
  });

  it('refuses entries that do not fit the base', () => {
    const c = channel();
    c.toChild({ messages: [raw] });
    const like = (entries: unknown) => ({ message: { $cs: 'like', base: { side: 'parent', id: 1 }, entries } });
    expect(() => childDecodes(c, like(['nope']))).toThrow('like entry "nope" names a key its base does not have');
    expect(() => childDecodes(c, like([42]))).toThrow('like entry must be a key or a [key, value] pair');
    expect(() => childDecodes(c, like('role'))).toThrow('like node entries must be an array');
    expect(() => childDecodes(c, like([['content', { $cs: 'likeArray', items: [{ $cs: 'at', i: 3 }] }]]))).toThrow(
      'likeArray item at "content" refers to element 3 of 1',
    );
    expect(() => childDecodes(c, like([['role', { $cs: 'likeArray', items: [] }]]))).toThrow(
      'likeArray node at "role": its base there is not an array',
    );
    expect(() => childDecodes(c, like([['details', { $cs: 'like', base: { side: 'parent', id: 1 } }]]))).toThrow(
      'a nested like node at "details" names its own base',
    );
    expect(() => childDecodes(c, { content: { $cs: 'likeArray', items: [] } })).toThrow(
      'a likeArray node may only appear inside a like node',
    );
  });

  it('keeps an own "__proto__" entry as data, never the prototype', () => {
    const c = channel();
    c.toChild({ messages: [raw] });
    const out = childDecodes(c, {
      message: { $cs: 'like', base: { side: 'parent', id: 1 }, entries: ['role', ['__proto__', { polluted: true }]] },
    }) as { message: Record<string, unknown> };
    expect(Object.getPrototypeOf(out.message)).toBe(Object.prototype);
    expect(Object.keys(out.message)).toEqual(['role', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is accepted only from the app', () => {
    const parent = new MessageRefTable('parent');
    const dec = parent.beginDecode();
    expect(() =>
      decodeWire(
        { message: { $cs: 'like', base: { side: 'parent', id: 1 }, entries: [] } },
        { ...DATA_ONLY_DECODE, side: 'parent', messageRefs: dec },
      ),
    ).toThrow('like nodes are accepted only from the app');
  });

  it('reports a cycle in a copy as a circular structure', () => {
    const c = channel();
    c.toChild({ messages: [raw] });
    const { result } = sanitized();
    const block = { type: 'text', text: 'x', self: undefined as unknown };
    block.self = block;
    const cyclic = { ...result, content: [raw.content[0], block] };
    expect(() => c.toChild({ messages: [cyclic] })).toThrow(/circular structure at \$\.messages\[0\]\.content\[1\]/);
  });
});
