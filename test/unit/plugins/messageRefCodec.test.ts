/**
 * The message reference cache in the wire codec: the app (parent) names the message objects it sends, sends
 * them again as references (runs as ranges), the engine host (child) decodes references to the SAME objects,
 * and objects the child got from the app travel back as references to the app's ORIGINAL objects.
 */
import { describe, expect, it } from 'vitest';
import { MessageRefTable, RELEASE_AFTER_PAYLOADS } from '../../../src/plugins/host/messageRefTable';
import { RpcPeer } from '../../../src/plugins/host/rpcPeer';
import {
  DATA_ONLY_DECODE,
  DATA_ONLY_ENCODE,
  WireFormatError,
  decodeWire,
  encodeWire,
} from '../../../src/plugins/host/wireCodec';

const msg = (content: string) => ({ role: 'user' as const, content, timestamp: 1 });

/** One channel: both tables, and the JSON text that crossed it for each payload. */
function channel() {
  const parent = new MessageRefTable('parent');
  const child = new MessageRefTable('child');
  const wire: string[] = [];
  const cross = (value: unknown, from: MessageRefTable, to: MessageRefTable): unknown => {
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
    parent,
    child,
    wire,
    toChild: (value: unknown) => cross(value, parent, child),
    toParent: (value: unknown) => cross(value, child, parent),
  };
}

/**
 * A payload as it crossed the channel, with the app's `json` wrappers (plain subtrees sent as they are, see
 * wireCodec.ts) taken off: these tests are about references, not that wrapper.
 */
function wireOf(text: string): any {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { $cs?: unknown }).$cs === 'json'
      ? (value as { value: unknown }).value
      : value,
  );
}

/** decodes a hand-written payload on the parent side (as from a hostile child) */
function parentDecodes(table: MessageRefTable, node: unknown): unknown {
  const dec = table.beginDecode();
  const out = decodeWire(node, { ...DATA_ONLY_DECODE, side: 'parent', messageRefs: dec });
  dec.commit();
  return out;
}

