/**
 * Engine hosts inside the Electron app: Electron's `utilityProcess` implementing src/plugins' EngineHostTransport.
 *
 * Inside Electron, `process.execPath` is the Electron binary, so `child_process.fork` would start a second app;
 * a utility process is Electron's own way to run Node code in a separate, sandbox-friendly process. The engine
 * host entry speaks fork-style IPC (`process.send` / `process.on('message')`), so the utility process runs a
 * small adapter (engineHostUtilityEntry.ts, built to out/main/engine-host-utility.js) that bridges
 * `process.parentPort` to that API and then imports the real entry.
 *
 * A user who points engine hosts at another Node binary (CONTEXTSCOPE_ENGINE_NODE, e.g. Node 22 for node:sqlite)
 * gets `child_process.fork` with that binary: a utility process cannot choose its runtime.
 *
 * A utility process does not run Node's permission model (src/plugins/host/hostPermissions.ts): the spec's
 * `permissionArgv` is left out and the transport says so (`unconfinedReason`), which the plugin's lane reports. An
 * engine host forked on another Node binary gets the flags.
 */
import { utilityProcess } from 'electron';
import {
  forkTransport,
  PLUGIN_ENV_DENY_LIST,
  type EngineHostExit,
  type EngineHostTransport,
  type EngineHostTransportFactory,
} from '../../src/plugins';
import { ENGINE_HOST_ENTRY_FLAG } from './engineHostUtilityArgs';

export { ENGINE_HOST_ENTRY_FLAG, UTILITY_ENGINE_HOST_FILE } from './engineHostUtilityArgs';

/** Why a utility-process engine host runs without Node's permission model (shown on its lane). */
export const UTILITY_PROCESS_UNCONFINED_REASON =
  "it runs in Electron's utility process, which does not run Node's permission model; set CONTEXTSCOPE_ENGINE_NODE to a Node binary (20.20+ or 22+) to run engine hosts confined";

/** Shown in Electron's process metrics and `child-process-gone` events. */
export const ENGINE_HOST_SERVICE_NAME = 'ContextScope engine host';

export interface UtilityProcessTransportOptions {
  /** the adapter module (out/main/engine-host-utility.js) */
  adapterEntry: string;
  /** the runtime of this app (default process.execPath); a spec naming any other binary is forked with it */
  ownExecPath?: string;
  /** transport for a separate Node binary (default child_process.fork) */
  nodeTransport?: EngineHostTransportFactory;
}

export function createUtilityProcessTransport(options: UtilityProcessTransportOptions): EngineHostTransportFactory {
  const ownExecPath = options.ownExecPath ?? process.execPath;
  const nodeTransport = options.nodeTransport ?? forkTransport;

  return (spec) => {
    if (spec.nodePath !== ownExecPath) return nodeTransport(spec);

    const env: Record<string, string> = { ...spec.env };
    // buildPluginEnv already drops these; a transport that starts untrusted code checks again.
    for (const key of PLUGIN_ENV_DENY_LIST) delete env[key];

    const child = utilityProcess.fork(options.adapterEntry, [ENGINE_HOST_ENTRY_FLAG, spec.entry], {
      env,
      execArgv: spec.execArgv,
      cwd: spec.cwd,
      stdio: 'pipe',
      serviceName: ENGINE_HOST_SERVICE_NAME,
      // macOS: the OS must not attribute the plugin's privacy-permission requests to ContextScope
      disclaim: true,
    });

    let exited: EngineHostExit | undefined;
    let lastPid: number | undefined;
    const exitListeners: ((exit: EngineHostExit) => void)[] = [];
    child.on('spawn', () => {
      lastPid = child.pid;
    });
    child.on('exit', (code) => {
      if (exited) return;
      exited = { code, signal: null };
      for (const listener of exitListeners.splice(0)) listener(exited);
    });

    const transport: EngineHostTransport = {
      get pid() {
        return child.pid ?? lastPid;
      },
      ...(spec.permissionArgv ? { unconfinedReason: UTILITY_PROCESS_UNCONFINED_REASON } : {}),
      send(message) {
        if (exited) throw new Error('engine host channel is closed');
        child.postMessage(message);
      },
      onMessage(listener) {
        child.on('message', (message: unknown) => listener(message));
      },
      onExit(listener) {
        if (exited) listener(exited);
        else exitListeners.push(listener);
      },
      onOutput(listener) {
        child.stdout?.setEncoding('utf8');
        child.stderr?.setEncoding('utf8');
        child.stdout?.on('data', (text: string | Buffer) => listener('stdout', String(text)));
        child.stderr?.on('data', (text: string | Buffer) => listener('stderr', String(text)));
      },
      kill() {
        if (exited) return;
        // utilityProcess.kill() is SIGTERM, which a plugin can intercept; a hung host must end now.
        const pid = child.pid;
        if (pid !== undefined) {
          try {
            process.kill(pid, 'SIGKILL');
            return;
          } catch {
            // already gone, or no signals on this platform: fall through
          }
        }
        child.kill();
      },
    };
    return transport;
  };
}
