/**
 * THE bridge table: every InspectorApi method name → its implementation in src/. Both shells serve exactly this
 * table (main/electron/* over IPC, main/serve.ts over WebSocket); requests are validated against the method's
 * schema before any function here runs. No Electron import: this module also runs in plain Node.
 */
import { createConsentBroker, describeApp, describeHealth, type AppEnvironment, type ConsentPrompt } from '../src/app';
import { BridgeMethodError, type BridgeHandlers } from '../src/bridge';
import { confirmedConsent, createConsentStore, defaultConsentFile } from '../src/plugins';
import {
  createReplayService,
  LaneSpecError,
  listSessions,
  OpenClawJsonError,
  replayDefaults,
  RecordingPageError,
  ReplayNotFoundError,
} from '../src/replay';
import { createBatchHandlers } from './batchHandlers';
import { createConfigHandlers } from './configHandlers';
import { createPluginHandlers, type PluginHandlerEnvironment } from './pluginHandlers';
import { createWorkspaceHandlers } from './workspaceHandlers';

export interface HandlerEnvironment extends AppEnvironment, PluginHandlerEnvironment {
  /** Epoch ms the shell started (uptime is measured from here). Defaults to when the table is created. */
  startedAt?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
  /** asks the person before plugin code may run (Electron: a native dialog); browser mode logs what will run */
  confirmConsent?: (prompt: ConsentPrompt) => Promise<boolean>;
  /** where the shell's log lines go (consent given is logged) */
  log?: (line: string) => void;
  /** keep a tokenizer worker ready for the next replay (the shells; tests leave it out) */
  prestartTokenizer?: boolean;
}

export function createHandlers(env: HandlerEnvironment): BridgeHandlers {
  const startedAt = env.startedAt ?? Date.now();
  const now = env.now ?? Date.now;
  const appEnv: AppEnvironment = {
    shell: env.shell,
    runtimeHost: env.runtimeHost,
    electronVersion: env.electronVersion,
  };
  const broker = createConsentBroker({
    ...(env.confirmConsent ? { confirm: env.confirmConsent } : {}),
    ...(env.log ? { log: env.log } : {}),
  });
  // plugin lanes start engine hosts the way this shell does (Electron: utilityProcess) and honour the app's consent
  const replays = createReplayService({
    ...(env.prestartTokenizer ? { prestartTokenizer: true } : {}),
    plugins: {
      ...(env.engineHostTransport ? { transport: env.engineHostTransport } : {}),
      ...(env.consentFile ? { consentFile: env.consentFile } : {}),
    },
  });
  return {
    'app.info': () => describeApp(appEnv),
    'app.health': () => describeHealth(startedAt, now(), process.memoryUsage()),
    ...createPluginHandlers({
      consentFile: env.consentFile,
      engineHostTransport: env.engineHostTransport,
      consentBroker: broker,
    }),
    ...createConfigHandlers({ consentFile: env.consentFile }),
    ...createWorkspaceHandlers(replays),
    ...createBatchHandlers({ consentFile: env.consentFile, consentBroker: broker }),
    'replay.start': ({ consentNonce, ...params }, ctx) => {
      // consent comes from the main process (plugins.requestConsent), never from a flag in the request
      const confirmed = consentNonce !== undefined ? broker.take(consentNonce, 'run', '/consentNonce') : [];
      const consent =
        confirmed.length > 0
          ? { consent: confirmedConsent(confirmed, createConsentStore(env.consentFile ?? defaultConsentFile())) }
          : {};
      return asBridgeError(() =>
        replays.start({ ...params, ...consent }, (update) => ctx.emit('replay.progress', update)),
      );
    },
    // never a message over the bridge's bound: a long recording is `paged` and read with from/count
    'replay.get': ({ replayId, lane, fromTurn, toTurn, afterPass, from, count }) =>
      asBridgeError(() =>
        replays.read(replayId, {
          ...(lane !== undefined || fromTurn !== undefined || toTurn !== undefined
            ? { slice: { lane, fromTurn, toTurn } }
            : {}),
          afterPass,
          from,
          count,
        }),
      ),
    'replay.stream': ({ replayId, ...request }) => asBridgeError(() => replays.stream(replayId, request)),
    'replay.export': ({ replayId, format }) => asBridgeError(() => replays.export(replayId, format)),
    'replay.cancel': ({ replayId }) => asBridgeError(() => ({ cancelled: replays.cancel(replayId) })),
    'replay.defaults': (params) => asBridgeError(() => replayDefaults(params)),
    'sessions.list': ({ stateDir }) => listSessions(stateDir),
  };
}

/** Domain errors of the replay service as bridge errors with a code a client can act on. */
async function asBridgeError<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReplayNotFoundError) throw new BridgeMethodError('not_found', error.message, '/replayId');
    if (error instanceof RecordingPageError) throw new BridgeMethodError('invalid_params', error.message, error.path);
    if (error instanceof OpenClawJsonError) throw new BridgeMethodError('invalid_params', error.message, '/stateDir');
    if (error instanceof LaneSpecError) {
      throw new BridgeMethodError(
        'invalid_params',
        error.message,
        error.message.startsWith('Invalid host') ? '/host' : '/lanes',
      );
    }
    throw error;
  }
}