describe('message reference codec', () => {
  it('sends a message in full once, then as a reference that decodes to the same object', () => {
    const c = channel();
    const a = msg('a');
    const first = c.toChild({ message: a }) as { message: unknown };
    const second = c.toChild({ message: a }) as { message: unknown };
    expect(first.message).toEqual(a);
    expect(first.message).not.toBe(a);
    expect(second.message).toBe(first.message);
    expect(wireOf(c.wire[0]!)).toEqual({ message: { $cs: 'def', id: 1, value: a } });
    expect(wireOf(c.wire[1]!)).toEqual({ message: { $cs: 'ref', side: 'parent', id: 1 } });
  });

  it('encodes a grown history as one range plus the new messages, and keeps every earlier object', () => {
    const c = channel();
    const history = Array.from({ length: 9000 }, (_, i) => msg(`m${i}`));
    const first = c.toChild({ messages: history, tokenBudget: 100 }) as { messages: object[] };
    history.push(msg('new1'), msg('new2'), msg('new3'));
    const second = c.toChild({ messages: history, tokenBudget: 100 }) as { messages: object[]; tokenBudget: number };
    expect(second.tokenBudget).toBe(100);
    expect(second.messages).toHaveLength(9003);
    for (let i = 0; i < 9000; i++)
      if (second.messages[i] !== first.messages[i]) throw new Error(`message ${i} is a different object`);
    expect(second.messages.slice(9000)).toEqual([msg('new1'), msg('new2'), msg('new3')]);
    expect(wireOf(c.wire[1]!)).toEqual({
      messages: {
        $cs: 'array',
        id: 1,
        items: [
          { $cs: 'refs', side: 'parent', from: 1, count: 9000 },
          { $cs: 'def', id: 9001, value: msg('new1') },
          { $cs: 'def', id: 9002, value: msg('new2') },
          { $cs: 'def', id: 9003, value: msg('new3') },
        ],
      },
      tokenBudget: 100,
    });
    expect(c.wire[1]!.length).toBeLessThan(400);
  });

  it('splits ranges where ids are not consecutive and keeps single references as ref nodes', () => {
    const c = channel();
    const [a, b, d, e] = [msg('a'), msg('b'), msg('d'), msg('e')];
    c.toChild({ messages: [a, b, d, e] });
    const out = c.toChild({ messages: [d, e, a, msg('x'), b] }) as { messages: object[] };
    expect(out.messages.map((m) => (m as { content: string }).content)).toEqual(['d', 'e', 'a', 'x', 'b']);
    expect(wireOf(c.wire[1]!).messages.items).toEqual([
      { $cs: 'refs', side: 'parent', from: 3, count: 2 },
      { $cs: 'ref', side: 'parent', id: 1 },
      { $cs: 'def', id: 5, value: msg('x') },
      { $cs: 'ref', side: 'parent', id: 2 },
    ]);
  });

  it('finds a remembered prefix of a recent array and encodes it like the per-message lookup would', () => {
    const c = channel();
    const [a, b, d, e] = [msg('a'), msg('b'), msg('d'), msg('e')];
    c.toChild({ messages: [a, b] });
    c.toChild({ message: d }); // id 3, outside any array
    c.toChild({ messages: [e, a] }); // a second remembered array: [e(4), a(1)]
    const out = c.toChild({ messages: [a, b, d, msg('x')] }) as { messages: object[] };
    expect(wireOf(c.wire[3]!).messages).toEqual({
      $cs: 'array',
      id: 1,
      // a, b from the remembered [a, b]; d (id 3) found by lookup continues the same run
      items: [
        { $cs: 'refs', side: 'parent', from: 1, count: 3 },
        { $cs: 'def', id: 5, value: msg('x') },
      ],
    });
    const again = c.toChild({ messages: [e, a, b] }) as { messages: object[] };
    expect(wireOf(c.wire[4]!).messages).toEqual({
      $cs: 'array',
      id: 2,
      items: [
        { $cs: 'ref', side: 'parent', id: 4 },
        { $cs: 'refs', side: 'parent', from: 1, count: 2 },
      ],
    });
    expect(again.messages[1]).toBe(out.messages[0]);
    expect(again.messages[2]).toBe(out.messages[1]);
  });

  it('sends a grown history whose ids are out of order as one prefix of the array the engine host kept', () => {
    const c = channel();
    // each turn's last two messages were named before its first (as sanitized copies are, a turn later)
    const turn = (t: number) => {
      const [a, b, d] = [msg(`a${t}`), msg(`b${t}`), msg(`d${t}`)];
      c.toChild({ messages: [b, d] });
      return [a, b, d];
    };
    const history = Array.from({ length: 300 }, (_, t) => turn(t)).flat();
    const first = c.toChild({ messages: history }) as { messages: object[] };
    const kept = [...first.messages];
    first.messages.splice(0, 10); // the engine changes the array it got: later prefixes must not see that
    const grown = [...history, msg('new')];
    const second = c.toChild({ messages: grown }) as { messages: object[] };
    const sent = wireOf(c.wire.at(-1)!).messages;
    expect(sent.items).toEqual([
      { $cs: 'prefix', array: wireOf(c.wire.at(-2)!).messages.id, length: 900 },
      { $cs: 'def', id: 901, value: msg('new') },
    ]);
    expect(c.wire.at(-2)!.length).toBeGreaterThan(20_000); // the first send: one item per run
    expect(c.wire.at(-1)!.length).toBeLessThan(200);
    expect(second.messages).toHaveLength(901);
    for (let i = 0; i < 900; i++)
      if (second.messages[i] !== kept[i]) throw new Error(`message ${i} is a different object`);
  });

  it('hands the app its original objects back when the engine returns what it received', () => {
    const c = channel();
    const history = [msg('a'), msg('b'), msg('c')];
    const received = c.toChild({ messages: history }) as { messages: object[] };
    const summary = { role: 'user', content: 'summary', timestamp: 0 };
    const result = c.toParent({ messages: [summary, ...received.messages], estimatedTokens: 3 }) as {
      messages: object[];
    };
    expect(result.messages[0]).toEqual(summary);
    expect(result.messages.slice(1)).toHaveLength(3);
    result.messages.slice(1).forEach((m, i) => expect(m).toBe(history[i]));
    expect(wireOf(c.wire[1]!).messages).toEqual({
      $cs: 'array',
      items: [
        { $cs: 'def', id: 1, value: summary },
        { $cs: 'refs', side: 'parent', from: 1, count: 3 },
      ],
    });
  });

  it('names engine messages too: the app sends what assemble returned back as references to the originals', () => {
    const c = channel();
    const summary = msg('summary');
    const first = c.toParent({ messages: [summary] }) as { messages: object[] };
    const second = c.toParent({ messages: [summary] }) as { messages: object[] };
    expect(wireOf(c.wire[0]!).messages).toEqual([{ $cs: 'def', id: 1, value: summary }]);
    expect(wireOf(c.wire[1]!).messages).toEqual([{ $cs: 'ref', side: 'child', id: 1 }]);
    expect(second.messages[0]).toBe(first.messages[0]);
    // afterTurn: a reference the engine resolves to its own object
    const back = c.toChild({ messages: [first.messages[0], msg('reply')] }) as { messages: object[] };
    expect(wireOf(c.wire[2]!).messages[0]).toEqual({ $cs: 'ref', side: 'child', id: 1 });
    expect(back.messages[0]).toBe(summary);
  });

  it('retains the fresh copies an engine returns on every call only for the last few turns', () => {
    const c = channel();
    for (let i = 0; i < 300; i++) {
      const made = c.toParent({ messages: [msg(`summary ${i}`), msg(`other ${i}`)] }) as { messages: object[] };
      c.toChild({ messages: made.messages });
      const released = c.parent.takeReleases();
      c.child.releaseOwn(released);
      expect(c.parent.confirmReleased(released)).toBeNull();
    }
    // two objects per two payloads, kept for RELEASE_AFTER_PAYLOADS payloads (+ one sweep interval)
    expect(c.child.size).toBeLessThanOrEqual(RELEASE_AFTER_PAYLOADS + 16);
    expect(c.parent.size).toBeLessThanOrEqual(RELEASE_AFTER_PAYLOADS + 16);
    expect(c.child.size).toBeGreaterThan(0);
  });

  it('releases engine ids unused for RELEASE_AFTER_PAYLOADS payloads, and keeps resolving them until the child answers', () => {
    const c = channel();
    const kept = msg('kept');
    const dropped = msg('dropped');
    const named = c.toParent({ messages: [kept, dropped] }) as { messages: object[] };
    expect(c.child.size).toBe(2);
    // the engine keeps returning `kept`, no longer `dropped`
    let released: number[] = [];
    for (let i = 0; i < RELEASE_AFTER_PAYLOADS + 32 && released.length === 0; i++) {
      c.toParent({ messages: [kept] });
      released = c.parent.takeReleases();
    }
    expect(released).toEqual([2]);
    // until the child answers, a reference it sent earlier still resolves on the app side
    expect(parentDecodes(c.parent, { $cs: 'ref', side: 'child', id: 2 })).toBe(named.messages[1]);
    // the app no longer refers to the released id: the object goes back in full
    c.toChild({ messages: [named.messages[1]] });
    expect(wireOf(c.wire.at(-1)!).messages).toEqual([dropped]);
    c.child.releaseOwn(released);
    expect(c.parent.confirmReleased(released)).toBeNull();
    expect(() => parentDecodes(c.parent, { $cs: 'ref', side: 'child', id: 2 })).toThrow(
      'message reference child#2 is unknown',
    );
    // `kept` was in use throughout and still travels as a reference
    c.toParent({ messages: [kept] });
    expect(wireOf(c.wire.at(-1)!).messages).toEqual([{ $cs: 'ref', side: 'child', id: 1 }]);
    // the child sends `dropped` again: named anew
    c.toParent({ messages: [dropped] });
    expect(wireOf(c.wire.at(-1)!).messages).toEqual([{ $cs: 'def', id: 3, value: dropped }]);
  });

  it('keeps remembered arrays across a release, cut before the first released id', () => {
    const c = channel();
    const history = [msg('a'), msg('b'), msg('c')];
    const summary = c.toParent({ messages: [msg('summary')] }) as { messages: object[] };
    c.toChild({ messages: history });
    const mixed = [...history, summary.messages[0]!];
    c.toChild({ messages: mixed });
    let released: number[] = [];
    for (let i = 0; i < RELEASE_AFTER_PAYLOADS + 32 && released.length === 0; i++) {
      c.toParent({ messages: [msg(`other ${i}`)] });
      released = c.parent.takeReleases();
    }
    expect(released).toContain(1);
    // the history (app ids only) is still a known prefix; the array with the released summary is cut before it
    const session = c.parent.beginEncode();
    expect(session.knownPrefix!([...history, msg('new')])).toMatchObject({
      length: 3,
      runs: [{ side: 'parent', from: 1, count: 3 }],
    });
    expect(session.knownPrefix!(mixed)?.length).toBe(3);
  });

  it('reports a "released" answer for ids the app never released', () => {
    const c = channel();
    expect(c.parent.confirmReleased([4, 5])).toBe('"released" names message ids the app never released: 4, 5');
  });

  it('caches only message slots: other objects are copied every time', () => {
    const c = channel();
    const settings = { mode: 'x' };
    const a = msg('a');
    c.toChild({ runtimeSettings: settings, messages: [a] });
    const out = c.toChild({ runtimeSettings: settings, messages: [a], note: a }) as Record<string, unknown>;
    expect(wireOf(c.wire[1]!)).toEqual({
      runtimeSettings: { mode: 'x' },
      messages: [{ $cs: 'ref', side: 'parent', id: 1 }],
      note: a,
    });
    expect(out.note).toEqual(a);
    expect(out.note).not.toBe((out.messages as object[])[0]);
  });

  it('copies an object met twice in one payload the second time (its id is not known to the peer yet)', () => {
    const c = channel();
    const a = msg('a');
    const out = c.toChild({ messages: [a, a] }) as { messages: object[] };
    expect(wireOf(c.wire[0]!).messages).toEqual([{ $cs: 'def', id: 1, value: a }, a]);
    expect(out.messages).toEqual([a, a]);
    expect((c.toChild({ message: a }) as { message: object }).message).toBe(out.messages[0]);
  });

  it('keeps tagged values inside messages (undefined, Sets) and leaves objects with a $cs key uncached', () => {
    const c = channel();
    const odd = { $cs: 'not a tag', content: 'x' };
    const withUndefined = { role: 'assistant', content: [{ type: 'text', text: 't' }], stopReason: undefined };
    const out = c.toChild({ messages: [withUndefined, odd] }) as { messages: Record<string, unknown>[] };
    expect(Object.prototype.hasOwnProperty.call(out.messages[0], 'stopReason')).toBe(true);
    expect(out.messages[1]).toEqual(odd);
    expect(c.parent.size).toBe(1);
  });

  it('does not commit ids of a payload whose encoding failed', () => {
    const parent = new MessageRefTable('parent');
    const a = msg('a');
    const enc = parent.beginEncode();
    expect(() =>
      encodeWire({ messages: [a], fn: () => 1 }, { ...DATA_ONLY_ENCODE, side: 'parent', messageRefs: enc }),
    ).toThrow('functions cannot be sent here');
    expect(parent.size).toBe(0);
    expect(parent.beginEncode().refOf(a)).toBeUndefined();
  });

  it('forgets everything on reset', () => {
    const c = channel();
    const a = msg('a');
    c.toChild({ message: a });
    c.parent.reset();
    expect(c.parent.size).toBe(0);
    c.toChild({ message: a });
    expect(wireOf(c.wire[1]!).message.$cs).toBe('def');
  });

  describe('rejects hostile or malformed references with a WireFormatError', () => {
    const table = () => {
      const c = channel();
      c.toChild({ messages: [msg('a'), msg('b')] });
      return c.parent;
    };
    const cases: [string, unknown, string][] = [
      ['an unknown parent id', { $cs: 'ref', side: 'parent', id: 7 }, 'message reference parent#7 is unknown'],
      ['an unknown child id', { $cs: 'ref', side: 'child', id: 1 }, 'message reference child#1 is unknown'],
      ['a bad side', { $cs: 'ref', side: 'other', id: 1 }, 'message reference side must be "parent" or "child"'],
      ['a non-integer id', { $cs: 'ref', side: 'parent', id: 1.5 }, 'message reference id must be a positive integer'],
      [
        'a range past the known ids',
        { $cs: 'array', items: [{ $cs: 'refs', side: 'parent', from: 2, count: 2 }] },
        'message reference parent#3 is unknown',
      ],
      [
        'a range with count 0',
        { $cs: 'array', items: [{ $cs: 'refs', side: 'parent', from: 1, count: 0 }] },
        'reference range count must be a positive integer',
      ],
      [
        'a huge range',
        { $cs: 'array', items: [{ $cs: 'refs', side: 'parent', from: 1, count: Number.MAX_SAFE_INTEGER }] },
        'reference range is out of bounds',
      ],
      [
        'a range outside an array node',
        { messages: { $cs: 'refs', side: 'parent', from: 1, count: 2 } },
        'a reference range may only appear directly inside an array node',
      ],
      ['array items that are not an array', { $cs: 'array', items: 3 }, 'array node items must be an array'],
      [
        'a prefix (the app never accepts one)',
        { $cs: 'array', items: [{ $cs: 'prefix', array: 1, length: 1 }] },
        'named arrays are accepted only from the app',
      ],
      [
        'a named array (the app never accepts one)',
        { $cs: 'array', id: 1, items: [{ $cs: 'refs', side: 'parent', from: 1, count: 2 }] },
        'named arrays are accepted only from the app',
      ],
      [
        'a prefix that is not the first item',
        {
          $cs: 'array',
          items: [
            { $cs: 'ref', side: 'parent', id: 1 },
            { $cs: 'prefix', array: 1, length: 1 },
          ],
        },
        'a prefix may only be the first item of an array node',
      ],
      [
        'an engine definition inside a reference range',
        { $cs: 'array', items: [{ $cs: 'refs', side: 'child', from: 1, count: 2 }] },
        'message reference child#1 is unknown',
      ],
    ];
    for (const [name, node, message] of cases) {
      it(name, () => {
        const parent = table();
        expect(() => parentDecodes(parent, node)).toThrow(WireFormatError);
        expect(() => parentDecodes(parent, node)).toThrow(message);
      });
    }

    it('a prefix of an array the engine host does not have, or longer than it (child side)', () => {
      const c = channel();
      const history = [msg('a'), msg('b')];
      c.toChild({ messages: history });
      c.toChild({ messages: history }); // ids 1, 2 as a range: an array node, named 1
      expect(wireOf(c.wire[1]!).messages.id).toBe(1);
      const decode = (node: unknown) =>
        decodeWire(node, { ...DATA_ONLY_DECODE, side: 'child', messageRefs: c.child.beginDecode() });
      expect(() => decode({ $cs: 'array', items: [{ $cs: 'prefix', array: 9, length: 1 }] })).toThrow(
        'array 9 is unknown',
      );
      expect(() => decode({ $cs: 'array', items: [{ $cs: 'prefix', array: 1, length: 3 }] })).toThrow(
        'prefix of 3 elements of array 1 of 2',
      );
    });

    it('a redefinition of a known id (child side)', () => {
      const c = channel();
      c.toChild({ message: msg('a') });
      const dec = c.child.beginDecode();
      expect(() =>
        decodeWire({ $cs: 'def', id: 1, value: msg('b') }, { ...DATA_ONLY_DECODE, side: 'child', messageRefs: dec }),
      ).toThrow('message id 1 is already defined');
    });

    it('a redefinition of a known engine id (parent side)', () => {
      const c = channel();
      c.toParent({ message: msg('a') });
      expect(() => parentDecodes(c.parent, { $cs: 'def', id: 1, value: msg('b') })).toThrow(
        'message id 1 is already defined',
      );
    });

    it('a definition that is not an object', () => {
      const child = new MessageRefTable('child');
      const dec = child.beginDecode();
      expect(() =>
        decodeWire({ $cs: 'def', id: 1, value: [1] }, { ...DATA_ONLY_DECODE, side: 'child', messageRefs: dec }),
      ).toThrow('message definition value must be an object');
    });

    it('references where no cache is in use', () => {
      expect(() => decodeWire({ $cs: 'ref', side: 'parent', id: 1 }, DATA_ONLY_DECODE)).toThrow(
        'message references are not accepted here',
      );
    });

    it('a failed decode commits none of its definitions', () => {
      const child = new MessageRefTable('child');
      const dec = child.beginDecode();
      expect(() =>
        decodeWire(
          {
            messages: [
              { $cs: 'def', id: 1, value: msg('a') },
              { $cs: 'ref', side: 'parent', id: 9 },
            ],
          },
          { ...DATA_ONLY_DECODE, side: 'child', messageRefs: dec },
        ),
      ).toThrow('message reference parent#9 is unknown');
      expect(child.size).toBe(0);
    });
  });

  it('without a cache, message slots encode exactly as before', () => {
    const a = msg('a');
    expect(encodeWire({ messages: [a, a], message: a }, DATA_ONLY_ENCODE)).toEqual({ messages: [a, a], message: a });
  });
});

