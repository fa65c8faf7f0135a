import { useEffect } from 'react';
import type { InspectorApi } from '../../../src/bridge';
import type { ConfigReadResponse } from '../../../src/bridge/methods';
import { ConfigDiff } from '../components/ConfigDiff';
import { ConfigFiles } from '../components/ConfigFiles';
import { ConfigTryPanel } from '../components/ConfigTryPanel';
import { ConsentDialog } from '../components/ConsentDialog';
import { Notice } from '../components/Notice';
import { tryBeforeSave } from '../flows/tryBeforeSave';
import { RunStatus } from '../components/RunStatus';
import { sessionTitle } from '../model/sessionRows';
import { useAppStore } from '../store/appStore';
import { isDirty, useConfigStore } from '../store/configStore';
import { useReplayStore } from '../store/replayStore';
import { useSessionsStore } from '../store/sessionsStore';

/** The file changed on disk since it was read: what changed, and reload-and-reapply or discard. */
export function ConfigConflictNotice({ api }: { api: InspectorApi }) {
  const { conflict, reloadAndReapply, discard, load } = useConfigStore();
  if (!conflict) return null;
  return (
    <div className="config-view__conflict" data-testid="config-conflict">
      <Notice tone="error">
        {conflict.message}
        <div className="config-view__conflict-actions">
          <button type="button" className="button button--primary" onClick={() => void reloadAndReapply(api)}>
            Reload and re-apply my changes
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              discard();
              void load(api);
            }}
          >
            Discard my changes and reload
          </button>
        </div>
      </Notice>
      {conflict.externalDiff && (
        <>
          <p className="config-view__conflict-caption">What changed on disk since you loaded it:</p>
          <ConfigDiff diff={conflict.externalDiff} label="What changed on disk" />
        </>
      )}
    </div>
  );
}

/** Try before save (sessions from the Sessions view's state dir), the replay's consent and progress. */
export function ConfigTrySection({ api, read }: { api: InspectorApi; read: ConfigReadResponse }) {
  const sessions = useSessionsStore();
  const replay = useReplayStore();
  const state = useConfigStore();
  const selectSection = useAppStore((s) => s.selectSection);
  useEffect(() => {
    const s = useSessionsStore.getState();
    if (!s.loaded && !s.loading) void s.load(api);
  }, [api]);
  const selected = sessions.sessions.find((s) => s.file === sessions.selectedFile) ?? null;
  const preview = state.preview;
  const blocked = !isDirty(state)
    ? 'Change something first: the edited lane is the saved config plus your changes.'
    : !preview || preview.refused || !preview.ok
      ? (preview?.refused ??
        (preview ? 'The edited config does not validate: fix the errors first.' : 'Working out the change…'))
      : null;
  return (
    <>
      <ConfigTryPanel
        sessions={sessions.sessions
          .filter((s) => !s.isSubagent)
          .map((s) => ({
            file: s.file,
            label: `${sessionTitle(s)} · ${s.agentId}${s.turns !== undefined ? ` · ${s.turns} turns` : ''}`,
          }))}
        selectedFile={sessions.selectedFile}
        status={state.tryState.status}
        notes={state.tryState.notes}
        error={state.tryState.error}
        blocked={blocked}
        onSelect={(file) => sessions.select(file)}
        onTry={() => selected && void tryBeforeSave(api, { file: selected.file, title: sessionTitle(selected) })}
      />
      {replay.run && state.tryState.status === 'started' && (
        <RunStatus run={replay.run} onCancel={() => void replay.cancel(api)} onOpen={() => selectSection('replay')} />
      )}
      {replay.pending && (
        <ConsentDialog
          requests={replay.pending.requests}
          busy={replay.consentBusy}
          onApprove={() => void replay.confirmConsent(api, 'approve')}
          onRunOnce={() => void replay.confirmConsent(api, 'once')}
          onCancel={replay.dismissConsent}
        />
      )}
      <ConfigFiles
        includes={read.includes}
        backups={read.backups}
        busy={state.saving}
        onRestore={(backup) => {
          if (
            window.confirm(`Restore the version saved before ${backup.savedAt}? The current file is backed up first.`)
          )
            void state.restore(api, backup.file);
        }}
      />
    </>
  );
}
