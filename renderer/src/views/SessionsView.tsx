import { useMemo } from 'react';
import type { WorkspaceInfo } from '../../../src/bridge';
import { enginesFromDoctor } from '../model/configSlots';
import { useDoctorStore } from '../store/doctorStore';
import { useInspectorClient } from '../bridge/ClientContext';
import { BatchLauncher } from '../components/BatchLauncher';
import { BatchTable } from '../components/BatchTable';
import { ConsentDialog } from '../components/ConsentDialog';
import { Notice } from '../components/Notice';
import { ReplayForm } from '../components/ReplayForm';
import { RunStatus } from '../components/RunStatus';
import { SessionFilters } from '../components/SessionFilters';
import { SessionTable } from '../components/SessionTable';
import { StateDirForm } from '../components/StateDirForm';
import { laneChoices, shownLanes, type LaneChoice } from '../model/laneChoices';
import { buildSessionRows, sessionAgents, sessionTitle, type ListedSession } from '../model/sessionRows';
import { useAppStore } from '../store/appStore';
import { useBatchStore } from '../store/batchStore';
import { usePluginsStore } from '../store/pluginsStore';
import { useReplayStore } from '../store/replayStore';
import { fieldSources, useSessionDefaultsStore } from '../store/sessionDefaults';
import { useSessionsStore } from '../store/sessionsStore';
import { useWorkspaceStore } from '../store/workspaceStore';
import { RecentRecordingsCard } from './RecentRecordingsCard';
import { useDemoLanePreselected, useSessionDefaultsApplied, useSessionsAndPluginsLoaded } from './useSessionsViewSetup';
import './SessionsView.css';

function originText(info: WorkspaceInfo | null): string {
  if (!info) return '';
  if (info.source === 'chosen') return 'chosen here';
  return info.source === 'OPENCLAW_STATE_DIR' ? '$OPENCLAW_STATE_DIR' : 'OpenClaw’s default';
}

/** Which folder's sessions are listed, and the controls that change it. */
function SessionSourceBar() {
  const client = useInspectorClient();
  const sessions = useSessionsStore();
  const workspace = useWorkspaceStore();
  const info = workspace.info;
  return (
    <>
      <StateDirForm
        stateDir={info?.stateDir ?? ''}
        stateDirOrigin={originText(info)}
        source={sessions.source === 'demo' && !sessions.fallbackNote ? 'demo' : 'state'}
        hasDemos={Boolean(info?.demoDir)}
        loading={sessions.loading || workspace.choosing}
        disabled={!client}
        onChoose={(stateDir) => client && void workspace.choose(client, stateDir)}
        onShowSource={(source) =>
          client && void (source === 'demo' ? sessions.load(client) : sessions.loadWorkspace(client))
        }
      />
      {sessions.stateDir && (
        <p className="muted">
          Listing <span className="mono path">{sessions.stateDir}</span>
        </p>
      )}
      {sessions.fallbackNote && <Notice tone="info">{sessions.fallbackNote}</Notice>}
      {workspace.error && <Notice tone="error">{workspace.error}</Notice>}
    </>
  );
}

/** "Replay all sessions…": the form's lanes over every listed session (batch.start). */
function BatchStart({ choices }: { choices: readonly LaneChoice[] }) {
  const client = useInspectorClient();
  const sessions = useSessionsStore();
  const form = useReplayStore((s) => s.form);
  const batch = useBatchStore();
  return (
    <BatchLauncher
      sessionCount={sessions.sessions.filter((s) => !s.isSubagent && !s.archived).length}
      busy={batch.starting || batch.batch?.status === 'running'}
      disabled={!client || !sessions.stateDir}
      problem={batch.error}
      onStart={() =>
        client &&
        void batch.start(client, sessions.stateDir, { ...form, lanes: shownLanes(form.lanes, choices) }, choices)
      }
    />
  );
}

/** The batch's table, live; a row opens its Recording in the Replay view. Asks consent for its plugins first. */
function BatchResults() {
  const client = useInspectorClient();
  const batch = useBatchStore();
  return (
    <>
      {batch.batch && (
        <BatchTable
          batch={batch.batch}
          opening={batch.opening}
          onOpen={(index) => client && void batch.open(client, index)}
          onCancel={() => client && void batch.cancel(client)}
        />
      )}
      {batch.pending && client && (
        <ConsentDialog
          requests={batch.pending.requests}
          busy={batch.consentBusy}
          onApprove={() => void batch.confirmConsent(client, 'approve')}
          onRunOnce={() => void batch.confirmConsent(client, 'once')}
          onCancel={batch.dismissConsent}
        />
      )}
    </>
  );
}

