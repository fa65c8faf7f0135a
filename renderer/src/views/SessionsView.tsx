import { useMemo } from 'react';
import { enginesFromDoctor } from '../model/configSlots';
import { useDoctorStore } from '../store/doctorStore';
import { useInspectorClient } from '../bridge/ClientContext';
import { ConsentDialog } from '../components/ConsentDialog';
import { Notice } from '../components/Notice';
import { ReplayForm } from '../components/ReplayForm';
import { RunStatus } from '../components/RunStatus';
import { SessionTable } from '../components/SessionTable';
import { StateDirForm } from '../components/StateDirForm';
import { laneChoices } from '../model/laneChoices';
import { buildSessionRows, sessionTitle } from '../model/sessionRows';
import { useAppStore } from '../store/appStore';
import { usePluginsStore } from '../store/pluginsStore';
import { useReplayStore } from '../store/replayStore';
import { useSessionsStore } from '../store/sessionsStore';
import { useDemoLanePreselected, useSessionsAndPluginsLoaded } from './useSessionsViewSetup';
import './SessionsView.css';

/** Choose a session and lanes, give consent for plugin code, run the replay and watch its progress. */
export function SessionsView() {
  const client = useInspectorClient();
  const sessions = useSessionsStore();
  const plugins = usePluginsStore();
  const replay = useReplayStore();
  const selectSection = useAppStore((s) => s.selectSection);
  useSessionsAndPluginsLoaded(client);

  const rows = useMemo(() => buildSessionRows(sessions.sessions), [sessions.sessions]);
  const doctorReport = useDoctorStore((s) => s.report);
  const choices = useMemo(
    () => laneChoices(plugins.list?.plugins ?? [], enginesFromDoctor(doctorReport)),
    [plugins.list, doctorReport],
  );
  useDemoLanePreselected(choices);
  const selected = sessions.sessions.find((s) => s.file === sessions.selectedFile) ?? null;
  const running = replay.run?.status === 'starting' || replay.run?.status === 'running';

  return (
    <div className="view sessions-view">
      <h1 className="view__title">Sessions</h1>
      <StateDirForm
        stateDir={sessions.stateDir}
        loading={sessions.loading}
        disabled={!client}
        onLoad={(stateDir) => client && void sessions.load(client, stateDir)}
      />
      {sessions.stateDir && (
        <p className="muted">
          From <span className="mono path">{sessions.stateDir}</span>
        </p>
      )}
      {sessions.error && <Notice tone="error">Could not list sessions: {sessions.error}</Notice>}
      {plugins.error && <Notice tone="error">Could not list plugins: {plugins.error}</Notice>}
      <div className="sessions-view__grid">
        <SessionTable rows={rows} selectedFile={sessions.selectedFile} onSelect={sessions.select} />
        <div className="sessions-view__side">
          <ReplayForm
            sessionTitle={selected ? sessionTitle(selected) : null}
            choices={choices}
            form={replay.form}
            problem={replay.formError}
            running={running}
            onToggleLane={replay.toggleLane}
            onChange={replay.setForm}
            onStart={() => {
              if (client && selected)
                void replay.requestStart(client, { file: selected.file, title: sessionTitle(selected) }, choices);
            }}
          />
          {replay.run && (
            <RunStatus
              run={replay.run}
              onCancel={() => client && void replay.cancel(client)}
              onOpen={() => selectSection('replay')}
            />
          )}
        </div>
      </div>
      {replay.pending && client && (
        <ConsentDialog
          requests={replay.pending.requests}
          busy={replay.consentBusy}
          onApprove={() => void replay.confirmConsent(client, 'approve')}
          onRunOnce={() => void replay.confirmConsent(client, 'once')}
          onCancel={replay.dismissConsent}
        />
      )}
    </div>
  );
}
