import { useState } from 'react';
import type { HostGrantsInfo, ListedPlugin, PluginProblemInfo } from '../../../src/bridge';
import { Tag } from './Tag';
import './PluginList.css';

export interface PluginListProps {
  plugins: readonly ListedPlugin[];
  /** the plugin folder an approve/revoke is running for */
  busyPath: string | null;
  /** `grants`: child processes / worker threads for its engine host, as ticked beside Approve */
  onApprove(path: string, grants: HostGrantsInfo): void;
  onRevoke(path: string): void;
}

function ProblemList({ problems, tone }: { problems: readonly PluginProblemInfo[]; tone: 'bad' | 'warn' }) {
  return (
    <ul className={`problems problems--${tone}`}>
      {problems.map((p, i) => (
        <li key={i} data-testid="plugin-problem">
          <span className="mono">{p.code}</span>
          {p.path && <span className="mono"> {p.path}</span>}: {p.message}
          {p.file && <div className="problems__where path">{p.file}</div>}
          {p.fix && <div className="problems__fix">Fix: {p.fix}</div>}
        </li>
      ))}
    </ul>
  );
}

function ConsentControls({
  plugin,
  busy,
  onApprove,
  onRevoke,
}: {
  plugin: ListedPlugin;
  busy: boolean;
  onApprove(grants: HostGrantsInfo): void;
  onRevoke(): void;
}) {
  const state = plugin.consent.state;
  const granted = plugin.consent.grants;
  const [childProcess, setChildProcess] = useState(false);
  const [worker, setWorker] = useState(false);
  return (
    <div className="plugin__consent">
      {state === 'granted' && granted?.childProcess && (
        <Tag
          tone="warn"
          text="may start processes"
          title="Its engine host may start child processes, which run with your rights"
        />
      )}
      {state === 'granted' && granted?.worker && (
        <Tag
          tone="warn"
          text="may start worker threads"
          title="Its engine host may start worker threads, which can run unconfined"
        />
      )}
      {state === 'granted' && <Tag tone="ok" text="approved" title={plugin.consent.message} testId="consent-state" />}
      {state === 'missing' && (
        <Tag tone="warn" text="not approved" title={plugin.consent.message} testId="consent-state" />
      )}
      {state === 'stale-hash' && (
        <Tag tone="warn" text="changed since approval" title={plugin.consent.message} testId="consent-state" />
      )}
      {state === 'granted' ? (
        <button type="button" className="button" disabled={busy} onClick={onRevoke}>
          Revoke
        </button>
      ) : (
        <>
          {/* the engine host refuses both unless granted here (Node's permission model); either lifts the confinement */}
          <label
            className="plugin__grant"
            title="Its engine host may start child processes, which run with your rights"
          >
            <input
              type="checkbox"
              checked={childProcess}
              disabled={busy}
              onChange={(e) => setChildProcess(e.target.checked)}
            />
            may start processes
          </label>
          <label className="plugin__grant" title="Its engine host may start worker threads, which can run unconfined">
            <input type="checkbox" checked={worker} disabled={busy} onChange={(e) => setWorker(e.target.checked)} />
            may start worker threads
          </label>
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => onApprove({ ...(childProcess ? { childProcess } : {}), ...(worker ? { worker } : {}) })}
            aria-label={`Approve ${plugin.id}`}
          >
            {state === 'stale-hash' ? 'Approve again' : 'Approve'}
          </button>
        </>
      )}
    </div>
  );
}

/** Every discovered plugin: identity, where it was found, consent, problems, and its config fields. */
export function PluginList({ plugins, busyPath, onApprove, onRevoke }: PluginListProps) {
  if (plugins.length === 0) return <p className="muted">No plugins found.</p>;
  return (
    <div className="plugin-list">
      {plugins.map((plugin) => {
        const problems = [...plugin.errors, ...plugin.configErrors];
        return (
          <section
            key={plugin.path}
            className="card plugin"
            aria-label={`Plugin ${plugin.id}`}
            data-testid="plugin-card"
          >
            <header className="plugin__header">
              <div className="plugin__identity">
                <h2 className="plugin__name">{plugin.name ?? plugin.id}</h2>
                <span className="mono muted">{plugin.id}</span>
                {plugin.version && <span className="mono muted">v{plugin.version}</span>}
                {plugin.kind.map((kind) => (
                  <Tag key={kind} tone="info" text={kind} />
                ))}
                <Tag tone="muted" text={plugin.origin} title="where the plugin was found" />
                {!plugin.enabled && <Tag tone="muted" text="disabled" title={plugin.disabledReason} />}
                {problems.length > 0 && (
                  <Tag tone="bad" text={`${problems.length} problem${problems.length === 1 ? '' : 's'}`} />
                )}
              </div>
              <ConsentControls
                plugin={plugin}
                busy={busyPath === plugin.path}
                onApprove={(grants) => onApprove(plugin.path, grants)}
                onRevoke={() => onRevoke(plugin.path)}
              />
            </header>
            {plugin.description && <p className="plugin__description">{plugin.description}</p>}
            <p className="path mono" title="plugin folder">
              {plugin.path}
            </p>
            {problems.length > 0 && <ProblemList problems={problems} tone="bad" />}
            {plugin.warnings.length > 0 && <ProblemList problems={plugin.warnings} tone="warn" />}
            {plugin.configSchema && plugin.configSchema.fields.length > 0 && (
              <details className="plugin__config">
                <summary>
                  Config <span className="mono">{plugin.configSchema.fields.length}</span> fields
                </summary>
                <table className="table" aria-label={`${plugin.id} config fields`}>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Type</th>
                      <th scope="col">Default</th>
                      <th scope="col">Meaning</th>
                    </tr>
                  </thead>
                  <tbody>
                    {plugin.configSchema.fields.map((field) => (
                      <tr key={field.key}>
                        <td className="mono">
                          {field.key}
                          {field.advanced && <span className="muted"> (advanced)</span>}
                        </td>
                        <td className="mono">{field.type || '—'}</td>
                        <td className="mono">{field.default === undefined ? '—' : JSON.stringify(field.default)}</td>
                        <td className="wrap">
                          {field.label && <strong>{field.label}. </strong>}
                          {field.description}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            )}
          </section>
        );
      })}
    </div>
  );
}
