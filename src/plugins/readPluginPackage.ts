/**
 * Reads one plugin folder without executing anything: `openclaw.plugin.json` (JSON5) and `package.json`,
 * validated, its entries resolved, its `configSchema` compiled and `plugins.entries.<id>.config` validated.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import JSON5 from 'json5';
import type { OpenClawConfig } from '../contract';
import { manifestFix, validateManifestShape, validatePackageJsonShape, type PackageJsonShape } from './manifestSchema';
import { compilePluginConfigSchema, validatePluginConfig } from './pluginConfigValidation';
import { resolvePluginEntries } from './resolvePluginEntries';
import type { DiscoveredPlugin, PluginKind, PluginManifest, PluginOrigin, PluginProblem } from './types';
import { errorMessage } from '../common/errorText';

export const MANIFEST_FILE = 'openclaw.plugin.json';

/** True when `dir` looks like a plugin package (has a manifest or a package.json with an `openclaw` field). */
export function looksLikePluginDir(dir: string): boolean {
  if (existsSync(join(dir, MANIFEST_FILE))) return true;
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return false;
  try {
    return typeof (JSON.parse(readFileSync(pkg, 'utf8')) as { openclaw?: unknown }).openclaw === 'object';
  } catch {
    return false;
  }
}

function parseError(error: unknown): string {
  const message = errorMessage(error);
  return message.replace(/^JSON5: /, '');
}

export function readPluginPackage(
  rootDir: string,
  origin: PluginOrigin,
  config: OpenClawConfig = {},
): DiscoveredPlugin {
  const folderName = basename(rootDir);
  const manifestPath = join(rootDir, MANIFEST_FILE);
  const errors: PluginProblem[] = [];
  let realPath = rootDir;
  try {
    realPath = realpathSync(rootDir);
  } catch {
    // reported below as a missing manifest
  }

  let manifest: PluginManifest | undefined;
  if (!existsSync(manifestPath)) {
    errors.push({
      code: 'manifest-missing',
      message: `${MANIFEST_FILE} is missing`,
      file: manifestPath,
      fix: `create ${MANIFEST_FILE} with at least {"id": "${folderName}", "configSchema": {"type": "object", "additionalProperties": false, "properties": {}}}`,
    });
  } else {
    let raw: unknown;
    try {
      raw = JSON5.parse(readFileSync(manifestPath, 'utf8'));
    } catch (error) {
      errors.push({
        code: 'manifest-unparseable',
        message: `${MANIFEST_FILE} is not valid JSON5: ${parseError(error)}`,
        file: manifestPath,
        fix: 'fix the syntax error at the reported line and column',
      });
    }
    if (raw !== undefined) {
      const violations = validateManifestShape(raw);
      for (const v of violations) {
        errors.push({
          code: 'manifest-invalid',
          message: `${v.path}: ${v.message}`,
          file: manifestPath,
          path: v.path,
          fix: manifestFix(v.path, folderName),
        });
      }
      if (violations.length === 0) manifest = raw as PluginManifest;
    }
  }

  const packageJsonPath = join(rootDir, 'package.json');
  let pkg: PackageJsonShape | undefined;
  if (existsSync(packageJsonPath)) {
    try {
      const raw = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as unknown;
      const violations = validatePackageJsonShape(raw);
      for (const v of violations) {
        errors.push({
          code: 'package-json-invalid',
          message: `${v.path}: ${v.message}`,
          file: packageJsonPath,
          path: v.path,
          fix: v.path.startsWith('/openclaw')
            ? 'set "openclaw": {"extensions": ["./index.js"]}'
            : 'correct this package.json field',
        });
      }
      if (violations.length === 0) pkg = raw as PackageJsonShape;
    } catch (error) {
      errors.push({
        code: 'package-json-unparseable',
        message: `package.json is not valid JSON: ${parseError(error)}`,
        file: packageJsonPath,
        fix: 'fix the JSON syntax error',
      });
    }
  }

  const id = manifest?.id.trim() ?? folderName;
  const { entries, problems } = resolvePluginEntries({
    rootDir,
    pluginId: id,
    ...(existsSync(packageJsonPath) ? { packageJsonPath } : {}),
    ...(pkg?.openclaw?.extensions ? { extensions: pkg.openclaw.extensions } : {}),
  });
  errors.push(...problems);

  const kind: PluginKind[] =
    manifest?.kind === undefined ? [] : Array.isArray(manifest.kind) ? [...manifest.kind] : [manifest.kind];
  const rawConfig = config.plugins?.entries?.[id]?.config;
  let pluginConfig: Record<string, unknown> =
    rawConfig && typeof rawConfig === 'object' ? structuredClone(rawConfig) : {};
  const configErrors: PluginProblem[] = [];
  if (manifest) {
    const compiled = compilePluginConfigSchema(manifest.configSchema);
    if (!compiled.ok) {
      errors.push({
        code: 'config-schema-invalid',
        message: `configSchema is not a valid JSON Schema: ${compiled.error}`,
        file: manifestPath,
        path: '/configSchema',
        fix: 'correct the schema (it is compiled with ajv, JSON Schema draft-07)',
      });
    } else {
      const result = validatePluginConfig(compiled.validate, rawConfig ?? {});
      pluginConfig = result.config;
      for (const v of result.violations) {
        configErrors.push({
          code: 'config-invalid',
          message: `${v.path}: ${v.message}`,
          path: v.path,
          file: `plugins.entries.${id}.config`,
          fix: `edit plugins.entries.${id}.config in openclaw.json to satisfy the plugin's configSchema`,
        });
      }
    }
  }

  return {
    id,
    rootDir,
    realPath,
    origin,
    manifestPath,
    ...(manifest ? { manifest } : {}),
    ...(existsSync(packageJsonPath) ? { packageJsonPath } : {}),
    ...((manifest?.name ?? pkg?.name) ? { name: manifest?.name ?? pkg?.name } : {}),
    ...(manifest?.description ? { description: manifest.description } : {}),
    ...((manifest?.version ?? pkg?.version) ? { version: manifest?.version ?? pkg?.version } : {}),
    kind,
    entries,
    ...(manifest ? { configSchema: manifest.configSchema } : {}),
    config: pluginConfig,
    configErrors,
    enabled: true,
    errors,
    warnings: [],
    shadowed: [],
  };
}
