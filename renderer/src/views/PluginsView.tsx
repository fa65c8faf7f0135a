import { useEffect } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import { Notice } from '../components/Notice';
import { PluginList } from '../components/PluginList';
import { usePluginsStore } from '../store/pluginsStore';

/** Discovered plugins with their problems, config fields and consent (approve / revoke). */
export function PluginsView() {
  const client = useInspectorClient();
  const { list, loading, error, busyPath, actionError, load, approve, revoke } = usePluginsStore();

  useEffect(() => {
    if (client && !usePluginsStore.getState().list && !usePluginsStore.getState().loading)
      void usePluginsStore.getState().load(client);
  }, [client]);

  return (
    <div className="view plugins-view">
      <header className="view__header">
        <h1 className="view__title">Plugins</h1>
        <button
          type="button"
          className="button"
          disabled={!client || loading}
          onClick={() => client && void load(client, list?.stateDir)}
        >
          {loading ? 'Loading…' : 'Reload'}
        </button>
      </header>
      <p className="view__lede">
        Context-engine plugins found in ContextScope&apos;s bundled samples,{' '}
        <span className="mono">&lt;workspace&gt;/.openclaw/extensions</span>,{' '}
        <span className="mono">&lt;state dir&gt;/extensions</span> and <span className="mono">plugins.load.paths</span>.
        Plugin code runs only after you approve its folder; approval is bound to the folder&apos;s current content.
      </p>
      {list && (
        <p className="muted">
          State dir <span className="mono path">{list.stateDir}</span> · consent file{' '}
          <span className="mono path">{list.consentFile}</span>
          {list.configPath && (
            <>
              {' '}
              · config <span className="mono path">{list.configPath}</span>
            </>
          )}
        </p>
      )}
      {error && <Notice tone="error">Could not list plugins: {error}</Notice>}
      {actionError && <Notice tone="error">{actionError}</Notice>}
      {list && (
        <PluginList
          plugins={list.plugins}
          busyPath={busyPath}
          onApprove={(path, grants) => client && void approve(client, path, grants)}
          onRevoke={(path) => client && void revoke(client, path)}
        />
      )}
    </div>
  );
}
