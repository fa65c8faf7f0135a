// Pure window selection: which of the host's messages the model sees this turn.
//
// The window is made of whole turns (a turn starts at a `user` message and runs up to the next one), so an
// assistant tool call always travels with its toolResults and the window never opens on an assistant or a
// toolResult message. The first summary message (compactionSummary / branchSummary) is pinned in front: it
// stands for everything OpenClaw's compactor already folded away.

import { estimateMessageTokens } from './estimateTokens.js';

const SUMMARY_ROLES = new Set(['compactionSummary', 'branchSummary']);
// A window may not open on these: the model would see a reply, or a tool result, with no request before it.
const FORBIDDEN_WINDOW_STARTS = new Set(['assistant', 'toolResult']);

/**
 * Split messages into turns. Each turn is `{ start, end, tokens, isUserTurn }` over indexes of `messages`
 * (end exclusive). Anything before the first user message forms a leading non-user "turn".
 */
function splitIntoTurns(messages, tokensAt) {
  const turns = [];
  let current = null;
  for (let i = 0; i < messages.length; i++) {
    if (current === null || messages[i].role === 'user') {
      current = { start: i, end: i, tokens: 0, isUserTurn: messages[i].role === 'user' };
      turns.push(current);
    }
    current.end = i + 1;
    current.tokens += tokensAt[i];
  }
  return turns;
}

/**
 * @param {object[]} messages       the host's messages (already sanitized by OpenClaw's history pipeline)
 * @param {object}   options
 * @param {number}   options.budgetTokens    tokens the returned messages may use
 * @param {number}   options.minRecentTurns  newest user turns kept regardless of the budget
 * @returns {{ messages: object[], estimatedTokens: number, pinnedSummary: boolean, keptTurns: number,
 *             droppedMessages: number }}
 */
export function selectRecentWindow(messages, { budgetTokens, minRecentTurns }) {
  // Messages flagged excludeFromContext never reach the model; leave them out of the window entirely.
  const visible = messages.filter((m) => m && typeof m === 'object' && m.excludeFromContext !== true);

  const pinnedIndex = visible.findIndex((m) => SUMMARY_ROLES.has(m.role));
  const pinned = pinnedIndex >= 0 ? visible[pinnedIndex] : undefined;
  const body = pinnedIndex >= 0 ? visible.filter((_, i) => i !== pinnedIndex) : visible;

  const tokensAt = body.map(estimateMessageTokens);
  const pinnedTokens = pinned ? estimateMessageTokens(pinned) : 0;
  const turns = splitIntoTurns(body, tokensAt);

  // Walk turns newest → oldest and stop at the first that does not fit, so the window stays contiguous.
  let used = pinnedTokens;
  let firstKeptTurn = turns.length;
  let userTurnsKept = 0;
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t];
    if (!turn.isUserTurn && FORBIDDEN_WINDOW_STARTS.has(body[turn.start].role)) break;
    const required = turn.isUserTurn && userTurnsKept < minRecentTurns;
    if (!required && used + turn.tokens > budgetTokens) break;
    used += turn.tokens;
    firstKeptTurn = t;
    if (turn.isUserTurn) userTurnsKept++;
  }

  const windowStart = firstKeptTurn < turns.length ? turns[firstKeptTurn].start : body.length;
  const kept = body.slice(windowStart);
  const result = pinned ? [pinned, ...kept] : kept;
  return {
    messages: result,
    estimatedTokens: used,
    pinnedSummary: pinned !== undefined,
    keptTurns: turns.length - firstKeptTurn,
    droppedMessages: messages.length - result.length,
  };
}
