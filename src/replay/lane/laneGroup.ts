/**
 * What a lane and its subagent lanes share: one context runtime (registry, quarantine state — OpenClaw keeps
 * these per process), the engine selection, the host, the model window and compaction settings, and the lane
 * transcripts the built-in compaction can find by session id or file.
 */
import type { ContextEngineHostSupport, OpenClawConfig, SessionTranscriptHandle } from '../../contract';
import type { ContextRuntime } from '../../runtime';
import type { CompactionSettings } from '../../runtime';
import type { Summarizer } from '../../summarize';
import type { LaneTranscript } from './laneTranscript';
import type { QuarantineLogEntry } from '../recording/turnDraft';
import type { LaneHookHost } from './hooks/laneHooks';
import type { LaneSandboxState } from '../findings/sandboxFindings';

export interface LaneGroupRouting {
  /** the lanes currently running a turn, innermost (a subagent lane inside its parent's turn) last */
  active: { onQuarantine(entry: QuarantineLogEntry): void }[];
  /** quarantines that happened while no lane was running a turn (engine resolution) */
  unattributed: QuarantineLogEntry[];
}

export interface LaneGroup {
  runtime: ContextRuntime;
  /** openclaw.json as the lane's runs see it (plugins.slots.contextEngine = the lane's engine) */
  config: OpenClawConfig;
  requestedEngineId: string;
  source: 'legacy' | 'plugin' | 'in-process';
  host: ContextEngineHostSupport;
  contextWindow: number;
  settings: CompactionSettings;
  /** agents.defaults.compaction.enabled */
  compactionEnabled: boolean;
  /** model id and provider the runs use */
  model: string | null;
  provider: string | null;
  summarizer: Summarizer;
  agentDir: string;
  workspaceDir: string;
  quarantineLog: QuarantineLogEntry[];
  routing: LaneGroupRouting;
  transcripts: Map<string, LaneTranscript>;
  /** compactions engines handed to the runtime (SDK delegateCompactionToRuntime), counted */
  delegatedCompactions: number;
  /** the lane plugin's hook handlers (in its engine host), when it registered any with api.on */
  hooks?: LaneHookHost;
  /** plugin lanes: the deadline for each engine call, in ms */
  callTimeoutMs?: number;
  /** plugin lanes: whether the engine host still answers (a blocked one is killed), and why it stopped */
  hostLiveness?: { checkResponsive(): Promise<boolean>; stopReason(): string | undefined };
  /** plugin lanes: whether the engine host is confined by Node's permission model, and what it refused */
  sandbox?: LaneSandboxState;
  /** closes plugin hosts and the like */
  closers: (() => Promise<void>)[];
}

/** Find a lane transcript by session id or file (for the built-in compaction the legacy engine delegates to). */
export async function resolveLaneTranscript(
  group: LaneGroup,
  ref: { sessionId: string; sessionFile?: string },
): Promise<SessionTranscriptHandle> {
  const lane =
    group.transcripts.get(ref.sessionId) ?? (ref.sessionFile ? group.transcripts.get(ref.sessionFile) : undefined);
  if (!lane) {
    throw new Error(
      `The replay has no lane transcript for session "${ref.sessionId}"${ref.sessionFile ? ` (${ref.sessionFile})` : ''}: ` +
        'compact() was called for a session this lane does not replay. Pass the sessionId/sessionFile the host gave the engine.',
    );
  }
  return lane.handle;
}
