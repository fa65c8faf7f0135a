import { useMemo } from 'react';
import type { InspectorApi } from '../../../src/bridge';
import type { ConfigReadResponse } from '../../../src/bridge/methods';
import { ConfigPluginCard } from '../components/ConfigPluginCard';
import { ConfigSchemaForm } from '../components/ConfigSchemaForm';
import { ConfigSlotPicker } from '../components/ConfigSlotPicker';
import { compactionFormData, savedPluginConfig, savedSlot, sameValue, type ConfigDraft } from '../model/configDraft';
import {
  COMPACTION_SCHEMA,
  COMPACTION_UI,
  errorSchemaOf,
  fieldsOf,
  matchesSearch,
  pluginFormModel,
} from '../model/configForm';
import { doctorStatus, slotChoices } from '../model/configSlots';
import { useDoctorStore } from '../store/doctorStore';
import { applyCompactionForm, useConfigStore, withoutUndefined } from '../store/configStore';

export interface ConfigViewFormsProps {
  api: InspectorApi;
  read: ConfigReadResponse;
  draft: ConfigDraft;
  issues: ConfigReadResponse['issues'];
  search: string;
}

const COMPACTION_FIELDS = fieldsOf(COMPACTION_SCHEMA, {});

function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): Set<string> {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return new Set([...keys].filter((k) => !sameValue(before[k], after[k])));
}

/** The slot pickers and the compaction / context-window form. */
function SlotsAndCompaction({ api, read, draft, issues, search }: ConfigViewFormsProps) {
  const editDraft = useConfigStore((s) => s.editDraft);
  const readOnly = read.readOnly !== null;
  const slots = [
    { slot: 'contextEngine', label: 'Context engine' },
    { slot: 'memory', label: 'Memory' },
  ].filter((s) => matchesSearch(search, 'slot', s.slot, s.label, 'plugins.slots'));
  const compaction = compactionFormData(read, draft);
  const savedCompaction = compactionFormData(read, { ...draft, compaction: {}, contextWindow: undefined });
  const showCompaction = COMPACTION_FIELDS.some((f) =>
    matchesSearch(search, 'compaction context window agents.defaults', f.key, f.label, f.help),
  );
  return (
    <>
      {slots.length > 0 && (
        <section className="card config-view__slots" aria-label="Slots">
          <h2 className="card__title">Slots</h2>
          {slots.map(({ slot, label }) => {
            const saved = savedSlot(read, slot);
            const value = draft.slots[slot] ?? saved;
            return (
              <ConfigSlotPicker
                key={slot}
                slot={slot}
                label={label}
                value={value}
                saved={saved}
                choices={slotChoices(slot, read.plugins, value)}
                disabled={readOnly}
                onChange={(v) => editDraft(api, (d) => ({ ...d, slots: { ...d.slots, [slot]: v } }))}
                onReset={() => editDraft(api, (d) => ({ ...d, slots: { ...d.slots, [slot]: saved } }))}
              />
            );
          })}
        </section>
      )}
      {showCompaction && (
        <section className="card" aria-label="Compaction and context window">
          <h2 className="card__title">Compaction and context window (agents.defaults)</h2>
          <ConfigSchemaForm
            idPrefix="compaction"
            section="compaction context window agents.defaults"
            schema={COMPACTION_SCHEMA}
            uiSchema={COMPACTION_UI}
            fields={COMPACTION_FIELDS}
            formData={compaction}
            errorSchema={{
              ...errorSchemaOf(issues, ['agents', 'defaults', 'compaction']),
              ...errorSchemaOf(issues, ['agents', 'defaults']),
            }}
            changedKeys={changedKeys(savedCompaction, compaction)}
            search={search}
            disabled={readOnly}
            onChange={(data) => editDraft(api, (d, r) => applyCompactionForm(r, d, withoutUndefined(data)))}
            onReset={(key) => editDraft(api, (d, r) => applyCompactionForm(r, d, { ...compaction, [key]: undefined }))}
          />
        </section>
      )}
    </>
  );
}

/** Slots, compaction, and one card per plugin with its schema form; the search hides what does not match. */
export function ConfigViewForms(props: ConfigViewFormsProps) {
  const { api, read, draft, issues, search } = props;
  const editDraft = useConfigStore((s) => s.editDraft);
  const doctorReport = useDoctorStore((s) => s.report);
  const forms = useMemo(() => new Map(read.plugins.map((p) => [p.id, pluginFormModel(p)])), [read.plugins]);
  const plugins = read.plugins.filter((p) => {
    const form = forms.get(p.id);
    return (
      matchesSearch(search, p.id, p.name ?? '', p.description ?? '', 'plugin') ||
      !!form?.fields.some((f) => matchesSearch(search, p.id, p.name ?? '', f.key, f.label, f.help))
    );
  });
  return (
    <div className="config-view__forms">
      <SlotsAndCompaction {...props} />
      {plugins.map((plugin) => {
        const saved = savedPluginConfig(read, plugin.id);
        const formData = draft.pluginConfig[plugin.id] ?? saved;
        const changed = changedKeys(saved, formData);
        const enabled = draft.enabled[plugin.id] ?? plugin.enabled;
        const uninstalling = draft.uninstall.includes(plugin.id);
        // a search that matches some of its settings shows those; one that matches only the plugin shows it whole
        const form = forms.get(plugin.id);
        const section = `${plugin.id} ${plugin.name ?? ''}`;
        const fieldsMatch = !!form?.fields.some((f) => matchesSearch(search, section, f.key, f.label, f.help));
        const errors = errorSchemaOf(issues, ['plugins', 'entries', plugin.id, 'config']);
        const inSlot = ['contextEngine', 'memory'].some((slot) => {
          const engines = [...plugin.engines, plugin.id];
          return engines.includes(savedSlot(read, slot)) || engines.includes(draft.slots[slot] ?? '');
        });
        return (
          <ConfigPluginCard
            key={plugin.id}
            plugin={plugin}
            form={forms.get(plugin.id) ?? null}
            enabled={enabled}
            formData={formData}
            errorSchema={errors}
            expanded={inSlot}
            hasErrors={Object.keys(errors).length > 0}
            doctor={doctorStatus(doctorReport, plugin.id)}
            changedKeys={changed}
            dirty={changed.size > 0 || enabled !== plugin.enabled || uninstalling}
            uninstalling={uninstalling}
            search={fieldsMatch ? search : ''}
            readOnly={read.readOnly !== null}
            onToggle={(on) => editDraft(api, (d) => ({ ...d, enabled: { ...d.enabled, [plugin.id]: on } }))}
            onChange={(config) =>
              editDraft(api, (d) => ({
                ...d,
                pluginConfig: { ...d.pluginConfig, [plugin.id]: withoutUndefined(config) },
              }))
            }
            onReset={(key) =>
              editDraft(api, (d) => {
                const { [key]: _removed, ...rest } = d.pluginConfig[plugin.id] ?? saved;
                return { ...d, pluginConfig: { ...d.pluginConfig, [plugin.id]: rest } };
              })
            }
            onUninstall={(on) =>
              editDraft(api, (d) => ({
                ...d,
                uninstall: on ? [...d.uninstall, plugin.id] : d.uninstall.filter((id) => id !== plugin.id),
              }))
            }
          />
        );
      })}
      {plugins.length === 0 && read.plugins.length > 0 && (
        <p className="muted">No plugin setting matches “{search}”.</p>
      )}
    </div>
  );
}
