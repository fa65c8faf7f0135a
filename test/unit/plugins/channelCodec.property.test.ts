/**
 * Property: the engine-host channel's two codecs (channelCodec.ts) carry the same values. A generated sequence of
 * engine calls — a growing history of user, assistant (tool calls) and tool-result messages (images as base64, raw
 * bytes, nested objects, undefined fields), shallow copies of sent messages, single messages, results of earlier
 * calls sent back — goes through two RpcPeers wired back to back as JSON text, once with the reference table and once
 * with plain JSON. The engine sees values deep-equal to what the app sent and the app gets replies deep-equal to what
 * the engine returned, call after call, with either codec; long sequences make the reference table release engine
 * ids, which must not change what anyone sees.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RpcPeer } from '../../../src/plugins/host/rpcPeer';
import { HOST_CODEC_NAMES, type HostCodecName } from '../../../src/plugins/host/channelCodec';

type Message = Record<string, unknown>;

/** messages are plain objects, as the app's are (a null prototype decodes to an ordinary object) */
const record = <T>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(fields, { noNullPrototype: true });
const text = fc.string({ maxLength: 30 });
const base64 = fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const nested = fc.jsonValue({ maxDepth: 3 });
const timestamp = fc.nat({ max: 1000 });
const textPart = record({ type: fc.constant('text'), text });
const imagePart = record({
  type: fc.constant('image'),
  data: base64,
  mimeType: fc.constantFrom('image/png', 'image/jpeg'),
});
const toolCall = record({
  type: fc.constant('toolCall'),
  id: fc.string({ minLength: 1, maxLength: 8 }),
  name: fc.constantFrom('read', 'exec', 'write'),
  arguments: fc.dictionary(fc.string({ maxLength: 8 }), nested, { maxKeys: 4, noNullPrototype: true }),
});
const userMessage = record({
  role: fc.constant('user'),
  content: fc.oneof(text, fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 })),
  timestamp,
});
const assistantMessage = record({
  role: fc.constant('assistant'),
  content: fc.array(fc.oneof(textPart, toolCall), { minLength: 1, maxLength: 3 }),
  stopReason: fc.constantFrom('stop', 'toolUse'),
  // present as a key holding undefined when drawn so: plain JSON would drop it
  usage: fc.option(record({ input: fc.nat(), output: fc.nat() }), { nil: undefined }),
  timestamp,
});
const toolResultMessage = record({
  role: fc.constant('toolResult'),
  toolCallId: fc.string({ minLength: 1, maxLength: 8 }),
  toolName: fc.constantFrom('read', 'exec'),
  content: fc.array(fc.oneof(textPart, imagePart), { maxLength: 2 }),
  isError: fc.boolean(),
  details: fc.option(record({ exitCode: fc.integer(), raw: fc.uint8Array({ maxLength: 8 }), extra: nested }), {
    nil: undefined,
  }),
  timestamp,
});
const message: fc.Arbitrary<Message> = fc.oneof(userMessage, assistantMessage, toolResultMessage);

/** One step of the app: each becomes one engine call. */
type Op =
  /** the history grows by `add`, then assemble(history) */
  | { kind: 'grow'; add: Message[] }
  /** OpenClaw's sanitize step: a message of the history is replaced by a shallow copy with one field rewritten */
  | { kind: 'sanitize'; at: number; field: string; value: unknown }
  /** afterTurn with what an earlier assemble returned (`from`, counted back) plus a new message */
  | { kind: 'afterTurn'; from: number; add: Message }
  /** ingest one message of the history (a `message` slot) */
  | { kind: 'ingest'; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: record({ kind: fc.constant('grow'), add: fc.array(message, { maxLength: 4 }) }) },
  {
    weight: 1,
    arbitrary: record({
      kind: fc.constant('sanitize'),
      at: fc.nat(),
      field: fc.constantFrom('toolCallId', 'details', 'content'),
      value: fc.oneof(text, fc.constant(undefined)),
    }),
  },
  { weight: 2, arbitrary: record({ kind: fc.constant('afterTurn'), from: fc.nat({ max: 40 }), add: message }) },
  { weight: 1, arbitrary: record({ kind: fc.constant('ingest'), at: fc.nat() }) },
);

interface Run {
  /** what the engine's methods received, call by call */
  engineSaw: unknown[];
  /** what the app got back, call by call */
  appGot: unknown[];
  /** what the app sent, call by call */
  appSent: unknown[];
  problems: string[];
  releases: number;
}

