/**
 * The shape of `openclaw.plugin.json` and of `package.json#openclaw` (behaviour §10.1–10.2), as typebox
 * schemas checked with ajv. Only the fields ContextScope reads are constrained; unknown keys are allowed.
 */
import { Type, type Static } from '@sinclair/typebox';
import { createAjv, formatSchemaErrors, type SchemaViolation } from './formatSchemaErrors';

export const PLUGIN_KINDS = ['context-engine', 'memory'] as const;

const Kind = Type.Unsafe<(typeof PLUGIN_KINDS)[number]>({ type: 'string', enum: [...PLUGIN_KINDS] });

const UiHint = Type.Object(
  {
    label: Type.Optional(Type.String()),
    help: Type.Optional(Type.String()),
    placeholder: Type.Optional(Type.String()),
    advanced: Type.Optional(Type.Boolean()),
    sensitive: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);

export const PluginManifestSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, pattern: '\\S' }),
    configSchema: Type.Object({}, { additionalProperties: true }),
    kind: Type.Optional(Type.Union([Kind, Type.Array(Kind, { minItems: 1 })])),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    uiHints: Type.Optional(Type.Record(Type.String(), UiHint)),
    activation: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type PluginManifestShape = Static<typeof PluginManifestSchema>;

export const PackageJsonSchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    type: Type.Optional(Type.Unsafe<'module' | 'commonjs'>({ type: 'string', enum: ['module', 'commonjs'] })),
    openclaw: Type.Optional(
      Type.Object(
        {
          extensions: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type PackageJsonShape = Static<typeof PackageJsonSchema>;

const ajv = createAjv({ allErrors: true, strict: false });
const checkManifest = ajv.compile(PluginManifestSchema);
const checkPackageJson = ajv.compile(PackageJsonSchema);

export function validateManifestShape(value: unknown): SchemaViolation[] {
  return checkManifest(value) ? [] : formatSchemaErrors(checkManifest.errors);
}

export function validatePackageJsonShape(value: unknown): SchemaViolation[] {
  return checkPackageJson(value) ? [] : formatSchemaErrors(checkPackageJson.errors);
}

/** A manifest problem's fix, by the JSON pointer that failed. */
export function manifestFix(path: string, folderName: string): string {
  if (path === '/id') return `add "id": "${folderName}" (the key for plugins.entries.<id>)`;
  if (path === '/configSchema') {
    return 'add "configSchema": {"type": "object", "additionalProperties": false, "properties": {}} (required even when the plugin takes no config)';
  }
  if (path.startsWith('/kind')) return 'set "kind" to "context-engine" or "memory" (or an array of them)';
  if (path.startsWith('/uiHints'))
    return 'make each uiHints entry an object like {"label": "...", "help": "...", "sensitive": true}';
  return 'correct this field of openclaw.plugin.json (see OpenClaw docs/plugins/manifest.md)';
}
