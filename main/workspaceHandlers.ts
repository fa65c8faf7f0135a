/**
 * The `workspace.*` and `recordings.*` handlers of the bridge table: the state dir every view reads (remembered
 * in the app config dir) and the recent recordings kept there (bounded), including recordings opened from a file.
 * Both live in src/app (workspaceSettings.ts, recentRecordings.ts); this file maps requests onto them, pages long
 * recordings and turns domain errors into bridge errors.
 */
import {
  chooseStateDir,
  createRecentRecordings,
  readWorkspace,
  recentRecordingsDir,
  workspaceSettingsFile,
  type RecentRecordings,
} from '../src/app';
import { BridgeMethodError, type HandlersFor, type workspaceMethods } from '../src/bridge';
import {
  createPagedRecordings,
  exportRecordingJson,
  importRecording,
  RecordingImportError,
  RecordingPageError,
  ReplayNotFoundError,
  type ReplayService,
} from '../src/replay';
import { appConfigDir } from '../src/plugins';

export interface WorkspaceHandlerEnvironment {
  /** the app config dir (default: CONTEXTSCOPE_CONFIG_DIR or the platform's, read when each call runs) */
  configDir?: string;
}

type WorkspaceHandlers = HandlersFor<typeof workspaceMethods>;

export function createWorkspaceHandlers(
  replays: Pick<ReplayService, 'get'>,
  env: WorkspaceHandlerEnvironment = {},
): WorkspaceHandlers {
  const configDir = () => env.configDir ?? appConfigDir();
  const settings = () => ({ settingsFile: workspaceSettingsFile(configDir()) });
  const recent = (): RecentRecordings => createRecentRecordings({ dir: recentRecordingsDir(configDir()) });
  // a recording too large for one bridge message is read in pages; the readings between pages are kept here
  const pages = createPagedRecordings();

  return {
    'workspace.get': () => readWorkspace(settings()),
    'workspace.setStateDir': ({ stateDir }) => chooseStateDir(stateDir, settings()),
    'recordings.list': () => {
      const store = recent();
      return { recordings: store.list(), dir: store.dir, maxCount: store.maxCount, maxBytes: store.maxBytes };
    },
    'recordings.save': ({ replayId, title }) => {
      const recording = asImportError(() => replays.get(replayId).recording);
      if (!recording) {
        throw new BridgeMethodError('not_ready', `Replay ${replayId} has no recording yet: save it once it is done.`);
      }
      return recent().add(recording, exportRecordingJson(recording), { title, origin: 'replay', replayId });
    },
    'recordings.open': ({ id, ...request }) =>
      asImportError(() => {
        const store = recent();
        // the plain call and the first page make it the most recently opened, not every page
        const entry = store.entry(id, (request.from ?? 0) === 0);
        return { entry, ...pages.answer(`recent:${entry.id}`, () => store.read(entry.id), request) };
      }),
    'recordings.import': ({ fileName, content }) =>
      asImportError(() => {
        const name = fileName || 'the file';
        const recording = importRecording(content, name);
        const entry = recent().add(recording, content, {
          title: fileName.replace(/\.(recording\.)?json$/i, ''),
          origin: 'file',
          fileName,
        });
        // a `paged` one is read with recordings.open {id: entry.id, from}, from the reading kept here
        return { entry, ...pages.answer(`recent:${entry.id}`, () => recording, {}) };
      }),
    'recordings.remove': ({ id }) => ({ removed: recent().remove(id) }),
  };
}

/** A file that is not a Recording answers with what is wrong with it (JSON paths), not a generic failure. */
function asImportError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RecordingImportError)
      throw new BridgeMethodError('invalid_recording', error.message, '/content');
    if (error instanceof ReplayNotFoundError) throw new BridgeMethodError('not_found', error.message, '/replayId');
    if (error instanceof RecordingPageError) throw new BridgeMethodError('invalid_params', error.message, error.path);
    throw error;
  }
}
