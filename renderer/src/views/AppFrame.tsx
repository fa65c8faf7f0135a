import { lazy, Suspense, useEffect } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import { AppHeader } from '../components/AppHeader';
import { NavigationList } from '../components/NavigationList';
import { startDeepLinks } from '../router/deepLinks';
import { handleShellEvent } from '../router/shellCommands';
import { useFileDrop } from '../router/useFileDrop';
import { SECTIONS, useAppStore, type SectionId } from '../store/appStore';
import { useOverlayStore } from '../store/overlayStore';
import { useReplayStore } from '../store/replayStore';
import { useThemeStore } from '../theme';
import { AppOverlays, ShellProblem } from './AppOverlays';
import { DoctorView } from './DoctorView';
import { OverviewView } from './OverviewView';
import { PluginsView } from './PluginsView';
import { useRecentRecordings } from './RecentRecordingsCard';
import { ReplayView } from './ReplayView';
import { SessionsView } from './SessionsView';
import { useGlobalKeys } from './useGlobalKeys';
import './AppFrame.css';

// loaded when first opened: they are large and not what the app starts on
const CompareView = lazy(() => import('./CompareView').then((m) => ({ default: m.CompareView })));
const ConfigView = lazy(() => import('./ConfigView').then((m) => ({ default: m.ConfigView })));

export interface AppFrameProps {
  /** Why no client could be created (e.g. no token in the URL); null when there is a client. */
  clientProblem?: string | null;
}

/** Header (app + runtime status), navigation, main panel. Connects the client to the app store. */
export function AppFrame({ clientProblem = null }: AppFrameProps) {
  const client = useInspectorClient();
  const info = useAppStore((state) => state.info);
  const connection = useAppStore((state) => state.connection);
  const connectionProblem = useAppStore((state) => state.connectionProblem);
  const activeSection = useAppStore((state) => state.activeSection);
  const selectSection = useAppStore((state) => state.selectSection);

  useEffect(() => {
    const store = useAppStore.getState();
    if (!client) {
      store.setTransport(null);
      store.setConnection('disconnected', clientProblem ?? 'No bridge to the ContextScope runtime.');
      return;
    }
    store.setTransport(client.transport);
    store.setConnection(client.connectionState());
    const unsubscribe = client.onConnectionChange((state, reason) =>
      useAppStore.getState().setConnection(state, reason ?? null),
    );
    const unsubscribeEvents = client.onEvent(
      (event) => handleShellEvent(event, client) || useReplayStore.getState().handleEvent(event),
    );
    const stopLinks = startDeepLinks(client);
    void store.loadOverview(client);
    return () => {
      unsubscribe();
      unsubscribeEvents();
      stopLinks();
    };
  }, [client, clientProblem]);
  useGlobalKeys();
  useRecentRecordings(client);
  const dragging = useFileDrop(client);
  const theme = useThemeStore((state) => state.choice);
  const setTheme = useThemeStore((state) => state.setChoice);

  return (
    <div className="frame">
      <AppHeader
        info={info}
        connection={connection}
        connectionProblem={connectionProblem}
        theme={theme}
        onChooseTheme={setTheme}
        onShowShortcuts={() => useOverlayStore.getState().show('shortcuts')}
      />
      <div className="frame__body">
        <NavigationList entries={SECTIONS} activeId={activeSection} onSelect={(id) => selectSection(id as SectionId)} />
        <main className={`frame__main frame__main--${activeSection}`}>
          <ShellProblem />
          {activeSection === 'overview' && <OverviewView />}
          {activeSection === 'sessions' && <SessionsView />}
          {activeSection === 'replay' && <ReplayView />}
          <Suspense fallback={<p className="muted">Loading…</p>}>
            {activeSection === 'compare' && <CompareView />}
            {activeSection === 'plugins' && <PluginsView />}
            {activeSection === 'config' && <ConfigView />}
          </Suspense>
          {activeSection === 'doctor' && <DoctorView />}
        </main>
      </div>
      <AppOverlays dragging={dragging} />
    </div>
  );
}
