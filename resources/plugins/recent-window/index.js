// recent-window — an OpenClaw context engine that sends the newest whole turns fitting the prompt budget.
//
// It does not own compaction: OpenClaw's built-in compactor still runs (auto, /compact, overflow recovery) and
// compact() hands the request straight back to it through delegateCompactionToRuntime. The engine keeps no
// message store of its own; the host persists the transcript, so ingest() is a no-op.

import {
  buildMemorySystemPromptAddition,
  definePluginEntry,
  delegateCompactionToRuntime,
} from 'openclaw/plugin-sdk/core';

import { resolveConfig } from './lib/config.js';
import { estimateTextTokens } from './lib/estimateTokens.js';
import { selectRecentWindow } from './lib/selectRecentWindow.js';

const PLUGIN_ID = 'recent-window';
const ENGINE_ID = 'recent-window';
const VERSION = '1.0.0';
// Enough sessions for a busy gateway's status command without growing forever.
const MAX_TRACKED_SESSIONS = 64;

/** Last assemble() outcome per session, for the /recent-window-status command. Insertion-ordered = LRU. */
function createStatusBoard() {
  const bySession = new Map();
  return {
    record(sessionId, entry) {
      bySession.delete(sessionId);
      bySession.set(sessionId, entry);
      if (bySession.size > MAX_TRACKED_SESSIONS) bySession.delete(bySession.keys().next().value);
    },
    entries() {
      return [...bySession.entries()];
    },
  };
}

function buildSystemPromptAddition(config, params) {
  const parts = [];
  if (config.includeMemoryPrompt) {
    const memory = buildMemorySystemPromptAddition({
      availableTools: params.availableTools ?? new Set(),
      citationsMode: params.citationsMode,
    });
    if (typeof memory === 'string' && memory.trim() !== '') parts.push(memory.trim());
  }
  if (config.memoryNote !== '') parts.push(config.memoryNote);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function createRecentWindowEngine({ config, logger, statusBoard }) {
  return {
    info: {
      id: ENGINE_ID,
      name: 'Recent Window',
      version: VERSION,
      ownsCompaction: false,
    },

    // The host already persists every message to the session transcript; nothing to store here.
    async ingest() {
      return { ingested: false };
    },

    async assemble(params) {
      const messages = Array.isArray(params.messages) ? params.messages : [];
      const systemPromptAddition = buildSystemPromptAddition(config, params);
      const tokenBudget =
        typeof params.tokenBudget === 'number' && params.tokenBudget > 0
          ? params.tokenBudget
          : config.fallbackTokenBudget;
      // Our addition is prepended to the system prompt after the host computed tokenBudget, so pay for it here.
      const budgetTokens = Math.max(
        1,
        Math.floor(tokenBudget * config.budgetShare) - estimateTextTokens(systemPromptAddition),
      );

      const window = selectRecentWindow(messages, { budgetTokens, minRecentTurns: config.minRecentTurns });
      statusBoard.record(params.sessionId, {
        inputMessages: messages.length,
        keptMessages: window.messages.length,
        keptTurns: window.keptTurns,
        pinnedSummary: window.pinnedSummary,
        estimatedTokens: window.estimatedTokens,
        budgetTokens,
      });
      if (window.estimatedTokens > budgetTokens) {
        logger.warn(
          `${ENGINE_ID}: session ${params.sessionId}: the newest ${config.minRecentTurns} turn(s) need ` +
            `${window.estimatedTokens} tokens, over the ${budgetTokens}-token window; sending them anyway ` +
            `(lower minRecentTurns or let OpenClaw compact).`,
        );
      }

      const result = {
        messages: window.messages,
        estimatedTokens: window.estimatedTokens,
      };
      if (systemPromptAddition !== undefined) result.systemPromptAddition = systemPromptAddition;
      return result;
    },

    // Not owning compaction means /compact and overflow recovery still land here; a no-op would disable them.
    async compact(params) {
      return delegateCompactionToRuntime(params);
    },

    async afterTurn() {
      // Nothing to do: the next assemble() re-windows whatever the transcript holds by then.
    },
  };
}

export default definePluginEntry({
  id: PLUGIN_ID,
  name: 'Recent Window',
  description: 'Sends the newest whole turns that fit the prompt budget; compaction stays with OpenClaw.',
  register(api) {
    const config = resolveConfig(api.pluginConfig);
    const logger = api.logger;
    const statusBoard = createStatusBoard();

    api.registerContextEngine(ENGINE_ID, () => createRecentWindowEngine({ config, logger, statusBoard }));

    api.on('before_compaction', (event, ctx) => {
      const session = ctx?.sessionKey ?? ctx?.sessionId ?? event?.sessionId ?? 'unknown session';
      logger.debug?.(
        `${ENGINE_ID}: OpenClaw is compacting ${session}; the next window is taken from the compacted history.`,
      );
    });

    api.registerCommand({
      name: 'recent-window-status',
      description: 'Show what the recent-window engine sent for each session on its last turn.',
      acceptsArgs: false,
      handler: async () => {
        const lines = statusBoard
          .entries()
          .map(
            ([sessionId, s]) =>
              `${sessionId}: ${s.keptMessages}/${s.inputMessages} messages, ${s.keptTurns} turn(s), ` +
              `~${s.estimatedTokens}/${s.budgetTokens} tokens${s.pinnedSummary ? ', summary pinned' : ''}`,
          );
        return { text: lines.length > 0 ? lines.join('\n') : 'recent-window has not assembled any session yet.' };
      },
    });

    logger.info(
      `${ENGINE_ID}: registered context engine "${ENGINE_ID}" (budgetShare=${config.budgetShare}, ` +
        `minRecentTurns=${config.minRecentTurns}, memoryPrompt=${config.includeMemoryPrompt ? 'on' : 'off'})`,
    );
  },
});
