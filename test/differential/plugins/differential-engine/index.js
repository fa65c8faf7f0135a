// differential-engine — a context engine for ContextScope's differential tests against real OpenClaw. It passes the
// history through unchanged and appends one JSON line per engine call to `logFile`, so the call sequence real
// OpenClaw made can be compared with the one ContextScope's replay made. Config switches:
// - turnCommit: declare both transcript semantics and implement commitTurn (OpenClaw 2026.8+ turn advancement);
// - systemPromptAddition: returned by assemble;
// - assembleThrowsOn: assemble throws when the turn's prompt contains this text;
// - ownsCompaction: compact() keeps a summary of everything assembled so far (its state lives beside logFile,
//   because each OpenClaw CLI turn is a new process); otherwise compact() hands the work back to the runtime.
import fs from 'node:fs';
import { delegateCompactionToRuntime } from 'openclaw/plugin-sdk/core';

const ENGINE_ID = 'differential-engine';

function readState(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { lastAssembleCount: 0, cutAt: 0, compactions: 0 };
  }
}

function textChars(messages) {
  return messages.reduce((n, m) => n + JSON.stringify(m.content ?? '').length, 0);
}

function createEngine(config) {
  const logFile = typeof config.logFile === 'string' ? config.logFile : undefined;
  const stateFile = logFile ? `${logFile}.state.json` : undefined;
  const log = (method, extra = {}) => {
    if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ method, ...extra })}\n`);
  };
  const state = () => (stateFile ? readState(stateFile) : { lastAssembleCount: 0, cutAt: 0, compactions: 0 });
  const save = (s) => stateFile && fs.writeFileSync(stateFile, JSON.stringify(s));
  const engine = {
    info: {
      id: ENGINE_ID,
      name: 'Differential Engine',
      version: '1.0.0',
      ownsCompaction: config.ownsCompaction === true,
      ...(config.turnCommit
        ? {
            transcriptSemantics: {
              currentTurnFence: 'before-current-turn-entry-v1',
              turnAdvancementIdempotency: 'atomic-idempotent-v1',
            },
          }
        : {}),
    },
    async bootstrap() {
      log('bootstrap');
      return { bootstrapped: true };
    },
    async maintain(params) {
      log('maintain', { reason: params?.reason ?? null });
      return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
    },
    async ingest() {
      log('ingest');
      return { ingested: false };
    },
    async assemble(params) {
      const all = Array.isArray(params.messages) ? params.messages : [];
      const s = state();
      s.lastAssembleCount = all.length;
      save(s);
      log('assemble', { messages: all.length });
      if (config.assembleThrowsOn && String(params.prompt ?? '').includes(config.assembleThrowsOn)) {
        throw new Error(`assemble refused: ${config.assembleThrowsOn}`);
      }
      let messages = all;
      if (config.ownsCompaction && s.cutAt > 0) {
        const summary = {
          role: 'user',
          content: `[summary of ${s.cutAt} earlier messages, compaction ${s.compactions}]`,
          timestamp: all[s.cutAt - 1]?.timestamp ?? 0,
        };
        messages = [summary, ...all.slice(s.cutAt)];
      }
      const result = { messages, estimatedTokens: Math.ceil(textChars(messages) / 4) };
      if (config.systemPromptAddition) result.systemPromptAddition = config.systemPromptAddition;
      return result;
    },
    async afterTurn(params) {
      log('afterTurn', { messages: params?.messages?.length ?? null });
    },
    async compact(params) {
      log('compact', { force: params?.force ?? null });
      if (!config.ownsCompaction) return delegateCompactionToRuntime(params);
      const s = state();
      const tokensBefore = typeof params?.currentTokenCount === 'number' ? params.currentTokenCount : 0;
      s.cutAt = s.lastAssembleCount;
      s.compactions += 1;
      save(s);
      return {
        ok: true,
        compacted: true,
        result: { summary: `summary ${s.compactions}`, tokensBefore, tokensAfter: Math.floor(tokensBefore / 4) },
      };
    },
  };
  if (config.turnCommit) {
    engine.commitTurn = async (params) => {
      log('commitTurn', { roles: (params?.messages ?? []).map((m) => m.role) });
      return { status: 'committed' };
    };
  }
  return engine;
}

export default {
  id: 'differential-engine',
  name: 'Differential Engine',
  description: 'Logs every engine call for the differential tests.',
  register(api) {
    const config = api.pluginConfig ?? {};
    api.registerContextEngine(ENGINE_ID, () => createEngine(config));
  },
};
