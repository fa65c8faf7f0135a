/**
 * The Config view's state: openclaw.json as `config.read` gave it, the draft (form changes, or the raw editor's
 * text), its live preview (`config.preview`, debounced), the save and what can go wrong with it (a validation
 * refusal, a file changed on disk: reload and re-apply), backups, and how far try-before-save got (the workflow
 * itself, a replay of the saved and the edited config as two lanes, then Compare, is flows/tryBeforeSave.ts).
 * Leaving the section with unsaved changes asks first (UNSAVED_LEAVE_QUESTION, asked by the view).
 */
import { create, type StoreApi } from 'zustand';
import type { InspectorApi } from '../../../src/bridge';
import type { ConfigPreviewInfo, ConfigReadResponse, ConfigSaveResponse } from '../../../src/bridge/methods';
import {
  applyCompactionForm,
  draftChanges,
  draftSize,
  EMPTY_DRAFT,
  normalizeDraft,
  withoutUndefined,
  type ConfigDraft,
} from '../model/configDraft';
import { errorText } from './errorText';
import { onStateDirChange, useWorkspaceStore } from './workspaceStore';

export interface ConfigLocation {
  configPath?: string;
  stateDir?: string;
  /** engine ids per plugin, from a doctor run that executed the plugins */
  engines?: Record<string, string[]>;
}

export interface ConfigConflict {
  message: string;
  /** what changed on disk since the file was read */
  externalDiff: string;
}

export interface ConfigTryState {
  status: 'idle' | 'preparing' | 'started' | 'failed';
  notes: string[];
  error: string | null;
}

export interface ConfigState {
  location: ConfigLocation;
  read: ConfigReadResponse | null;
  loading: boolean;
  loadError: string | null;
  draft: ConfigDraft;
  /** the raw editor's text while the file is edited as text (it then replaces the form's changes) */
  rawText: string | null;
  preview: ConfigPreviewInfo | null;
  previewError: string | null;
  saving: boolean;
  /** what the last save did ("Saved …"), or why it was refused */
  saveMessage: { tone: 'info' | 'error'; text: string } | null;
  conflict: ConfigConflict | null;
  search: string;
  tryState: ConfigTryState;
  previewDelayMs: number;

  load(api: InspectorApi, location?: ConfigLocation): Promise<void>;
  setSearch(search: string): void;
  editDraft(api: InspectorApi, update: (draft: ConfigDraft, read: ConfigReadResponse) => ConfigDraft): void;
  setRawText(api: InspectorApi, text: string | null): void;
  /** previews the draft again (the view does so every few seconds: a change on disk shows up as "stale") */
  refreshPreview(api: InspectorApi): void;
  discard(): void;
  save(api: InspectorApi): Promise<void>;
  reloadAndReapply(api: InspectorApi): Promise<void>;
  restore(api: InspectorApi, backupFile: string): Promise<void>;
  setTryState(tryState: ConfigTryState): void;
}

const initial = {
  location: {} as ConfigLocation,
  read: null,
  loading: false,
  loadError: null,
  draft: EMPTY_DRAFT,
  rawText: null,
  preview: null,
  previewError: null,
  saving: false,
  saveMessage: null,
  conflict: null,
  search: '',
  tryState: { status: 'idle', notes: [], error: null } as ConfigTryState,
  previewDelayMs: 200,
};

/** Unsaved changes: a draft, or raw text that differs from the file. */
export function isDirty(state: Pick<ConfigState, 'draft' | 'rawText' | 'read'>): boolean {
  if (state.rawText !== null) return state.rawText !== (state.read?.text ?? '');
  return draftSize(state.draft) > 0;
}

/** What config.preview, config.save and config.tryLanes take for the edit: the raw text, or the form's changes. */
export function configInput(state: Pick<ConfigState, 'rawText' | 'draft'>) {
  return state.rawText !== null ? { text: state.rawText } : { changes: draftChanges(state.draft) };
}

/** What leaving the section with unsaved changes asks. */
export const UNSAVED_LEAVE_QUESTION =
  'openclaw.json has unsaved changes. Leave the Config section? (Your changes are kept until you discard them.)';

let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewSeq = 0;

type Set = StoreApi<ConfigState>['setState'];
type Get = StoreApi<ConfigState>['getState'];

/** The draft's preview, debounced; an answer for an older draft is dropped. */
function schedulePreview(set: Set, get: Get, api: InspectorApi): void {
  clearTimeout(previewTimer);
  const seq = ++previewSeq;
  if (!isDirty(get()) || !get().read) return set({ preview: null, previewError: null });
  previewTimer = setTimeout(async () => {
    const state = get();
    try {
      const preview = await api.call('config.preview', {
        ...state.location,
        baseHash: state.read!.hash,
        ...configInput(state),
      });
      if (seq === previewSeq) set({ preview, previewError: null });
    } catch (error) {
      if (seq === previewSeq) set({ previewError: errorText(error) });
    }
  }, get().previewDelayMs);
}