describe('message references through RpcPeer', () => {
  /** a parent peer whose child is scripted: `reply` builds the raw response for each request */
  function scriptedParent(reply: (request: { id: number; args: unknown[] }) => Record<string, unknown>) {
    const problems: string[] = [];
    const sent: string[] = [];
    const parent: RpcPeer = new RpcPeer({
      side: 'parent',
      handlers: {},
      onProtocolError: (problem) => problems.push(problem),
      send: (message) => {
        const text = JSON.stringify(message);
        sent.push(text);
        const request = JSON.parse(text) as { id: number; args: unknown[] };
        queueMicrotask(() => parent.handleMessage({ type: 'response', id: request.id, ...reply(request) }));
      },
    });
    return { parent, problems, sent };
  }

  it('sends a grown history as references and gets the originals back from a real child peer', async () => {
    const problems: string[] = [];
    const seenByEngine: object[][] = [];
    const child: RpcPeer = new RpcPeer({
      side: 'child',
      onProtocolError: (problem) => problems.push(problem),
      send: (message) => queueMicrotask(() => parent.handleMessage(JSON.parse(JSON.stringify(message)))),
      handlers: {
        assemble: ([params]) => {
          const { messages } = params as { messages: object[] };
          seenByEngine.push(messages);
          return { messages };
        },
      },
    });
    const sizes: number[] = [];
    const parent: RpcPeer = new RpcPeer({
      side: 'parent',
      handlers: {},
      onProtocolError: (problem) => problems.push(problem),
      send: (message) => {
        const text = JSON.stringify(message);
        sizes.push(text.length);
        queueMicrotask(() => child.handleMessage(JSON.parse(text)));
      },
    });
    const history = Array.from({ length: 50 }, (_, i) => msg(`m${i} ${'y'.repeat(100)}`));
    const first = (await parent.request('assemble', [{ messages: history }])) as { messages: object[] };
    history.push(msg('new'));
    const second = (await parent.request('assemble', [{ messages: history }])) as { messages: object[] };
    expect(first.messages).toEqual(history.slice(0, 50));
    first.messages.forEach((m, i) => expect(m).toBe(history[i]));
    second.messages.forEach((m, i) => expect(m).toBe(history[i]));
    expect(seenByEngine[1]!.slice(0, 50).every((m, i) => m === seenByEngine[0]![i])).toBe(true);
    expect(sizes[1]).toBeLessThan(300);
    expect(problems).toEqual([]);
    expect(parent.codec.retainedMessages).toBe(51);
    parent.close(new Error('closed'));
    expect(parent.codec.retainedMessages).toBe(0);
  });

  it('rejects a reply with an unknown reference as a protocol error naming it, and keeps working', async () => {
    let answer: unknown = { messages: { $cs: 'array', items: [{ $cs: 'refs', side: 'parent', from: 1, count: 5 }] } };
    const { parent, problems } = scriptedParent(() => ({ ok: true, value: answer }));
    const history = [msg('a'), msg('b')];
    await expect(parent.request('assemble', [{ messages: history }])).rejects.toThrow(
      'malformed reply to "assemble" from the other process: message reference parent#3 is unknown (never sent to this process, or sent to an earlier host)',
    );
    expect(problems).toEqual([
      'malformed reply to "assemble": message reference parent#3 is unknown (never sent to this process, or sent to an earlier host)',
    ]);
    answer = { messages: { $cs: 'array', items: [{ $cs: 'refs', side: 'parent', from: 1, count: 2 }] } };
    const ok = (await parent.request('assemble', [{ messages: history }])) as { messages: object[] };
    expect(ok.messages[0]).toBe(history[0]);
    expect(ok.messages[1]).toBe(history[1]);
  });
});
