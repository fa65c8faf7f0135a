import { useState } from 'react';
import type { ConfigPluginInfo } from '../../../src/bridge/methods';
import type { PluginFormModel } from '../model/configForm';
import type { DoctorStatus } from '../model/configSlots';
import { ConfigSchemaForm } from './ConfigSchemaForm';
import { Tag } from './Tag';
import './ConfigPluginCard.css';

export interface ConfigPluginCardProps {
  plugin: ConfigPluginInfo;
  form: PluginFormModel | null;
  /** the draft's enabled state */
  enabled: boolean;
  formData: Record<string, unknown>;
  errorSchema: Record<string, unknown>;
  changedKeys: ReadonlySet<string>;
  /** the card has unsaved changes */
  dirty: boolean;
  uninstalling: boolean;
  /** the settings start unfolded (the plugin holds a slot); they always are while changed, searched or in error */
  expanded: boolean;
  hasErrors: boolean;
  /** what the last doctor run said about it (Doctor view), or null */
  doctor: DoctorStatus | null;
  search: string;
  readOnly: boolean;
  onToggle(enabled: boolean): void;
  onChange(config: Record<string, unknown>): void;
  onReset(key: string): void;
  onUninstall(uninstall: boolean): void;
}

function consentTag(consent: ConfigPluginInfo['consent']) {
  if (consent === 'granted') return <Tag text="approved" tone="ok" />;
  if (consent === 'stale-hash') return <Tag text="changed since approved" tone="warn" />;
  return <Tag text="not approved" tone="muted" title="its code runs only after you approve it (Plugins)" />;
}

/** id, name, kind, origin, load status; the enable toggle and uninstall. */
function PluginHeader(props: ConfigPluginCardProps) {
  const { plugin, enabled } = props;
  return (
    <header className="config-plugin__header">
      <div className="config-plugin__identity">
        <span className="mono config-plugin__id">{plugin.id}</span>
        {plugin.name && <span>{plugin.name}</span>}
        {plugin.kind.map((k) => (
          <Tag key={k} text={k} tone="info" />
        ))}
        <Tag text={plugin.origin} tone="muted" />
        {plugin.loadable ? consentTag(plugin.consent) : <Tag text="cannot load" tone="bad" />}
        {props.doctor && <Tag text={props.doctor.text} tone={props.doctor.tone} testId="config-plugin-doctor" />}
        {props.dirty && <span className="config-form__changed">unsaved</span>}
      </div>
      <div className="config-plugin__controls">
        <label className="config-plugin__toggle">
          <input
            type="checkbox"
            checked={enabled}
            disabled={props.readOnly || props.uninstalling}
            onChange={(e) => props.onToggle(e.target.checked)}
          />
          enabled
        </label>
        <button
          type="button"
          className="button"
          disabled={props.readOnly}
          onClick={() => props.onUninstall(!props.uninstalling)}
        >
          {props.uninstalling ? 'Keep it' : 'Uninstall…'}
        </button>
      </div>
    </header>
  );
}

/** One plugin entry: enable toggle, load status and problems, its settings form, uninstall. */
export function ConfigPluginCard(props: ConfigPluginCardProps) {
  const { plugin, form } = props;
  const [userOpen, setUserOpen] = useState<boolean | null>(null);
  const forced = props.dirty || props.hasErrors || props.search.trim() !== '';
  const open = forced || (userOpen ?? props.expanded);
  return (
    <section
      className={`card config-plugin${props.dirty ? ' config-plugin--dirty' : ''}${props.uninstalling ? ' config-plugin--uninstalling' : ''}`}
      aria-label={`Plugin ${plugin.id} settings`}
      data-testid="config-plugin"
    >
      <PluginHeader {...props} />
      {plugin.description && <p className="muted config-plugin__description">{plugin.description}</p>}
      {!plugin.enabled && plugin.disabledReason && (
        <p className="config-plugin__note">Disabled: {plugin.disabledReason}</p>
      )}
      {props.uninstalling && (
        <p className="config-plugin__note" role="status">
          On save: removed from the config; slots naming it go back to their defaults. Its folder {plugin.path} stays on
          disk.
        </p>
      )}
      {plugin.problems.length > 0 && (
        <ul className="config-plugin__problems">
          {plugin.problems.map((p, i) => (
            <li key={i}>
              <span className="mono">{p.code}</span> {p.message}
            </li>
          ))}
        </ul>
      )}
      {form ? (
        <details
          className="config-plugin__settings"
          open={open}
          onToggle={(event) => {
            if (event.currentTarget.open !== open) setUserOpen(event.currentTarget.open);
          }}
        >
          <summary>
            Settings ({form.fields.length}){props.changedKeys.size > 0 ? ` · ${props.changedKeys.size} changed` : ''}
          </summary>
          {open && (
            <ConfigSchemaForm
              idPrefix={`plugin-${plugin.id}`}
              section={`${plugin.id} ${plugin.name ?? ''}`}
              schema={form.schema}
              uiSchema={form.uiSchema}
              fields={form.fields}
              formData={props.formData}
              errorSchema={props.errorSchema}
              changedKeys={props.changedKeys}
              search={props.search}
              disabled={props.readOnly || props.uninstalling}
              onChange={props.onChange}
              onReset={props.onReset}
            />
          )}
        </details>
      ) : (
        <p className="muted">This plugin declares no configSchema: it has no settings.</p>
      )}
    </section>
  );
}
