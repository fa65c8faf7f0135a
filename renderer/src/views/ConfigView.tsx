import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { InspectorApi } from '../../../src/bridge';
import { useInspectorClient } from '../bridge/ClientContext';
import { ConfigIssues } from '../components/ConfigIssues';
import { ConfigPendingChanges } from '../components/ConfigPendingChanges';
import { ConfigRawEditor } from '../components/ConfigRawEditor';
import { Notice } from '../components/Notice';
import { draftSize } from '../model/configDraft';
import { enginesFromDoctor } from '../model/configSlots';
import { useDoctorStore } from '../store/doctorStore';
import { useAppStore } from '../store/appStore';
import { isDirty, UNSAVED_LEAVE_QUESTION, useConfigStore } from '../store/configStore';
import { isTypingTarget, matchShortcut } from '../shortcuts';
import { ConfigViewForms } from './ConfigViewForms';
import { ConfigConflictNotice, ConfigTrySection } from './ConfigViewPanels';
import './ConfigView.css';

const RECHECK_MS = 3000;

/** While the view is shown, leaving the section with unsaved changes asks first (the draft is kept either way). */
function useLeaveGuard() {
  useEffect(() => {
    const { setLeaveGuard } = useAppStore.getState();
    setLeaveGuard(() => !isDirty(useConfigStore.getState()) || window.confirm(UNSAVED_LEAVE_QUESTION));
    return () => setLeaveGuard(null);
  }, []);
}

/** Ctrl/Cmd+S saves, "/" goes to the search; closing the window with unsaved changes asks first. */
function useConfigKeys(onSave: () => void, searchRef: RefObject<HTMLInputElement | null>, dirty: boolean) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const id = matchShortcut(event, ['config.save', 'config.search']);
      if (id === 'config.save') {
        event.preventDefault();
        onSave();
      } else if (id === 'config.search' && !isTypingTarget(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onSave, searchRef]);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
}

interface HeaderProps {
  dirty: boolean;
  count: number;
  searchRef: RefObject<HTMLInputElement | null>;
  onToggleRaw?: () => void;
  rawMode: boolean;
  onReload?: () => void;
}

function ConfigViewHeader({ dirty, count, searchRef, onToggleRaw, rawMode, onReload }: HeaderProps) {
  const { search, setSearch, loading } = useConfigStore();
  return (
    <header className="view__header">
      <h1 className="view__title">
        Config{' '}
        {dirty && (
          <span className="config-view__dirty" data-testid="config-dirty" title="unsaved changes">
            ● {count} unsaved
          </span>
        )}
      </h1>
      <div className="config-view__tools">
        <input
          ref={searchRef}
          type="search"
          className="input config-view__search"
          placeholder="Search settings (/)"
          aria-label="Search settings"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setSearch('')}
        />
        {onToggleRaw && (
          <button type="button" className="button" onClick={onToggleRaw}>
            {rawMode ? 'Back to the forms' : 'Edit as text'}
          </button>
        )}
        <button type="button" className="button" disabled={!onReload || loading} onClick={onReload}>
          {loading ? 'Loading…' : 'Reload'}
        </button>
      </div>
    </header>
  );
}

/**
 * Loads the config once there is a client, and again when a doctor run that executed the plugins tells which
 * engine ids they register (the slot pickers list those).
 */
function useConfigLoaded(client: InspectorApi | null) {
  const report = useDoctorStore((s) => s.report);
  const enginesKey = useMemo(() => JSON.stringify(enginesFromDoctor(report) ?? null), [report]);
  useEffect(() => {
    const s = useConfigStore.getState();
    if (!client || s.loading) return;
    if (s.read && JSON.stringify(s.location.engines ?? null) === enginesKey) return;
    const { engines: _old, ...rest } = s.location;
    const engines = JSON.parse(enginesKey) as Record<string, string[]> | null;
    void s.load(client, { ...rest, ...(engines ? { engines } : {}) });
  }, [client, enginesKey]);
}

/** openclaw.json: slots, plugin settings, compaction; pending changes with their diff; try before save; undo. */
export function ConfigView() {
  const client = useInspectorClient();
  const state = useConfigStore();
  const searchRef = useRef<HTMLInputElement>(null);
  const dirty = isDirty(state);
  useConfigLoaded(client);
  useLeaveGuard();
  useConfigKeys(() => client && void useConfigStore.getState().save(client), searchRef, dirty);
  // while there are unsaved changes, look again every few seconds: a change made on disk meanwhile shows up
  useEffect(() => {
    if (!client || !dirty) return;
    const timer = setInterval(() => useConfigStore.getState().refreshPreview(client), RECHECK_MS);
    return () => clearInterval(timer);
  }, [client, dirty]);
  const { read } = state;
  const count = state.rawText !== null ? (dirty ? 1 : 0) : draftSize(state.draft);
  const issues = state.preview && dirty ? state.preview.issues : (read?.issues ?? []);
  return (
    <div className="view config-view">
      <ConfigViewHeader
        dirty={dirty}
        count={count}
        searchRef={searchRef}
        rawMode={state.rawText !== null}
        {...(client && read && !read.syntaxError
          ? {
              onToggleRaw: () =>
                state.setRawText(client, state.rawText === null ? (state.preview?.text ?? read.text) : null),
            }
          : {})}
        {...(client ? { onReload: () => void state.load(client) } : {})}
      />
      {read && (
        <p className="muted">
          <span className="mono path">{read.path}</span>
          {read.exists ? '' : ' (does not exist yet: your first save creates it)'} · state dir{' '}
          <span className="mono path">{read.stateDir}</span>
        </p>
      )}
      {state.loadError && <Notice tone="error">Could not read the config: {state.loadError}</Notice>}
      {read?.readOnly && <Notice tone="error">{read.readOnly}</Notice>}
      {state.saveMessage && <Notice tone={state.saveMessage.tone}>{state.saveMessage.text}</Notice>}
      {client && read && (
        <div className="config-view__layout">
          <div className="config-view__main">
            {state.rawText !== null ? (
              <ConfigRawEditor
                path={read.path}
                text={state.rawText}
                issues={issues}
                checking={dirty && !state.preview}
                onChange={(text) => state.setRawText(client, text)}
                {...(read.syntaxError ? {} : { onClose: () => state.setRawText(client, null) })}
              />
            ) : (
              <ConfigViewForms api={client} read={read} draft={state.draft} issues={issues} search={state.search} />
            )}
          </div>
          <aside className="config-view__side" aria-label="Changes">
            <ConfigConflictNotice api={client} />
            <ConfigPendingChanges
              preview={state.preview}
              previewError={state.previewError}
              count={count}
              saving={state.saving}
              onSave={() => void state.save(client)}
              onDiscard={state.discard}
            />
            <ConfigIssues issues={issues} title={dirty ? 'after your changes' : 'of the file'} />
            <ConfigTrySection api={client} read={read} />
          </aside>
        </div>
      )}
    </div>
  );
}
