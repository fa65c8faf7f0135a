/** The Config view's pure model: draft → bridge changes, forms from configSchema + uiHints, the no-eval validator. */
import { describe, expect, it } from 'vitest';
import type { ConfigPluginInfo, ConfigReadResponse } from '../../../src/bridge/methods';
import {
  applyCompactionForm,
  compactionFormData,
  draftChanges,
  EMPTY_DRAFT,
  normalizeDraft,
} from '../../../renderer/src/model/configDraft';
import { errorSchemaOf, pluginFormModel } from '../../../renderer/src/model/configForm';
import { matchesSchema } from '../../../renderer/src/model/configFormValidator';
import { doctorStatus, enginesFromDoctor, slotChoices } from '../../../renderer/src/model/configSlots';

const plugin: ConfigPluginInfo = {
  id: 'recent-window',
  kind: ['context-engine'],
  origin: 'bundled',
  path: '/p/recent-window',
  enabled: true,
  loadable: true,
  consent: 'missing',
  problems: [],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      budgetShare: { type: 'number', minimum: 0.1, maximum: 1, default: 0.8 },
      apiKey: { type: 'string', default: '' },
      verbose: { type: 'boolean', default: false },
      nested: { type: 'object', properties: { on: { type: 'boolean', default: true } } },
    },
  },
  uiHints: {
    budgetShare: { label: 'Budget share', help: 'Share of the budget', placeholder: '0.8' },
    apiKey: { label: 'API key', sensitive: true, advanced: true },
  },
  config: { budgetShare: 0.8 },
  engines: ['recent-window'],
};

const read = {
  effective: {
    plugins: { slots: { contextEngine: 'legacy' }, entries: { 'recent-window': { config: { budgetShare: 0.8 } } } },
    agents: { defaults: { compaction: { mode: 'safeguard', reserveTokensFloor: 20000 } } },
  },
  plugins: [plugin],
} as unknown as ConfigReadResponse;

describe('the draft', () => {
  it('drops what equals the saved config, and lists the rest as bridge changes in a stable order', () => {
    const draft = normalizeDraft(read, {
      ...EMPTY_DRAFT,
      slots: { contextEngine: 'recent-window', memory: 'memory-core' },
      enabled: { 'recent-window': true },
      pluginConfig: { 'recent-window': { budgetShare: 0.6 } },
      uninstall: ['summary-tree'],
    });
    expect(draftChanges(draft)).toEqual([
      { op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' },
      { op: 'setPluginConfig', pluginId: 'recent-window', config: { budgetShare: 0.6 } },
      { op: 'uninstall', pluginId: 'summary-tree' },
    ]);
    expect(
      draftChanges(normalizeDraft(read, { ...EMPTY_DRAFT, pluginConfig: { 'recent-window': { budgetShare: 0.8 } } })),
    ).toEqual([]);
  });

  it('the compaction form keeps only the keys that differ; a cleared field removes the key (null)', () => {
    expect(compactionFormData(read, EMPTY_DRAFT)).toEqual({ mode: 'safeguard', reserveTokensFloor: 20000 });
    const draft = applyCompactionForm(read, EMPTY_DRAFT, {
      mode: 'safeguard',
      reserveTokens: 24000,
      contextTokens: 64000,
    });
    expect(draftChanges(draft)).toEqual([
      { op: 'setCompaction', settings: { reserveTokens: 24000, reserveTokensFloor: null } },
      { op: 'setContextWindow', tokens: 64000 },
    ]);
  });
});

describe('forms from configSchema and uiHints', () => {
  it('labels, help and placeholders from uiHints (the default when there is none), sensitive masked, advanced flagged, no defaults', () => {
    const form = pluginFormModel(plugin)!;
    expect(form.uiSchema.budgetShare).toMatchObject({
      'ui:title': 'Budget share',
      'ui:description': 'Share of the budget',
      'ui:placeholder': '0.8',
    });
    expect(form.uiSchema.apiKey).toMatchObject({
      'ui:title': 'API key',
      'ui:widget': 'password',
      'ui:options': { advanced: true, sensitive: true },
    });
    expect(form.uiSchema.verbose).toMatchObject({
      'ui:widget': 'triState',
      'ui:options': { defaultLabel: 'default: false' },
    });
    expect(form.uiSchema['ui:order']).toEqual(['budgetShare', 'verbose', 'nested', 'apiKey', '*']);
    expect(JSON.stringify(form.schema)).not.toContain('"default"');
    expect((form.schema.properties as any).budgetShare).toEqual({ type: 'number', minimum: 0.1, maximum: 1 });
  });

  it("the Node side's validation issues become the form's error schema, without the path", () => {
    const base = ['plugins', 'entries', 'recent-window', 'config'];
    expect(
      errorSchemaOf(
        [
          {
            severity: 'error',
            code: 'config-invalid',
            path: [...base, 'budgetShare'],
            message: 'plugins.entries.recent-window.config.budgetShare must be <= 1 (configSchema of recent-window)',
          },
          { severity: 'warning', code: 'x', path: [...base, 'apiKey'], message: 'ignored' },
        ],
        base,
      ),
    ).toEqual({ budgetShare: { __errors: ['must be <= 1'] } });
  });

  it('the validator picks options structurally, without eval (the CSP forbids it)', () => {
    const schema = {
      oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'string' }],
    };
    expect(matchesSchema(schema, { kind: 'a' })).toBe(true);
    expect(matchesSchema(schema, { kind: 'b' })).toBe(false);
    expect(matchesSchema(schema, 'x')).toBe(true);
    expect(matchesSchema({ $ref: '#/definitions/n', definitions: { n: { type: 'number' } } }, 3)).toBe(true);
    expect(matchesSchema({ type: 'object', additionalProperties: false, properties: {} }, { extra: 1 })).toBe(false);
  });
});

describe('slot choices', () => {
  it('legacy and the engines of context-engine plugins with their status; an unknown value says OpenClaw falls back', () => {
    expect(slotChoices('contextEngine', [plugin], 'lossless-claw').map((c) => `${c.value}: ${c.detail}`)).toEqual([
      "legacy: OpenClaw's built-in engine (the default)",
      'recent-window: bundled · enabled · not approved',
      'lossless-claw: not registered by any plugin found here: OpenClaw quarantines it and runs legacy',
    ]);
  });
});

describe('what the doctor knows', () => {
  const report = {
    executed: true,
    plugins: [
      { id: 'faulty-engines', status: 'executed', engines: ['faulty-a', 'faulty-b'] },
      { id: 'summary-tree', status: 'not-executed', engines: [] },
    ],
    findings: [
      { severity: 'error', where: { pluginId: 'faulty-engines' } },
      { severity: 'warn', where: { pluginId: 'faulty-engines' } },
      { severity: 'warn', where: { pluginId: 'faulty-engines' } },
    ],
  } as never;

  it('engine ids come from plugins the doctor executed; the status counts their findings', () => {
    expect(enginesFromDoctor(report)).toEqual({ 'faulty-engines': ['faulty-a', 'faulty-b'] });
    expect(enginesFromDoctor({ ...(report as object), executed: false } as never)).toBeUndefined();
    expect(doctorStatus(report, 'faulty-engines')).toEqual({
      text: 'doctor: executed · 1 error, 2 warnings',
      tone: 'bad',
    });
    expect(doctorStatus(report, 'summary-tree')).toEqual({ text: 'doctor: not-executed', tone: 'muted' });
    expect(doctorStatus(null, 'summary-tree')).toBeNull();
  });
});
