/**
 * Why a compaction ran, in one line with its arithmetic: which measure, from which source, against which limit, on
 * which attempt (the event's `cause`, src/contract/recording/events.ts). The turn view, the CLI and the HTML report
 * show this line; the chart plots the same precheck measure against the same threshold (turnFigures `precheck`).
 */
import { providerCheckFigures } from './providerChecks';
import type { ReplayEvent, TurnRecord } from './viewTypes';

type CompactionEvent = Extract<ReplayEvent, { type: 'compaction' }>;

const n = (value: number) => value.toLocaleString('en-US');
const attemptText = (attempt: number) => `attempt ${attempt + 1}`;

/** The cause of `event` as arithmetic (null for a recorded compaction, or a recording made before causes). */
export function compactionCauseLine(event: CompactionEvent, record?: TurnRecord): string | null {
  const cause = event.cause;
  if (!cause) return event.trigger === 'recorded' ? 'compacted in the recorded session' : null;
  switch (cause.measure) {
    case 'precheck': {
      const messages = cause.source === 'assembled' ? 'assembled messages' : 'whole transcript (larger than assembled)';
      return (
        `precheck estimate ${n(cause.tokens)} (${messages} + system prompt + prompt) > compaction threshold ` +
        `${n(cause.limit)} (window − effective reserve), over by ${n(cause.tokens - cause.limit)} · ` +
        attemptText(cause.attempt)
      );
    }
    case 'provider': {
      const check = record ? providerCheckFigures(record).find((c) => c.attempt === cause.attempt) : undefined;
      if (check) return `provider overflow on ${attemptText(cause.attempt)}: ${check.summary}`;
      const tokens = cause.tokens === undefined ? 'the prompt' : `${n(cause.tokens)} tokens`;
      return `provider overflow on ${attemptText(cause.attempt)}: ${tokens} > context window ${n(cause.limit)}`;
    }
    case 'context':
      return (
        `context after the turn ${n(cause.tokens)} (${cause.source === 'recorded usage' ? 'recorded usage + estimates of what followed' : 'OpenClaw estimate'}) ` +
        `> window − reserve ${n(cause.limit)}, over by ${n(cause.tokens - cause.limit)}`
      );
    case 'session':
      return (
        `session after the run ${n(cause.tokens)} (${cause.source === 'prompt usage' ? "the last prompt's recorded usage" : 'precheck estimate of its messages'}) ` +
        `> prompt budget ${n(cause.limit)} (window − effective reserve), over by ${n(cause.tokens - cause.limit)}`
      );
    case 'request':
      return '/compact asked for before the turn';
    case 'shrank':
      return (
        `not reported: ${event.engineId} owns compaction and sent ${n(event.tokensAfter ?? 0)} tokens where the turn ` +
        `before sent and added ${n(event.tokensBefore ?? 0)}, with no compact() call (it compacted on its own)`
      );
  }
}
