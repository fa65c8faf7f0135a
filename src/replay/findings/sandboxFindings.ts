/**
 * Findings about a plugin lane's engine host and Node's permission model (src/plugins/host/hostPermissions.ts):
 * `host-unconfined` once per lane when its engine host runs without the model, or with child processes / worker
 * threads granted (either lifts the confinement); `access-denied` for each thing the model refused the plugin (each
 * permission and path once per lane group, on the turn it first surfaced, or the lane when it was loading).
 */
import { FINDING_SEVERITY } from './computeTurnFindings';
import type { Finding } from '../../contract/recording';

export interface LaneAccessDenial {
  permission: string;
  resource: string;
  operation: string;
}

/** What a lane group keeps about its engine host's confinement (set by loadPluginLane). */
export interface LaneSandboxState {
  /** why the host is not (fully) confined, a sentence; absent when it is */
  unconfined?: string | undefined;
  /** refusals not reported yet, each permission + resource once */
  pending: LaneAccessDenial[];
  seen: Set<string>;
}

export function newLaneSandboxState(): LaneSandboxState {
  return { pending: [], seen: new Set() };
}

/** Keeps a refusal for the next report, unless the same permission and resource was kept before. */
export function noteLaneAccessDenial(state: LaneSandboxState, denial: LaneAccessDenial): void {
  const key = `${denial.permission}\0${denial.resource}`;
  if (state.seen.has(key)) return;
  state.seen.add(key);
  state.pending.push(denial);
}

const WHAT: Record<string, (resource: string) => string> = {
  FileSystemRead: (r) => `read ${r}`,
  FileSystemWrite: (r) => `write ${r}`,
  ChildProcess: (r) => `start a process${r ? ` (${r})` : ''}`,
  WorkerThreads: () => 'start a worker thread',
};

function deniedMessage(denial: LaneAccessDenial): string {
  const what = WHAT[denial.permission]?.(denial.resource) ?? `${denial.permission} ${denial.resource}`.trim();
  const allowed =
    denial.permission === 'FileSystemRead' || denial.permission === 'FileSystemWrite'
      ? "it may read its own folder, the lane's folders and transcripts and the engine host's code, and write only the lane's HOME, state, temporary and work folders"
      : 'child processes and worker threads need a grant: approve the plugin with them in the app, or allow=child-process / allow=worker in the lane spec with --allow-execute';
  return `The engine host refused the plugin's attempt to ${what} (${denial.permission}, during ${denial.operation}): ${allowed}.`;
}

/** The refusals kept since the last report, as findings of `lane` at `turn` (null: while loading or disposing). */
export function drainAccessDenials(lane: string, turn: number | null, state: LaneSandboxState | undefined): Finding[] {
  if (!state || state.pending.length === 0) return [];
  return state.pending.splice(0).map((denial) => ({
    code: 'access-denied',
    severity: FINDING_SEVERITY['access-denied'],
    lane,
    turn,
    message: deniedMessage(denial),
  }));
}

/** `host-unconfined` for a lane whose engine host is not (fully) confined. */
export function hostUnconfinedFindings(lane: string, state: LaneSandboxState | undefined): Finding[] {
  if (!state?.unconfined) return [];
  return [
    {
      code: 'host-unconfined',
      severity: FINDING_SEVERITY['host-unconfined'],
      lane,
      turn: null,
      message: state.unconfined,
    },
  ];
}