async function applySaveResult(set: Set, get: Get, api: InspectorApi, result: ConfigSaveResponse): Promise<void> {
  if (result.ok) {
    const text = result.written
      ? `Saved ${result.path}.${result.backupFile ? ` The previous version is kept as ${result.backupFile}.` : ''}`
      : 'Nothing to save: the file already says this.';
    set({ draft: EMPTY_DRAFT, rawText: null, preview: null, conflict: null });
    await get().load(api, get().location);
    set({ saveMessage: { tone: 'info', text } });
  } else if (result.reason === 'changed-on-disk') {
    set({ conflict: { message: result.message, externalDiff: result.externalDiff }, saveMessage: null });
  } else {
    set({ saveMessage: { tone: 'error', text: result.message } });
  }
}

async function load(set: Set, get: Get, api: InspectorApi, location?: ConfigLocation): Promise<void> {
  const asked = location ?? get().location;
  // no folder named: the app's state dir (the one Sessions, Plugins and Doctor read)
  const stateDir =
    asked.stateDir ?? (asked.configPath ? undefined : (await useWorkspaceStore.getState().ensure(api))?.stateDir);
  const where = stateDir ? { ...asked, stateDir } : asked;
  set({ loading: true, loadError: null, location: where, saveMessage: null });
  try {
    const read = await api.call('config.read', where);
    // a file that is not JSON5 opens in the text editor (raw mode)
    set({ read, loading: false, rawText: read.syntaxError ? read.text : get().rawText });
    schedulePreview(set, get, api);
  } catch (error) {
    set({ loading: false, loadError: errorText(error) });
  }
}

async function save(set: Set, get: Get, api: InspectorApi): Promise<void> {
  const state = get();
  if (!state.read || !isDirty(state) || state.saving) return;
  set({ saving: true, saveMessage: null });
  try {
    const result = await api.call('config.save', {
      ...state.location,
      baseHash: state.read.hash,
      ...configInput(state),
    });
    set({ saving: false });
    await applySaveResult(set, get, api, result);
  } catch (error) {
    set({ saving: false, saveMessage: { tone: 'error', text: errorText(error) } });
  }
}

async function restore(set: Set, get: Get, api: InspectorApi, backupFile: string): Promise<void> {
  const read = get().read;
  if (!read) return;
  try {
    const result = await api.call('config.restore', { ...get().location, baseHash: read.hash, backupFile });
    await applySaveResult(set, get, api, result);
  } catch (error) {
    set({ saveMessage: { tone: 'error', text: errorText(error) } });
  }
}

export const useConfigStore = create<ConfigState>()((set, get) => ({
  ...initial,
  load: (api, location) => load(set, get, api, location),
  setSearch: (search) => set({ search }),
  editDraft(api, update) {
    const read = get().read;
    if (!read || read.readOnly) return;
    set({ draft: normalizeDraft(read, update(get().draft, read)), saveMessage: null });
    schedulePreview(set, get, api);
  },
  setRawText(api, text) {
    set({ rawText: text, saveMessage: null, ...(text !== null ? { draft: EMPTY_DRAFT } : {}) });
    schedulePreview(set, get, api);
  },
  refreshPreview: (api) => {
    if (isDirty(get()) && !get().saving) schedulePreview(set, get, api);
  },
  discard() {
    clearTimeout(previewTimer);
    previewSeq++;
    const read = get().read;
    set({
      draft: EMPTY_DRAFT,
      rawText: read?.syntaxError ? read.text : null,
      preview: null,
      conflict: null,
      saveMessage: null,
    });
  },
  save: (api) => save(set, get, api),
  // the draft is a list of path changes: it applies to the new version as it did to the old one
  reloadAndReapply: async (api) => {
    set({ conflict: null });
    await get().load(api, get().location);
  },
  restore: (api, backupFile) => restore(set, get, api, backupFile),
  setTryState: (tryState) => set({ tryState }),
}));

// another state dir: its openclaw.json (unless unsaved changes of the current file are pending)
onStateDirChange((api, info) => {
  const state = useConfigStore.getState();
  if (state.location.configPath || isDirty(state)) return;
  void state.load(api, { ...state.location, stateDir: info.stateDir });
});

export { applyCompactionForm, withoutUndefined };

export function resetConfigStore(): void {
  clearTimeout(previewTimer);
  useConfigStore.setState({ ...initial });
}
