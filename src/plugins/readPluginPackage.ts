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
import type { SchemaViolation } from './formatSchemaErrors';
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

/** Shape violations of a JSON file as problems at their JSON paths. */
function violationProblems(
  violations: readonly SchemaViolation[],
  code: string,
  file: string,
  fixFor: (path: string) => string,
): PluginProblem[] {
  return violations.map((v) => ({ code, message: `${v.path}: ${v.message}`, file, path: v.path, fix: fixFor(v.path) }));
}

/** `openclaw.plugin.json`, parsed as JSON5 and validated; undefined (with the problems in `errors`) when unusable. */
function readManifest(manifestPath: string, folderName: string, errors: PluginProblem[]): PluginManifest | undefined {
  if (!existsSync(manifestPath)) {
    errors.push({
      code: 'manifest-missing',
      message: `${MANIFEST_FILE} is missing`,
      file: manifestPath,
      fix: `create ${MANIFEST_FILE} with at least {"id": "${folderName}", "configSchema": {"type": "object", "additionalProperties": false, "properties": {}}}`,
    });
    return undefined;
  }
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
  if (raw === undefined) return undefined;
  const violations = validateManifestShape(raw);
  errors.push(
    ...violationProblems(violations, 'manifest-invalid', manifestPath, (path) => manifestFix(path, folderName)),
  );
  return violations.length === 0 ? (raw as PluginManifest) : undefined;
}

/** `package.json`, parsed and validated; undefined (with the problems in `errors`) when unusable. */
function readPackageJson(packageJsonPath: string, errors: PluginProblem[]): PackageJsonShape | undefined {
  try {
    const raw = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as unknown;
    const violations = validatePackageJsonShape(raw);
    errors.push(
      ...violationProblems(violations, 'package-json-invalid', packageJsonPath, (path) =>
        path.startsWith('/openclaw')
          ? 'set "openclaw": {"extensions": ["./index.js"]}'
          : 'correct this package.json field',
      ),
    );
    return violations.length === 0 ? (raw as PackageJsonShape) : undefined;
  } catch (error) {
    errors.push({
      code: 'package-json-unparseable',
      message: `package.json is not valid JSON: ${parseError(error)}`,
      file: packageJsonPath,
      fix: 'fix the JSON syntax error',
    });
    return undefined;
  }
}

/**
 * `plugins.entries.<id>.config` validated against the manifest's configSchema (defaults applied); a schema that does
 * not compile is a plugin error, a config that does not satisfy it a config error.
 */
function validateEntryConfig(
  manifest: PluginManifest | undefined,
  manifestPath: string,
  id: string,
  config: OpenClawConfig,
  errors: PluginProblem[],
): { pluginConfig: Record<string, unknown>; configErrors: PluginProblem[] } {
  const rawConfig = config.plugins?.entries?.[id]?.config;
  let pluginConfig: Record<string, unknown> =
    rawConfig && typeof rawConfig === 'object' ? structuredClone(rawConfig) : {};
  const configErrors: PluginProblem[] = [];
  if (!manifest) return { pluginConfig, configErrors };
  const compiled = compilePluginConfigSchema(manifest.configSchema);
  if (!compiled.ok) {
    errors.push({
      code: 'config-schema-invalid',
      message: `configSchema is not a valid JSON Schema: ${compiled.error}`,
      file: manifestPath,
      path: '/configSchema',
      fix: 'correct the schema (it is compiled with ajv, JSON Schema draft-07)',
    });
    return { pluginConfig, configErrors };
  }
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
  return { pluginConfig, configErrors };
}

function realPathOf(rootDir: string): string {
  try {
    return realpathSync(rootDir);
  } catch {
    return rootDir; // reported as a missing manifest
  }
}

export function readPluginPackage(
  rootDir: string,
  origin: PluginOrigin,
  config: OpenClawConfig = {},
): DiscoveredPlugin {
  const folderName = basename(rootDir);
  const manifestPath = join(rootDir, MANIFEST_FILE);
  const errors: PluginProblem[] = [];
  const realPath = realPathOf(rootDir);
  const manifest = readManifest(manifestPath, folderName, errors);
  const packageJsonPath = join(rootDir, 'package.json');
  const hasPackageJson = existsSync(packageJsonPath);
  const pkg = hasPackageJson ? readPackageJson(packageJsonPath, errors) : undefined;

  const id = manifest?.id.trim() ?? folderName;
  const { entries, problems } = resolvePluginEntries({
    rootDir,
    pluginId: id,
    ...(hasPackageJson ? { packageJsonPath } : {}),
    ...(pkg?.openclaw?.extensions ? { extensions: pkg.openclaw.extensions } : {}),
  });
  errors.push(...problems);

  const kind: PluginKind[] =
    manifest?.kind === undefined ? [] : Array.isArray(manifest.kind) ? [...manifest.kind] : [manifest.kind];
  const { pluginConfig, configErrors } = validateEntryConfig(manifest, manifestPath, id, config, errors);

  return {
    id,
    rootDir,
    realPath,
    origin,
    manifestPath,
    ...(manifest ? { manifest } : {}),
    ...(hasPackageJson ? { packageJsonPath } : {}),
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
