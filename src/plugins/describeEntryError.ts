/** The problem, with what to do about it, for an entry that failed to import, export register(api) or register. */
import type { EntryLoadError } from './host/protocol';
import { PLUGIN_SDK_EXPORTS } from './sdk/pluginSdk';
import type { PluginProblem } from './types';

function sdkModuleList(): string {
  return Object.keys(PLUGIN_SDK_EXPORTS).join(', ');
}

export function describeEntryError(file: string, rootDir: string, error: EntryLoadError): PluginProblem {
  const problem: PluginProblem = {
    code:
      error.phase === 'register'
        ? 'register-threw'
        : error.phase === 'export'
          ? 'entry-no-register'
          : 'entry-import-failed',
    message:
      error.phase === 'register'
        ? `register(api) threw: ${error.message}`
        : error.module
          ? `cannot load module "${error.module}": ${error.message}`
          : error.message,
    file,
  };
  if (error.phase === 'register')
    problem.fix = 'fix the plugin: register(api) must not throw (see the stack in the plugin logs)';
  else if (error.phase === 'export')
    problem.fix = 'export register(api) (or definePluginEntry({...})) as the default export of the entry';
  else if (error.module?.startsWith('openclaw')) {
    problem.fix = `ContextScope provides ${sdkModuleList()}; "${error.module}" is not one of them — import types only, or report the missing module`;
  } else if (error.module) {
    problem.fix = `install the plugin's dependencies (npm install in ${rootDir}) or build it`;
  } else {
    problem.fix = 'fix the error in the plugin entry (a syntax error, or an import that fails under plain Node)';
  }
  return problem;
}
