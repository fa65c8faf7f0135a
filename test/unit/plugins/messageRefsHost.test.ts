/**
 * The message reference cache with a real engine host: the engine sees the SAME message objects call after
 * call (as in-process), what it returns from what it received reaches the app as the app's ORIGINAL objects,
 * and a grown history costs the new messages only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { AgentMessage, ContextEngine } from '../../../src/contract';
import { forkTransport, type EngineHostTransportFactory } from '../../../src/plugins/host/transport';
import { loadPlugin, type LoadedPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { createContextRuntime } from '../../../src/engines';

const FIXTURE = join(import.meta.dirname, '../../fixtures/plugins/loader-message-refs');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const user = (content: string): AgentMessage => ({ role: 'user', content, timestamp: 1 });

/** JSON length of every request the app sent, by engine method */
const sentChars: { method: string; chars: number }[] = [];
/** engine message ids the app released */
const releases: number[] = [];
/** ids the engine host said it forgot */
const releasedAnswers: number[] = [];
const countingTransport: EngineHostTransportFactory = (spec) => {
  const inner = forkTransport(spec);
  return {
    get pid() {
      return inner.pid;
    },
    send(message) {
      const m = message as { type?: string; op?: string; args?: { method?: string }[] };
      if (m.type === 'release') releases.push(...(message as { ids: number[] }).ids);
      if (m.type === 'request' && m.op === 'callEngine')
        sentChars.push({ method: String(m.args?.[0]?.method), chars: JSON.stringify(message).length });
      inner.send(message);
    },
    onMessage: (listener) =>
      inner.onMessage((message) => {
        // the transport hands over the JSON text (the engine host measures it before parsing)
        const m = (typeof message === 'string' ? JSON.parse(message) : message) as { type?: string; ids?: number[] };
        if (m.type === 'released') releasedAnswers.push(...m.ids!);
        listener(message);
      }),
    onExit: (listener) => inner.onExit(listener),
    onOutput: (listener) => inner.onOutput(listener),
    kill: () => inner.kill(),
  };
};

let loaded: LoadedPlugin;
let engine: ContextEngine;

beforeAll(async () => {
  const runtime = createContextRuntime({ logger: quiet });
  loaded = await loadPlugin(readPluginPackage(FIXTURE, 'linked'), {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    transport: countingTransport,
  });
  expect(loaded.status).toBe('running');
  engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-message-refs' } } });
}, 60_000);

afterAll(async () => {
  await loaded?.close();
});

describe('message references across a real engine host', () => {
  const history = Array.from({ length: 200 }, (_, i) => user(`message ${i} ${'x'.repeat(200)}`));

  it('gives the engine the same objects on every call, returns the originals, and sends only what is new', async () => {
    const first = await engine.assemble({ sessionId: 's', messages: history.slice(0, 199), tokenBudget: 1000 });
    const firstSeen = JSON.parse(first.systemPromptAddition!);
    expect(firstSeen).toMatchObject({ count: 199, firstIsPrevious: null, reused: 0 });

    const grown = history.slice();
    const second = await engine.assemble({ sessionId: 's', messages: grown, tokenBudget: 1000 });
    const secondSeen = JSON.parse(second.systemPromptAddition!);
    expect(secondSeen).toMatchObject({ count: 200, firstIsPrevious: true, reused: 199 });
    expect(secondSeen.contents).toEqual(grown.map((m) => m.content));

    // the engine returned [its own summary, ...what it received]: the app gets its own objects back
    expect(second.messages).toHaveLength(201);
    expect(second.messages[0]).toEqual({ role: 'user', content: 'summary of 200', timestamp: 0 });
    second.messages.slice(1).forEach((m, i) => {
      if (m !== grown[i]) throw new Error(`returned message ${i} is not the app's original object`);
    });

    const [firstCall, secondCall] = sentChars.filter((c) => c.method === 'assemble');
    expect(firstCall!.chars).toBeGreaterThan(199 * 200);
    // one new message (~250 chars) plus a range reference and the envelope
    expect(secondCall!.chars).toBeLessThan(1000);
  });

  it("sends what assemble returned back as references: the engine gets its own summary and the app's messages (afterTurn, ingest)", async () => {
    const assembled = await engine.assemble({ sessionId: 's', messages: history.slice(0, 150), tokenBudget: 1000 });
    const newMessage = user('reply');
    await engine.afterTurn!({
      sessionId: 's',
      sessionFile: '/tmp/none.jsonl',
      messages: [...assembled.messages, newMessage],
      prePromptMessageCount: assembled.messages.length,
    });
    const report = (await engine.ingestBatch!({ sessionId: 's', messages: [] })) as unknown as { report: unknown[] };
    expect(report.report).toEqual([
      { summaryIsSame: true, summaryContent: 'summary of 150', restReused: 150, count: 152 },
    ]);
    // a message sent before reaches the engine as the object it already holds
    expect(await engine.ingest({ sessionId: 's', message: history[5]! })).toEqual({ ingested: true });
    expect(await engine.ingest({ sessionId: 's', message: user('never sent') })).toEqual({ ingested: false });
  });

  it('keeps a summary the engine returns again as one reference, and releases it once unused', async () => {
    const short = history.slice(0, 50);
    await engine.assemble({ sessionId: 's', messages: short, tokenBudget: 1000 });
    const again = await engine.assemble({ sessionId: 's', messages: short, tokenBudget: 1000 });
    const before = sentChars.filter((c) => c.method === 'afterTurn').length;
    await engine.afterTurn!({
      sessionId: 's',
      sessionFile: '/tmp/none.jsonl',
      messages: again.messages,
      prePromptMessageCount: 0,
    });
    const report = (await engine.ingestBatch!({ sessionId: 's', messages: [] })) as unknown as {
      report: { summaryIsSame: boolean }[];
    };
    expect(report.report.at(-1)).toMatchObject({
      summaryIsSame: true,
      summaryContent: 'summary of 50',
      restReused: 50,
    });
    // the summary went back as a reference: the request is a few hundred characters, not the 50 messages
    expect(sentChars.filter((c) => c.method === 'afterTurn')[before]!.chars).toBeLessThan(600);

    // other calls only from now on: the summary's id goes unused and is released; the host answers without error
    for (let i = 0; i < 80 && releases.length === 0; i++)
      await engine.assemble({ sessionId: 's', messages: history.slice(0, 60 + (i % 2)), tokenBudget: 1000 });
    expect(releases.length).toBeGreaterThan(0);
    await engine.assemble({ sessionId: 's', messages: short, tokenBudget: 1000 });
    expect(releasedAnswers).toEqual(releases);
    expect(loaded.diagnostics.filter((d) => d.message.includes('invalid message'))).toEqual([]);
    expect(loaded.status).toBe('running');
  });
});
