/**
 * Choosing the engine-host channel's codec (channelCodec.ts): the json codec sends every value whole (no message
 * references, no release protocol), the choice comes from a lane option or CONTEXTSCOPE_HOST_CODEC with a clear error
 * for anything else, and a host that decodes with another codec than the app is refused at start.
 */
import { describe, expect, it } from 'vitest';
import { EngineHost } from '../../../src/plugins/host/engineHost';
import { forkTransport } from '../../../src/plugins/host/transport';
import { RpcPeer } from '../../../src/plugins/host/rpcPeer';
import { HOST_CODEC_ENV, hostCodecFromEnv, type HostCodecName } from '../../../src/plugins/host/channelCodec';
import { laneConfigFromSpec, parseLaneSpec, printLaneSpec } from '../../../src/replay';

/** An app and an engine host peer back to back; every frame the app sends is kept as JSON text. */
function channel(codec: HostCodecName) {
  const frames: string[] = [];
  const problems: string[] = [];
  const app: RpcPeer = new RpcPeer({
    side: 'parent',
    codec,
    handlers: {},
    onProtocolError: (problem) => problems.push(problem),
    send: (message) => {
      const text = JSON.stringify(message);
      frames.push(text);
      queueMicrotask(() => host.handleMessage(JSON.parse(text)));
    },
  });
  const host: RpcPeer = new RpcPeer({
    side: 'child',
    codec,
    handlers: { assemble: ([params]) => ({ messages: (params as { messages: object[] }).messages }) },
    onProtocolError: (problem) => problems.push(problem),
    send: (message) => queueMicrotask(() => app.handleMessage(JSON.parse(JSON.stringify(message)))),
  });
  return { app, host, frames, problems };
}

const user = (content: string) => ({ role: 'user', content, timestamp: 1 });

describe('the json codec', () => {
  it('sends a grown history whole on every call, with no message references, and keeps nothing', async () => {
    const { app, host, frames, problems } = channel('json');
    const history = Array.from({ length: 30 }, (_, i) => user(`message ${i}`));
    await app.request('assemble', [{ messages: history }]);
    const reply = (await app.request('assemble', [{ messages: [...history, user('new')] }])) as { messages: object[] };
    expect(reply.messages).toEqual([...history, user('new')]);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toContain('"message 0"');
    expect(frames.join('')).not.toMatch(/"\$cs":"(ref|refs|def|array|prefix|like)"/);
    expect(app.codec.retainedMessages + host.codec.retainedMessages).toBe(0);
    expect(problems).toEqual([]);
  });

  it('sends the same history as references with the refs codec (the default)', async () => {
    const { app, frames } = channel('refs');
    const history = Array.from({ length: 30 }, (_, i) => user(`message ${i}`));
    await app.request('assemble', [{ messages: history }]);
    await app.request('assemble', [{ messages: [...history, user('new')] }]);
    expect(frames[1]).not.toContain('"message 0"');
    expect(frames[1]).toMatch(/"\$cs":"refs"/);
  });

  it('refuses a message reference in a reply: nothing was ever defined', async () => {
    const problems: string[] = [];
    const app: RpcPeer = new RpcPeer({
      side: 'parent',
      codec: 'json',
      handlers: {},
      onProtocolError: (problem) => problems.push(problem),
      send: (message) => {
        const value = { messages: [{ $cs: 'ref', side: 'parent', id: 1 }] };
        queueMicrotask(() => app.handleMessage({ type: 'response', id: message.id, ok: true, value }));
      },
    });
    await expect(app.request('assemble', [{ messages: [] }])).rejects.toThrow(
      'malformed reply to "assemble" from the other process: message references are not accepted here',
    );
    expect(problems).toEqual(['malformed reply to "assemble": message references are not accepted here']);
  });
});

describe('choosing the codec', () => {
  it('reads CONTEXTSCOPE_HOST_CODEC, defaulting to refs, and names a wrong value', () => {
    expect(hostCodecFromEnv({})).toBe('refs');
    expect(hostCodecFromEnv({ [HOST_CODEC_ENV]: 'json' })).toBe('json');
    expect(() => hostCodecFromEnv({ [HOST_CODEC_ENV]: 'xml' })).toThrow(
      'CONTEXTSCOPE_HOST_CODEC is "xml": use "refs" or "json"',
    );
  });

  it('takes hostCodec= in a plugin lane spec, prints it back, and names a wrong value', () => {
    expect(parseLaneSpec('plugin:x?hostCodec=json')).toMatchObject({ kind: 'plugin', hostCodec: 'json' });
    expect(laneConfigFromSpec('plugin:x?hostCodec=json', { contextWindow: 1 }).engine).toMatchObject({
      hostCodec: 'json',
    });
    expect(printLaneSpec({ kind: 'plugin', plugin: 'x', hostCodec: 'json' })).toBe('plugin:x?hostCodec=json');
    expect(() => parseLaneSpec('plugin:x?hostCodec=xml')).toThrow(
      'Invalid lane spec "plugin:x?hostCodec=xml": hostCodec=xml must be refs or json.',
    );
  });

  it('refuses an engine host that decodes with another codec than the app', async () => {
    const start = EngineHost.start({
      label: 'codec check',
      env: {},
      cwd: process.cwd(),
      nodePath: process.execPath,
      codec: 'refs',
      // a host started with another codec than the app asked for (as an out-of-date entry would be)
      transport: (spec) => forkTransport({ ...spec, env: { ...spec.env, [HOST_CODEC_ENV]: 'json' } }),
    });
    await expect(start).rejects.toThrow(
      'engine host for codec check: it decodes with the json codec, the app with the refs codec',
    );
  }, 30_000);
});
