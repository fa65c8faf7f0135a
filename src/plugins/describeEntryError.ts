/** The problem, with what to do about it, for an entry that failed to import, export register(api) or register. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EntryLoadError } from './host/protocol';
import { PLUGIN_SDK_EXPORTS } from './sdk/pluginSdk';
import type { PluginProblem } from './types';

function sdkModuleList(): string {
  return Object.keys(PLUGIN_SDK_EXPORTS).join(', ');
}

/** Built-in modules newer Node releases have, and the first release with each (unflagged). */
const NEWER_BUILTINS: Record<string, string> = {
  'node:sqlite': 'Node 22.13 (22.5 with --experimental-sqlite)',
  'node:sea': 'Node 20.12',
};

/** `node:sqlite` and friends on a Node that lacks them: ERR_UNKNOWN_BUILTIN_MODULE "No such built-in module: x". */
function missingBuiltinOf(error: EntryLoadError): string | undefined {
  if (error.code !== 'ERR_UNKNOWN_BUILTIN_MODULE') return undefined;
  return /No such built-in module: (\S+)/.exec(error.message)?.[1];
}

/**
 * A named import Node's ESM loader cannot find in a CommonJS module's exports. Node says so itself ("Named export
 * 'x' not found. The requested module 'm' is a CommonJS module"), or — with a resolve hook in place, as in the
 * engine host — only "does not provide an export named 'x'"; then the module is looked up from the entry.
 */
function cjsNamedImportOf(error: EntryLoadError, entryFile: string): { name: string; module: string } | undefined {
  const named = /Named export '([^']+)' not found\. The requested module '([^']+)' is a CommonJS module/.exec(
    error.message,
  );
  if (named) return { name: named[1]!, module: named[2]! };
  const missing = /The requested module '([^']+)' does not provide an export named '([^']+)'/.exec(error.message);
  if (!missing || !isCommonJs(missing[1]!, entryFile)) return undefined;
  return { name: missing[2]!, module: missing[1]! };
}

/** Whether `specifier`, imported from `fromFile`, is a CommonJS module (.cjs, or .js outside a "type": "module" package). */
function isCommonJs(specifier: string, fromFile: string): boolean {
  let file: string;
  try {
    file = createRequire(fromFile).resolve(specifier);
  } catch {
    return false;
  }
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        return (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: unknown }).type !== 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return true;
  }
}

function importFailure(
  error: EntryLoadError,
  file: string,
  rootDir: string,
  hostNode: string | undefined,
): PluginProblem {
  const builtin = missingBuiltinOf(error);
  if (builtin) {
    const since = NEWER_BUILTINS[builtin] ?? 'a newer Node';
    return {
      code: 'entry-import-failed',
      message: `the plugin needs the built-in module "${builtin}", which the engine host's Node ${hostNode ?? '(this version)'} does not have (it needs ${since})`,
      file: '',
      fix:
        `run engine hosts on a newer Node: \`--node <path to node>\` on the command line or CONTEXTSCOPE_ENGINE_NODE=<path>; ` +
        `the desktop app runs them on Electron's own Node 22 unless CONTEXTSCOPE_ENGINE_NODE points elsewhere`,
    };
  }
  const named = cjsNamedImportOf(error, file);
  if (named) {
    return {
      code: 'entry-import-failed',
      message:
        `the plugin imports { ${named.name} } from the CommonJS module "${named.module}", and Node's ESM loader cannot ` +
        `see "${named.name}" among that module's exports (it only finds names it can detect without running the module)`,
      file: '',
      fix:
        `import the module's default export and read the name from it (\`import pkg from '…'; const { ${named.name} } = pkg;\`), ` +
        `or use a build of the plugin (or of that dependency) that ships ES modules`,
    };
  }
  return {
    code: 'entry-import-failed',
    message: error.module ? `cannot load module "${error.module}": ${error.message}` : error.message,
    file: '',
    fix: error.module?.startsWith('openclaw')
      ? `ContextScope provides ${sdkModuleList()}; "${error.module}" is not one of them — import types only, or report the missing module`
      : error.module
        ? `install the plugin's dependencies (npm install in ${rootDir}) or build it`
        : 'fix the error in the plugin entry (a syntax error, or an import that fails under plain Node)',
  };
}

/** `hostNode`: the engine host's Node version (`v20.20.2`), named when a built-in module is missing. */
export function describeEntryError(
  file: string,
  rootDir: string,
  error: EntryLoadError,
  hostNode?: string,
): PluginProblem {
  if (error.phase === 'register') {
    return {
      code: 'register-threw',
      message: `register(api) threw: ${error.message}`,
      file,
      fix: 'fix the plugin: register(api) must not throw (see the stack in the plugin logs)',
    };
  }
  if (error.phase === 'export') {
    return {
      code: 'entry-no-register',
      message: error.message,
      file,
      fix: 'export register(api) (or definePluginEntry({...})) as the default export of the entry',
    };
  }
  return { ...importFailure(error, file, rootDir, hostNode), file };
}