/**
 * A deterministic engine: assemble returns one summary per four messages of history (the same object while the
 * history stays in that bucket, every other call a fresh equal copy of it) and the last three messages it received.
 */
function engineHandlers(engineSaw: unknown[]) {
  const summaries = new Map<number, Message>();
  let calls = 0;
  return {
    assemble: ([params]: unknown[]) => {
      engineSaw.push(params);
      const messages = (params as { messages: Message[] }).messages;
      const bucket = Math.floor(messages.length / 4);
      let summary = summaries.get(bucket);
      if (!summary) summaries.set(bucket, (summary = { role: 'user', content: `summary ${bucket}`, timestamp: 0 }));
      const returned = calls++ % 2 === 0 ? summary : { ...summary };
      return { messages: [returned, ...messages.slice(-3)], estimatedTokens: messages.length };
    },
    afterTurn: ([params]: unknown[]) => void engineSaw.push(params),
    ingest: ([params]: unknown[]) => {
      engineSaw.push(params);
      return { ingested: true };
    },
  };
}

async function replayThrough(codec: HostCodecName, ops: readonly Op[]): Promise<Run> {
  const run: Run = { engineSaw: [], appGot: [], appSent: [], problems: [], releases: 0 };
  const deliver = (to: () => RpcPeer) => (sent: Record<string, unknown>) => {
    if (sent.type === 'release') run.releases++;
    const parsed = JSON.parse(JSON.stringify(sent)) as { type: string } & Record<string, unknown>;
    queueMicrotask(() => to().handleMessage(parsed));
  };
  const onProtocolError = (problem: string) => void run.problems.push(problem);
  const app: RpcPeer = new RpcPeer({ side: 'parent', codec, send: deliver(() => host), handlers: {}, onProtocolError });
  const host: RpcPeer = new RpcPeer({
    side: 'child',
    codec,
    send: deliver(() => app),
    handlers: engineHandlers(run.engineSaw),
    onProtocolError,
  });
  const call = async (method: string, params: unknown) => {
    run.appSent.push(params);
    const reply = await app.request(method, [params]);
    run.appGot.push(reply);
    return reply;
  };
  let history: Message[] = [];
  const assembled: Message[][] = [];
  const availableTools = new Set(['read', 'exec']);
  for (const step of ops) {
    if (step.kind === 'grow' || (step.kind === 'sanitize' && history.length > 0)) {
      if (step.kind === 'grow') history = [...history, ...step.add];
      else {
        const at = step.at % history.length;
        history = history.map((m, i) => (i === at ? { ...m, [step.field]: step.value } : m));
      }
      const reply = await call('assemble', { sessionId: 's', messages: history, tokenBudget: 1000, availableTools });
      assembled.push((reply as { messages: Message[] }).messages);
    } else if (step.kind === 'afterTurn' && assembled.length > 0) {
      const earlier = assembled[Math.max(0, assembled.length - 1 - step.from)]!;
      await call('afterTurn', { sessionId: 's', messages: [...earlier, step.add], prePromptMessageCount: 0 });
    } else if (step.kind === 'ingest' && history.length > 0) {
      await call('ingest', { sessionId: 's', message: history[step.at % history.length] });
    }
  }
  app.close(new Error('done'));
  host.close(new Error('done'));
  return run;
}

describe('the refs and json codecs of the engine-host channel', () => {
  it('names both codecs', () => {
    expect(HOST_CODEC_NAMES).toEqual(['refs', 'json']);
  });

  it('decode every engine call and every reply to the same values, which are the values sent', async () => {
    let releases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 90, size: 'max' }), async (ops) => {
        const refs = await replayThrough('refs', ops);
        const json = await replayThrough('json', ops);
        releases += refs.releases;
        expect(refs.problems).toEqual([]);
        expect(json.problems).toEqual([]);
        expect(json.releases).toBe(0);
        expect(json.engineSaw).toStrictEqual(refs.engineSaw);
        expect(json.appGot).toStrictEqual(refs.appGot);
        expect(refs.engineSaw).toStrictEqual(refs.appSent);
      }),
      { numRuns: 40 },
    );
    // the sequences were long enough for the reference table to release engine ids along the way
    expect(releases).toBeGreaterThan(0);
  }, 120_000);
});
