/**
 * Engine-host side: what Node's permission model refused a plugin. Node's ERR_ACCESS_DENIED says only "Access to this
 * API has been restricted" and carries what was refused in `permission` (`FileSystemRead`, `FileSystemWrite`,
 * `ChildProcess`, `WorkerThreads`, …) and `resource` (the path or command). When such an error — or one whose `cause`
 * chain holds one — leaves the plugin (an engine call fails, an entry does not load, a hook or register(api) throws,
 * an uncaught error), its message is made to name what was refused and why, and the reporter (engineHostMain: a
 * `denied` message to the app, which shows it as a finding on the lane) hears of it. A denial the plugin catches and
 * keeps to itself is not seen here.
 */
export const ACCESS_DENIED_CODE = 'ERR_ACCESS_DENIED';

export interface AccessDenial {
  permission: string;
  resource: string;
  /** where it surfaced: `engine.assemble`, `register`, `hook before_prompt_build`, `uncaughtException`, … */
  operation: string;
}

/** What was refused, as a sentence fragment ("reading /home/u/.ssh/id_rsa was refused: …"). */
export function describeDenial(permission: string, resource: string): string {
  switch (permission) {
    case 'FileSystemRead':
      return `reading ${resource} was refused: an engine host reads only its plugin's folder, the lane's folders and its own code`;
    case 'FileSystemWrite':
      return `writing ${resource} was refused: an engine host writes only the lane's HOME, state, temporary and work folders`;
    case 'ChildProcess':
      return `starting a process${resource ? ` (${resource})` : ''} was refused: child processes are not granted to this plugin (grant them with the lane option allow=child-process or when approving the plugin)`;
    case 'WorkerThreads':
      return 'starting a worker thread was refused: worker threads are not granted to this plugin (grant them with the lane option allow=worker or when approving the plugin)';
    default:
      return `${permission || 'an operation'}${resource ? ` on ${resource}` : ''} was refused by the engine host's permission model`;
  }
}

let reporter: ((denial: AccessDenial) => void) | undefined;

/** Where denials go (the engine host sends each to the app). */
export function setAccessDeniedReporter(report: ((denial: AccessDenial) => void) | undefined): void {
  reporter = report;
}

const named = new WeakSet<object>();

function deniedFields(value: unknown): { permission: string; resource: string } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const error = value as { code?: unknown; permission?: unknown; resource?: unknown };
  if (error.code !== ACCESS_DENIED_CODE) return undefined;
  return {
    permission: typeof error.permission === 'string' ? error.permission : '',
    resource: typeof error.resource === 'string' ? error.resource : '',
  };
}

/**
 * Names the refused resource in every ERR_ACCESS_DENIED message among `error` and its causes (once per error
 * object), reports each to the reporter, and returns them. Never throws.
 */
export function nameAccessDenials(error: unknown, operation: string): AccessDenial[] {
  const found: AccessDenial[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    const fields = deniedFields(current);
    if (fields && !named.has(current)) {
      named.add(current);
      const denial = { ...fields, operation };
      found.push(denial);
      try {
        const target = current as { message?: unknown };
        const text = typeof target.message === 'string' ? target.message : 'Access to this API has been restricted';
        target.message = `${text} — ${describeDenial(fields.permission, fields.resource)}`;
      } catch {
        // a frozen error keeps its message; the report still names the path
      }
      try {
        reporter?.(denial);
      } catch {
        // reporting must not change what the plugin's call answers
      }
    }
    try {
      current = (current as { cause?: unknown }).cause;
    } catch {
      break;
    }
  }
  return found;
}
