/**
 * Findings about what a plugin imports from `openclaw/plugin-sdk`, known without running it: a subpath the
 * engine host does not provide (`sdk-subpath-missing`), a name OpenClaw 2026.9.6 exports from a provided subpath
 * that ContextScope's shim lacks (`sdk-export-missing`: an error for a static import, whose module then fails to
 * link, a warning for a dynamic one, which reads `undefined`), and a name neither exports in JavaScript
 * (`sdk-export-unknown`). In TypeScript a name OpenClaw does not export is taken for a type. The plugin's own
 * source files are read (not node_modules, tests or declaration files); an import's link error at load
 * ("does not provide an export named") becomes the same `sdk-export-missing` finding (loadFindings.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import {
  OPENCLAW_2026_9_6_SDK_EXPORTS,
  PLUGIN_SDK_EXPORTS,
  isPluginSdkSpecifier,
  type PluginSdkSpecifier,
} from '../sdk/sdkExports';
import type { DiscoveredPlugin } from '../types';
import type { DoctorFinding } from './reportTypes';
import { scanSdkImports, type SdkImport } from './sdkImportScan';

const SOURCE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'test', 'tests', '__tests__', 'fixtures', 'coverage']);
const MAX_FILES = 2_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** `<specifier>#<name>`: the key of a missing export, shared with the load-time finding. */
export function sdkExportKey(specifier: string, name: string): string {
  return `${specifier}#${name}`;
}

function isSkippedFile(name: string): boolean {
  return /\.d\.[cm]?ts$/.test(name) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);
}

/** The plugin's own source files, in a stable order (bounded). */
export function pluginSourceFiles(rootDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (files.length >= MAX_FILES) return;
      const path = join(dir, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!SKIPPED_DIRS.has(name) && !name.startsWith('.')) walk(path);
      } else if (SOURCE_EXTENSIONS.has(extname(name)) && !isSkippedFile(name) && stat.size <= MAX_FILE_BYTES) {
        files.push(path);
      }
    }
  };
  walk(rootDir);
  return files;
}

interface Use {
  file: string;
  line: number;
  kind: SdkImport['kind'];
}

/** Where a finding points: the first use of a name, and how many more there are. */
interface SourcePlace {
  file: string;
  line?: number;
  more?: number;
}

function placeText(where: SourcePlace): string {
  return `${where.file}${where.line ? `:${where.line}` : ''}${where.more ? ` (and ${where.more} more places)` : ''}`;
}

function providedList(specifier: PluginSdkSpecifier): string {
  return PLUGIN_SDK_EXPORTS[specifier].join(', ');
}

export function sdkExportMissingFinding(
  pluginId: string,
  specifier: PluginSdkSpecifier,
  name: string,
  where: SourcePlace & { static: boolean },
): DoctorFinding {
  const at = placeText(where);
  const effect = where.static
    ? `the module does not link, so the plugin fails to load ("does not provide an export named '${name}'")`
    : 'the plugin reads undefined for it';
  return {
    severity: where.static ? 'error' : 'warn',
    code: 'sdk-export-missing',
    where: { pluginId, file: where.file, operation: 'import' },
    message: `${at} imports ${name} from ${specifier}: ${OPENCLAW_2026_9_6_SDK_EXPORTS[specifier]?.includes(name) ? 'OpenClaw 2026.9.6 exports it, ' : ''}ContextScope's engine host does not (it provides ${providedList(specifier)}); ${effect}`,
    fix: `ContextScope cannot run what needs ${name} (a replay lane's transcript belongs to the replay, not the plugin); call it only when typeof ${name} === 'function', or report the missing export`,
  };
}

class PluginImports {
  readonly findings: DoctorFinding[] = [];
  /** `sdkExportKey`s reported as missing */
  readonly missing = new Set<string>();
  private readonly uses = new Map<string, Use[]>();

  constructor(private readonly plugin: DiscoveredPlugin) {}

  note(key: string, use: Use): void {
    const list = this.uses.get(key);
    if (list) list.push(use);
    else this.uses.set(key, [use]);
  }

  /** Files are listed relative to the plugin folder. */
  add(imp: SdkImport, file: string): void {
    const isTs = TS_EXTENSIONS.has(extname(file));
    const use = { file: relative(this.plugin.rootDir, file) || file, line: imp.line, kind: imp.kind };
    if (!isPluginSdkSpecifier(imp.specifier)) {
      const looksLikeValue = !isTs || imp.kind === 'dynamic' || imp.names.some((n) => /^[a-z_$]/.test(n));
      if (looksLikeValue) this.note(`subpath\0${imp.specifier}`, use);
      return;
    }
    const provided: readonly string[] = PLUGIN_SDK_EXPORTS[imp.specifier];
    const openclaw = OPENCLAW_2026_9_6_SDK_EXPORTS[imp.specifier];
    for (const name of imp.names) {
      if (provided.includes(name)) continue;
      if (openclaw?.includes(name) || (!openclaw && !(isTs && /^[A-Z]/.test(name))))
        this.note(`missing\0${imp.specifier}\0${name}`, use);
      else if (!isTs) this.note(`unknown\0${imp.specifier}\0${name}`, use);
    }
  }

  finish(): void {
    for (const [key, uses] of this.uses) {
      const [kind, specifier, name] = key.split('\0') as [string, string, string | undefined];
      const first = uses.find((u) => u.kind === 'static') ?? uses[0]!;
      const where = { file: first.file, line: first.line, static: first.kind === 'static', more: uses.length - 1 };
      if (kind === 'subpath') this.findings.push(this.subpathFinding(specifier, where));
      else if (kind === 'missing') {
        this.missing.add(sdkExportKey(specifier, name!));
        this.findings.push(sdkExportMissingFinding(this.plugin.id, specifier as PluginSdkSpecifier, name!, where));
      } else this.findings.push(this.unknownFinding(specifier as PluginSdkSpecifier, name!, where));
    }
  }

  private subpathFinding(specifier: string, where: SourcePlace): DoctorFinding {
    const at = placeText(where);
    return {
      severity: 'error',
      code: 'sdk-subpath-missing',
      where: { pluginId: this.plugin.id, file: where.file, operation: 'import' },
      message: `${at} imports ${specifier}, which ContextScope's engine host does not provide: importing it fails with "Cannot find package 'openclaw'"`,
      fix: `ContextScope provides ${Object.keys(PLUGIN_SDK_EXPORTS).join(', ')}; import only types from other subpaths, or import it lazily and handle its absence`,
    };
  }

  private unknownFinding(specifier: PluginSdkSpecifier, name: string, where: SourcePlace): DoctorFinding {
    const at = placeText(where);
    return {
      severity: 'warn',
      code: 'sdk-export-unknown',
      where: { pluginId: this.plugin.id, file: where.file, operation: 'import' },
      message: `${at} imports ${name} from ${specifier}, which neither OpenClaw 2026.9.6 nor ContextScope exports`,
      fix: `check the name against OpenClaw's ${specifier}; ContextScope provides ${providedList(specifier)}`,
    };
  }
}

/** The plugin's SDK import findings, and the missing exports they name (for the load-time duplicate). */
export function sdkImportFindings(plugin: DiscoveredPlugin): { findings: DoctorFinding[]; missing: Set<string> } {
  const imports = new PluginImports(plugin);
  for (const file of pluginSourceFiles(plugin.rootDir)) {
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!source.includes('openclaw/plugin-sdk')) continue;
    for (const imp of scanSdkImports(source)) imports.add(imp, file);
  }
  imports.finish();
  return { findings: imports.findings, missing: imports.missing };
}
