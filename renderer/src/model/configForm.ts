/**
 * What the schema-driven forms are made of: a plugin's `configSchema` + `uiHints` as the JSON Schema and uiSchema
 * of a form (labels, help, placeholders — the default when there is none —, `sensitive` masked, `advanced` folded),
 * the compaction form's own schema, search over settings, and validation issues as the form's error schema.
 * Pure; no DOM.
 */
import type { ConfigIssueInfo, ConfigPluginInfo } from '../../../src/bridge/methods';

export type JsonSchema = Record<string, unknown>;

export interface FieldInfo {
  key: string;
  label: string;
  help: string;
  advanced: boolean;
  sensitive: boolean;
  defaultValue: unknown;
}

export interface PluginFormModel {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
  fields: FieldInfo[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The fields of an object schema with what uiHints says about each (labels fall back to the key). */
export function fieldsOf(schema: JsonSchema, hints: Record<string, Record<string, unknown>>): FieldInfo[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  return Object.entries(properties).map(([key, raw]) => {
    const property = isRecord(raw) ? raw : {};
    const hint = hints[key] ?? {};
    return {
      key,
      label: text(hint.label) || text(property.title) || key,
      help: text(hint.help) || text(property.description),
      advanced: hint.advanced === true,
      sensitive: hint.sensitive === true,
      defaultValue: property.default,
    };
  });
}

function uiSchemaOf(schema: JsonSchema, fields: FieldInfo[], hints: Record<string, Record<string, unknown>>) {
  const uiSchema: Record<string, unknown> = {
    'ui:submitButtonOptions': { norender: true },
    'ui:order': [
      ...fields.filter((f) => !f.advanced).map((f) => f.key),
      ...fields.filter((f) => f.advanced).map((f) => f.key),
      '*',
    ],
  };
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const field of fields) {
    const property = isRecord(properties[field.key]) ? (properties[field.key] as JsonSchema) : {};
    const placeholder =
      text(hints[field.key]?.placeholder) ||
      (field.defaultValue !== undefined && !isRecord(field.defaultValue)
        ? `default: ${JSON.stringify(field.defaultValue)}`
        : '');
    uiSchema[field.key] = {
      'ui:title': field.label,
      ...(field.help ? { 'ui:description': field.help } : {}),
      ...(placeholder ? { 'ui:placeholder': placeholder } : {}),
      ...(field.sensitive && property.type === 'string' ? { 'ui:widget': 'password' } : {}),
      // unset ("default: …"), true or false
      ...(property.type === 'boolean' ? { 'ui:widget': 'triState' } : {}),
      'ui:options': {
        advanced: field.advanced,
        sensitive: field.sensitive,
        ...(placeholder ? { defaultLabel: placeholder } : {}),
        ...(property.type === 'string' && (property.maxLength as number) > 200 ? { widget: 'textarea' } : {}),
      },
    };
  }
  return uiSchema;
}

/**
 * The form of a plugin's config. The schema keeps everything it says except `default`s at the top level (a field
 * left empty means "the default", which the placeholder shows — the form must not write defaults into the file).
 */
/** The schema without `default`s, anywhere (rjsf would write every default into the file's config). */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'default') continue;
    // enum/const values and examples are data, not schemas
    out[key] = key === 'enum' || key === 'const' || key === 'examples' ? v : withoutDefaults(v);
  }
  return out;
}

/**
 * The form of a plugin's config. The schema keeps everything it says except `default`s (a field left empty means
 * "the default", which its placeholder shows — the form must not write defaults into the file).
 */
export function pluginFormModel(
  plugin: Pick<ConfigPluginInfo, 'configSchema' | 'uiHints' | 'id'>,
): PluginFormModel | null {
  if (!plugin.configSchema || !isRecord(plugin.configSchema)) return null;
  const source = plugin.configSchema as JsonSchema;
  const { $id: _id, $schema: _s, title: _t, description: _d, ...rest } = withoutDefaults(source) as JsonSchema;
  const schema = { ...rest, type: 'object' };
  const fields = fieldsOf(source, plugin.uiHints);
  return { schema, uiSchema: uiSchemaOf(source, fields, plugin.uiHints), fields };
}

export const COMPACTION_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    contextTokens: {
      type: 'integer',
      minimum: 1,
      title: 'Context window (agents.defaults.contextTokens)',
      description: "The agent's context window in tokens; empty: the model's own window.",
    },
    reserveTokens: {
      type: 'integer',
      minimum: 0,
      title: 'Reserve tokens',
      description:
        'Tokens kept free for the reply: compaction fires once the context passes window − reserve (OpenClaw: 16384, raised to the floor).',
    },
    keepRecentTokens: {
      type: 'integer',
      minimum: 1,
      title: 'Keep recent tokens',
      description: 'How much of the newest history a compaction keeps verbatim (OpenClaw: 20000).',
    },
    reserveTokensFloor: {
      type: 'integer',
      minimum: 0,
      title: 'Reserve floor',
      description: 'The reserve is never below this (OpenClaw: 20000; lowered when the window is small).',
    },
    mode: {
      type: 'string',
      enum: ['default', 'safeguard'],
      title: 'Mode',
      description: 'safeguard turns the in-prompt auto-compaction off; overflow recovery still compacts.',
    },
    enabled: {
      type: 'boolean',
      title: 'Compaction enabled',
      description: 'false turns the built-in auto-compaction off.',
    },
  },
};

export const COMPACTION_UI: Record<string, unknown> = {
  'ui:submitButtonOptions': { norender: true },
  'ui:order': ['contextTokens', 'reserveTokens', 'keepRecentTokens', 'reserveTokensFloor', 'mode', 'enabled'],
  contextTokens: { 'ui:placeholder': "the model's window" },
  reserveTokens: { 'ui:placeholder': 'default: 16384' },
  keepRecentTokens: { 'ui:placeholder': 'default: 20000' },
  reserveTokensFloor: { 'ui:placeholder': 'default: 20000' },
  mode: { 'ui:placeholder': 'default' },
  enabled: { 'ui:widget': 'triState', 'ui:options': { defaultLabel: 'default: true' } },
};

/** Whether a field (or a whole section named `section`) matches the search words. */
export function matchesSearch(query: string, ...haystack: readonly string[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = haystack.join(' ').toLowerCase();
  return words.every((word) => hay.includes(word));
}

export function fieldMatches(query: string, field: FieldInfo, section: string): boolean {
  return matchesSearch(query, section, field.key, field.label, field.help);
}

type ErrorNode = { __errors?: string[]; [key: string]: unknown };

/** Issues under `base` (e.g. plugins.entries.<id>.config) as an rjsf error schema (messages without the path). */
export function errorSchemaOf(issues: readonly ConfigIssueInfo[], base: readonly string[]): ErrorNode {
  const root: ErrorNode = {};
  for (const issue of issues) {
    if (issue.severity !== 'error' || issue.path.length <= base.length) continue;
    if (!base.every((key, i) => issue.path[i] === key)) continue;
    let node = root;
    for (const key of issue.path.slice(base.length)) node = (node[key] ??= {}) as ErrorNode;
    const message = issue.message.replace(/^\S+ /, '').replace(/ \(configSchema of [^)]+\)$/, '');
    (node.__errors ??= []).push(message);
  }
  return root;
}