/**
 * Start waits while the list is read (a row of the folder shown before would be replayed) and while the chosen
 * session's defaults are read (the form would still hold the previous session's window).
 */
function startWaitReason(listing: boolean, readingDefaults: boolean): string | null {
  if (listing) return 'Listing the sessions…';
  return readingDefaults ? 'Reading the session’s settings…' : null;
}

/**
 * The replay form for the chosen session with the session's defaults (and why they are missing, when they could
 * not be read), and the run's progress. Start runs exactly the lanes the form shows.
 */
function SessionReplayForm({ choices, selected }: { choices: readonly LaneChoice[]; selected: ListedSession | null }) {
  const client = useInspectorClient();
  const replay = useReplayStore();
  const selectSection = useAppStore((s) => s.selectSection);
  const listing = useSessionsStore((s) => s.loading);
  const defaults = useSessionDefaultsStore((s) => s.defaults);
  const defaultsLoading = useSessionDefaultsStore((s) => s.loading);
  const defaultsProblem = useSessionDefaultsStore((s) => (s.sessionFile === selected?.file ? s.error : null));
  const workspaceChoosing = useWorkspaceStore((s) => s.choosing);
  const sources = useMemo(() => (defaults ? fieldSources(defaults) : null), [defaults]);
  const running = replay.run?.status === 'starting' || replay.run?.status === 'running';
  return (
    <>
      <ReplayForm
        sessionTitle={selected ? sessionTitle(selected) : null}
        choices={choices}
        form={replay.form}
        problem={replay.formError}
        running={running}
        waitReason={startWaitReason(listing || workspaceChoosing, defaultsLoading)}
        sources={sources}
        sourcesProblem={defaultsProblem}
        sessionProblem={selected?.problem ?? null}
        onToggleLane={replay.toggleLane}
        onChange={replay.setForm}
        onStart={() => {
          if (!client || !selected) return;
          const session = { file: selected.file, title: sessionTitle(selected) };
          void replay.requestStart(client, session, choices, {
            form: { lanes: shownLanes(replay.form.lanes, choices) },
          });
        }}
      />
      {replay.run && (
        <RunStatus
          run={replay.run}
          onCancel={() => client && void replay.cancel(client)}
          onOpen={() => selectSection('replay')}
        />
      )}
    </>
  );
}

/** Choose a session and lanes, give consent for plugin code, run the replay and watch its progress. */
export function SessionsView() {
  const client = useInspectorClient();
  const sessions = useSessionsStore();
  const plugins = usePluginsStore();
  const replay = useReplayStore();
  useSessionsAndPluginsLoaded(client);
  useSessionDefaultsApplied(client);
  const rows = useMemo(() => buildSessionRows(sessions.sessions, sessions.view), [sessions.sessions, sessions.view]);
  const agents = useMemo(() => sessionAgents(sessions.sessions), [sessions.sessions]);
  const doctorReport = useDoctorStore((s) => s.report);
  const choices = useMemo(
    () => laneChoices(plugins.list?.plugins ?? [], enginesFromDoctor(doctorReport)),
    [plugins.list, doctorReport],
  );
  useDemoLanePreselected(choices);
  const selected = sessions.sessions.find((s) => s.file === sessions.selectedFile) ?? null;

  return (
    <div className="view sessions-view">
      <h1 className="view__title">Sessions</h1>
      <SessionSourceBar />
      {sessions.error && <Notice tone="error">Could not list sessions: {sessions.error}</Notice>}
      {plugins.error && <Notice tone="error">Could not list plugins: {plugins.error}</Notice>}
      <div className="sessions-view__grid">
        <div className="sessions-view__list">
          <SessionFilters
            view={sessions.view}
            agents={agents}
            shown={rows.length}
            total={sessions.sessions.length}
            onChange={sessions.setView}
          />
          <SessionTable rows={rows} selectedFile={sessions.selectedFile} onSelect={sessions.select} />
        </div>
        <div className="sessions-view__side">
          <SessionReplayForm choices={choices} selected={selected} />
          <BatchStart choices={choices} />
          <RecentRecordingsCard />
        </div>
      </div>
      <BatchResults />
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
