import { useInspectorClient } from '../bridge/ClientContext';
import { InfoCard } from '../components/InfoCard';
import { Notice } from '../components/Notice';
import { formatBytes, formatDuration } from '../formatQuantities';
import { useAppStore } from '../store/appStore';
import { openDemoReplay } from '../store/openDemo';
import { RecentRecordingsCard } from './RecentRecordingsCard';
import './OverviewView.css';

export function OverviewView() {
  const client = useInspectorClient();
  const selectSection = useAppStore((state) => state.selectSection);
  const info = useAppStore((state) => state.info);
  const health = useAppStore((state) => state.health);
  const transport = useAppStore((state) => state.transport);
  const loadError = useAppStore((state) => state.loadError);
  const connectionProblem = useAppStore((state) => state.connectionProblem);

  return (
    <div className="overview">
      <h1 className="overview__title">Overview</h1>
      <p className="overview__lede">
        Replay recorded OpenClaw sessions through context engines and see, turn by turn, what each engine assembled.
      </p>
      {connectionProblem && <Notice tone="error">{connectionProblem}</Notice>}
      {loadError && <Notice tone="error">Could not load the runtime status: {loadError}</Notice>}
      {!info && !loadError && !connectionProblem && <Notice tone="info">Asking the runtime…</Notice>}
      <section className="card start-card" aria-label="Start">
        <h2 className="card__title">Start here</h2>
        <p>
          Replay the bundled demo session (16 turns, two subagents) through OpenClaw&apos;s{' '}
          <span className="mono">legacy</span> engine, the sample <span className="mono">recent-window</span> plugin and
          an optional deliberately faulty lane, side by side.
        </p>
        <div className="start-card__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!client}
            onClick={() => client && void openDemoReplay(client)}
          >
            Replay the demo session
          </button>
          <button type="button" className="button" onClick={() => selectSection('sessions')}>
            Choose a session
          </button>
          <button type="button" className="button" onClick={() => selectSection('plugins')}>
            Plugins
          </button>
        </div>
      </section>
      <RecentRecordingsCard />
      <div className="overview__cards">
        {info && (
          <InfoCard
            title="Runtime"
            testId="app-info-card"
            rows={[
              ['Application', `${info.name} ${info.version}`],
              ['Shell', info.shell === 'electron' ? 'Electron window' : 'Browser mode'],
              ['Runtime host', info.runtimeHost],
              ['Node', info.nodeVersion],
              ...(info.electronVersion ? ([['Electron', info.electronVersion]] as const) : []),
              ['Platform', `${info.platform} (${info.arch})`],
              ['Process id', String(info.pid)],
              ['Bridge', transport === 'preload' ? 'Electron IPC (preload)' : 'WebSocket (127.0.0.1, token)'],
            ]}
          />
        )}
        {health && (
          <InfoCard
            title="Health"
            testId="app-health-card"
            rows={[
              ['Status', health.ok ? 'ok' : 'degraded'],
              ['Uptime', formatDuration(health.uptimeMs)],
              ['Memory (RSS)', formatBytes(health.rssBytes)],
              ['Heap used', formatBytes(health.heapUsedBytes)],
            ]}
          />
        )}
      </div>
    </div>
  );
}
