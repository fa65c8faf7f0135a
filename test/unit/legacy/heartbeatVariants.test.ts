/**
 * The heartbeat-artifact filter as each release line runs it (openclaw@2026.7.35 heartbeat-filter-*.js,
 * openclaw@2026.9.6 heartbeat-filter-*.mjs), on the shape of a heartbeat-heavy session: polls every half hour,
 * most acked, some answered with a real alert, wakes of other kinds, acks with thinking blocks.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  createIncrementalHistoryPipeline,
  DEFAULT_HEARTBEAT_PROMPT,
  DEFAULT_HEARTBEAT_PROMPT_2026_9,
  HEARTBEAT_TRANSCRIPT_PROMPT,
  runHistoryPipeline,
} from '../../../src/engines/legacy';
import { assistantCall, assistantText, toolResult, user } from './helpers';

const thinkingAck: AgentMessage = {
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'Nothing in HEARTBEAT.md is due.' },
    { type: 'text', text: 'HEARTBEAT_OK' },
  ],
  timestamp: 2,
} as AgentMessage;

const kept = (messages: AgentMessage[], variant: '2026.7' | '2026.9') =>
  runHistoryPipeline(messages, { heartbeat: { variant } }).messages;

describe('heartbeat spans', () => {
  it('judges each heartbeat on its own: a later ack does not remove an earlier heartbeat that raised an alert', () => {
    const alert = assistantText('Disk at 91% on /var — I cleared 4 GB of old build caches.');
    const messages: AgentMessage[] = [
      user('deploy the api'),
      assistantText('deployed'),
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      alert,
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantText('HEARTBEAT_OK'),
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantText('HEARTBEAT_OK'),
      user('thanks, what changed?'),
    ];
    for (const variant of ['2026.7', '2026.9'] as const) {
      expect(kept(messages, variant)).toEqual([messages[0], messages[1], messages[2], alert, messages[8]]);
    }
    // the incremental pipeline the replay uses agrees
    const incremental = createIncrementalHistoryPipeline({ heartbeat: { variant: '2026.9' } });
    expect(incremental(messages).messages).toEqual(kept(messages, '2026.9'));
  });

  it('2026.9 treats an ack with a thinking block as an ack; 2026.7 keeps it', () => {
    const messages = [user('hi'), assistantText('hello'), user(HEARTBEAT_TRANSCRIPT_PROMPT), thinkingAck, user('next')];
    expect(kept(messages, '2026.9')).toEqual([messages[0], messages[1], messages[4]]);
    expect(kept(messages, '2026.7')).toEqual(messages);
  });

  it('2026.9 removes other internal wakes (cron, exec completion) and NO_REPLY acks; 2026.7 only heartbeat polls', () => {
    const messages = [
      user('hi'),
      assistantText('hello'),
      user('[OpenClaw cron wake]'),
      assistantText('NO_REPLY'),
      user('[OpenClaw exec completion]'),
      assistantText('HEARTBEAT_OK'),
      user('next'),
    ];
    expect(kept(messages, '2026.9')).toEqual([messages[0], messages[1], messages[6]]);
    expect(kept(messages, '2026.7')).toEqual(messages);
  });

  it('keeps a heartbeat whose heartbeat_respond notified the user, removes a silent one', () => {
    const loud = [
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantCall('h1', 'heartbeat_respond', { notify: true, notificationText: 'CI is red on main' }),
      toolResult('h1', 'heartbeat_respond', 'delivered'),
    ];
    const quiet = [
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantCall('h2', 'heartbeat_respond', { notify: false }),
      toolResult('h2', 'heartbeat_respond', 'ok'),
    ];
    const messages = [user('hi'), assistantText('hello'), ...loud, ...quiet, user('next')];
    expect(kept(messages, '2026.9')).toEqual([messages[0], messages[1], ...loud, messages[8]]);
  });
});

/**
 * Which user messages are heartbeat prompts: the release's default prompt (2026.9 changed it — real OpenClaw 2026.9.6
 * kept a "Read HEARTBEAT.md …" heartbeat answered HEARTBEAT_OK that 2026.7.35 dropped: the heartbeat-polls
 * differential scenario), the response-tool prompt, the configured prompt with the response-tool instructions
 * appended, and a poll after a message-tool delivery hint.
 */
describe('heartbeat prompts per release line', () => {
  const acked = (prompt: string) => [
    user('plan a garden'),
    assistantText('ok'),
    user(prompt),
    assistantText('HEARTBEAT_OK'),
  ];
  const drops = (prompt: string, variant: '2026.7' | '2026.9') => kept(acked(prompt), variant).length === 2;

  it("each line's default prompt, and not the other line's", () => {
    expect(drops(DEFAULT_HEARTBEAT_PROMPT, '2026.7')).toBe(true);
    expect(drops(DEFAULT_HEARTBEAT_PROMPT, '2026.9')).toBe(false);
    expect(drops(DEFAULT_HEARTBEAT_PROMPT_2026_9, '2026.9')).toBe(true);
    expect(drops(DEFAULT_HEARTBEAT_PROMPT_2026_9, '2026.7')).toBe(false);
  });

  it("the line's response-tool prompt", () => {
    const instructions =
      "Use heartbeat_respond to report the wake outcome. Set notify=false when nothing needs the user's attention. Set notify=true with notificationText only when the user should be interrupted.";
    const context735 = DEFAULT_HEARTBEAT_PROMPT.replace(' If nothing needs attention, reply HEARTBEAT_OK.', '');
    expect(drops(`${context735} ${instructions}`, '2026.7')).toBe(true);
    expect(drops(`${context735} ${instructions}`, '2026.9')).toBe(false);
    const context96 = DEFAULT_HEARTBEAT_PROMPT_2026_9.replace(' If nothing needs attention, reply NO_REPLY.', '');
    const fallback =
      "If the heartbeat_respond tool is not available in this run, reply NO_REPLY when nothing needs the user's attention; when the user should be interrupted, reply with only the alert text instead of a prose report.";
    expect(drops(`${context96} ${instructions} ${fallback}`, '2026.9')).toBe(true);
  });

  it('a poll after a message-tool delivery hint', () => {
    const hinted = `Delivery: to send a message, use the \`message\` tool.\n\n${HEARTBEAT_TRANSCRIPT_PROMPT}`;
    expect(drops(hinted, '2026.7')).toBe(true);
    expect(drops(hinted, '2026.9')).toBe(true);
    expect(drops(`Something else.\n\n${HEARTBEAT_TRANSCRIPT_PROMPT}`, '2026.9')).toBe(false);
  });
});
