/**
 * The engine-host channel's codecs (src/plugins/host/channelCodec.ts) with real engine hosts: the demo session
 * replayed through bundled plugin lanes (summary-tree, which summarizes through llm.complete and owns compaction, and
 * recent-window, which delegates it) gives the same Recording — engine calls, assembled messages, tokens, compactions,
 * findings — with `hostCodec=json` (every value whole) as with the default message-reference codec, apart from what
 * the recorder derives from object identity (IDENTITY_DEPENDENT below). The transport checks that the two runs did
 * cross the channel differently.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkTransport, type EngineHostTransportFactory, type HostCodecName } from '../../../src/plugins';
import { defaultDemoSessionsDir, replaySession, type Recording } from '../../../src/replay';
import type { TurnRecord } from '../../../src/contract/recording';

const DEMO = join(defaultDemoSessionsDir()!, 'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');
const PLUGINS = ['summary-tree', 'recent-window'];
/** when the recording was made and how long things took differ between any two replays */
const TIMING_FIELDS = ['createdAt', 'wallMs', 'startedAtMs', 'durationMs'];

interface Channel {
  /** CONTEXTSCOPE_HOST_CODEC of each engine host started */
  hostCodecs: string[];
  /** frames the app sent that refer to messages sent before, and `release` messages */
  referenceFrames: number;
  releases: number;
}

/** Starts hosts as usual and notes how the app's frames crossed. */
function watchedTransport(channel: Channel): EngineHostTransportFactory {
  return (spec) => {
    channel.hostCodecs.push(spec.env.CONTEXTSCOPE_HOST_CODEC ?? '(unset)');
    const inner = forkTransport(spec);
    const note = (message: unknown) => {
      const text = JSON.stringify(message);
      if (/"\$cs":"refs?"/.test(text)) channel.referenceFrames++;
      if ((message as { type?: string }).type === 'release') channel.releases++;
    };
    return {
      get pid() {
        return inner.pid;
      },
      send(message) {
        note(message);
        inner.send(message);
      },
      sendMany(messages) {
        messages.forEach(note);
        inner.sendMany!(messages);
      },
      onMessage: (listener) => inner.onMessage(listener),
      onOversized: (listener) => inner.onOversized!(listener),
      onExit: (listener) => inner.onExit(listener),
      onOutput: (listener) => inner.onOutput(listener),
      kill: () => inner.kill(),
    };
  };
}

async function replayWith(codec: HostCodecName | undefined): Promise<{ recording: Recording; channel: Channel }> {
  const channel: Channel = { hostCodecs: [], referenceFrames: 0, releases: 0 };
  const recording = await replaySession({
    session: DEMO,
    lanes: PLUGINS.map((name) => ({
      label: name,
      engine: {
        kind: 'plugin' as const,
        plugin: resolve('resources/plugins', name),
        ...(codec ? { hostCodec: codec } : {}),
      },
      contextWindow: 16_000,
    })),
    plugins: { allowExecute: true, transport: watchedTransport(channel) },
  });
  return { recording, channel };
}

/**
 * What the app derives from object identity (src/replay/recording/classifyProvenance.ts, laneRunner's identityKey): a
 * message the engine hands back is keyed as the object the app gave it, so a sanitized copy (stale usage zeroed) is
 * `raw` under its transcript message's key and a lane's compaction summary is known by its entry. The json codec
 * returns deep copies, which the recorder keys by content instead: their keys differ, and so may their provenance and
 * what a summary is taken to cover (which transcript messages count as summarized or dropped).
 */
const IDENTITY_DEPENDENT = ['omitted', 'provenance', 'sourceKey', 'covers', 'coversKeys'];

/**
 * The recording as JSON without timing, the fields derived from identity and the lane option that names the codec
 * (the one input changed); each assembled message as its role, content and tokens, other message keys as the
 * message's content.
 */
function comparable(recording: Recording): string {
  const contentOf = new Map(Object.entries(recording.messages).map(([key, r]) => [key, JSON.stringify(r.message)]));
  const assembled = (refs: TurnRecord['assembled']) =>
    refs.map((ref) => {
      const { role, content } = recording.messages[ref.key]!.message as { role: string; content?: unknown };
      return `${role} (${ref.estTokens} tokens): ${JSON.stringify(content)}`;
    });
  return JSON.stringify({ ...recording, messages: undefined }, (key, value: unknown) => {
    if (TIMING_FIELDS.includes(key)) return 0;
    if (IDENTITY_DEPENDENT.includes(key) || key === 'hostCodec') return undefined;
    if (key === 'assembled') return assembled(value as TurnRecord['assembled']);
    if (typeof value === 'string' && contentOf.has(value)) return contentOf.get(value);
    return value;
  });
}

/** Where two texts first differ, with some context (undefined when they are the same). */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let at = 0;
  while (a[at] === b[at]) at++;
  return `at ${at}: …${a.slice(Math.max(0, at - 120), at + 80)}… vs …${b.slice(Math.max(0, at - 120), at + 80)}…`;
}

describe('a replay through plugin lanes with the json codec', () => {
  it('records the same engine calls, assembled messages and compactions as with the default codec', async () => {
    const refs = await replayWith(undefined);
    const json = await replayWith('json');

    // the two runs crossed the channel differently: references and releases only with the default codec
    expect(refs.channel.hostCodecs).toEqual(['refs', 'refs']);
    expect(json.channel.hostCodecs).toEqual(['json', 'json']);
    expect(refs.channel.referenceFrames).toBeGreaterThan(20);
    expect(json.channel.referenceFrames).toBe(0);
    expect(json.channel.releases).toBe(0);

    // a case where both engines ran every turn and compacted
    for (const { recording } of [refs, json]) expect(recording.lanes.every((lane) => !lane.error)).toBe(true);
    const turns = Object.values(refs.recording.turns).flat();
    expect(turns.length).toBeGreaterThan(20);
    expect(turns.flatMap((t) => t.events).filter((e) => e.type === 'compaction' && e.compacted).length).toBeGreaterThan(
      1,
    );

    expect(firstDifference(comparable(json.recording), comparable(refs.recording))).toBeUndefined();
  }, 180_000);
});
