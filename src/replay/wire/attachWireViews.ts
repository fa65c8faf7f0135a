/**
 * Gives every sent turn of a Recording its "as sent" view (`TurnRecord.asSent`) for the release the replay behaved
 * as. Turns whose prompt was never sent (prompt_error, host_unsupported) get none.
 */
import type { Recording, TurnRecord, WireMessage, WireView } from '../../contract/recording';
import { sameWireMessage } from '../../view/listDelta';
import { newSentPool, shareSentMessages } from '../../view/sharedTurnLists';
import { shapeWireView, type WireContext } from './shapeWire';
import { wireProfileFor } from './wireProfile';

function agentIdOf(sessionKey: string | null | undefined): string {
  const match = /^agent:([^:]+):/.exec(sessionKey ?? '');
  return match?.[1] ?? 'main';
}

export function wireViewOf(recording: Recording, record: TurnRecord, context: WireContext, recordedPrefix?: string) {
  const source = (key: string) => ({ key, message: recording.messages[key]?.message });
  const prompt = { ...source(record.promptKey), ...(recordedPrefix ? { recordedPrefix } : {}) };
  const sent = record.modelCallKeys;
  if (sent) {
    // what an owning engine assembled at the model call; it may have left the prompt out
    const promptLast = sent.at(-1) === record.promptKey;
    const before = (promptLast ? sent.slice(0, -1) : sent).map(source);
    return shapeWireView(before, promptLast ? prompt : null, context);
  }
  return shapeWireView(
    record.assembled.map((a) => source(a.key)),
    prompt,
    context,
  );
}

export interface WireViewOptions {
  timeZone?: string;
  /** what the trajectory recorded before a turn's prompt, by user entry id (src/replay/trajectory/promptWrappers.ts) */
  promptWrappers?: ReadonlyMap<string, string>;
}

export function attachWireViews(recording: Recording, options: WireViewOptions = {}): void {
  const profile = wireProfileFor(recording.options.openclawVersion ?? '2026.7.1');
  for (const lane of recording.lanes) {
    const records = recording.turns[lane.id];
    if (!records) continue;
    const sessionKey = lane.sessionKey ?? null;
    const context: WireContext = {
      profile,
      agentId: agentIdOf(sessionKey),
      sessionKey,
      sessionId: lane.sessionId,
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    };
    const shared = new Map<string, WireMessage>();
    // each turn's messages as runs over the lane's, not an array per turn (src/view/sharedTurnLists.ts)
    const pool = newSentPool();
    for (const record of records) {
      if (record.status !== 'ok' && record.status !== 'aborted') continue;
      const wrapper = record.userEntryId !== null ? options.promptWrappers?.get(record.userEntryId) : undefined;
      record.asSent = sharingMessages(wireViewOf(recording, record, context, wrapper), shared);
      shareSentMessages(record.asSent, pool);
    }
  }
}

/**
 * The view with each message replaced by an equal one an earlier turn of the lane has (same key, origin and
 * additions): consecutive turns then share their wire messages instead of holding a copy of the context each.
 */
function sharingMessages(view: WireView, shared: Map<string, WireMessage>): WireView {
  view.messages = view.messages.map((message) => {
    const id = `${message.key ?? ''}\u0000${message.origin}`;
    const earlier = shared.get(id);
    if (earlier && sameWireMessage(earlier, message)) return earlier;
    shared.set(id, message);
    return message;
  });
  return view;
}

/** attachWireViews, returning the recording (for the end of replaySession). */
export function withWireViews(recording: Recording, options: WireViewOptions = {}): Recording {
  attachWireViews(recording, options);
  return recording;
}
