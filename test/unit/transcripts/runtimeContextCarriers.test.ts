/**
 * Runtime-context carriers as OpenClaw 2026.7.35 / 2026.9.6 build them (`buildRuntimeContextCustomMessage`:
 * `{role: "custom", customType: "openclaw.runtime-context", display: false, details: {source:
 * "openclaw-runtime-context", runtimeContextCarrier: true}}`), stored as a `custom_message` entry: they are left
 * out of token estimates and are not turn starts for compaction, and a replay does not count them as turns.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry } from '../../../src/contract';
import { isTurnStartMessage } from '../../../src/engines/legacy';
import { replaySession } from '../../../src/replay';
import { estimateMessagesTokens } from '../../../src/tokens';
import { isRuntimeContextCarrier } from '../../../src/transcripts';
import { SessionBuilder } from '../replay/sessionBuilder';

const carrierText = `OpenClaw runtime context for the next turn\n<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\n${'channel: telegram\n'.repeat(60)}<<<END_OPENCLAW_INTERNAL_CONTEXT>>>`;

function carrier(timestamp: number): AgentMessage {
  return {
    role: 'custom',
    customType: 'openclaw.runtime-context',
    content: carrierText,
    display: false,
    details: { source: 'openclaw-runtime-context', runtimeContextCarrier: true },
    timestamp,
  };
}

describe('runtime-context carriers with the real customType', () => {
  it('are recognised, left out of estimates and never start a turn', () => {
    const message = carrier(1);
    expect(isRuntimeContextCarrier(message)).toBe(true);
    expect(isTurnStartMessage(message)).toBe(false);
    const user: AgentMessage = { role: 'user', content: 'hello there', timestamp: 2 };
    expect(estimateMessagesTokens([message, user])).toBe(estimateMessagesTokens([user]));
  });

  it('in a transcript, do not count as turns of the replay', async () => {
    const b = new SessionBuilder();
    const push = (entry: Record<string, unknown>) => {
      const last = b.entries[b.entries.length - 1];
      b.entries.push({
        id: `c${b.entries.length}`,
        parentId: last ? last.id : null,
        timestamp: new Date(b.now() + 500).toISOString(),
        ...entry,
      } as SessionEntry);
    };
    for (const text of ['first', 'second']) {
      const c = carrier(b.now() + 500) as { customType: string; content: string; display: boolean; details: unknown };
      push({
        type: 'custom_message',
        customType: c.customType,
        content: c.content,
        display: c.display,
        details: c.details,
      });
      b.turn(text);
    }
    const recording = await replaySession({
      session: b.loaded(),
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32_000 }],
      transcriptFiles: 'none',
    });
    expect(recording.turns.legacy).toHaveLength(2);
    expect(recording.session.turnStarts).toHaveLength(2);
  });
});
