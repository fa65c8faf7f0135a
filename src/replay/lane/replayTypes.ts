/** The options of `replaySession` and the shape of a lane as the caller describes it. */
import type { ContextEngineFactory, OpenClawConfig } from '../../contract';
import type {
  EngineHostEntry,
  EngineHostTransportFactory,
  HostCodecName,
  HostGrants,
  PluginConsent,
} from '../../plugins';
import type { Summarizer } from '../../summarize';
import type { LoadedSession } from '../../transcripts';
import type { HostSpec } from './laneSpec';
import type { VersionChoice } from './openclawVersion';
import type { LaneRecord, MessageRecord, Recording, TurnRecord } from '../../contract/recording';

export type LaneEngineSource =
  /** OpenClaw's built-in legacy engine */
  | { kind: 'legacy' }
  /** a plugin folder (or an id found by discovery), loaded into an engine-host process */
  | {
      kind: 'plugin';
      plugin: string;
      /** which registered engine the slot selects (default: the first the plugin registers) */
      engineId?: string;
      /** plugins.entries.<id>.config */
      pluginConfig?: Record<string, unknown>;
      /** the deadline for each engine call in ms (default: PluginLoadingOptions.callTimeoutMs, else 30 000) */
      callTimeoutMs?: number;
      /** the largest message taken from the engine host (default: PluginLoadingOptions.maxResultBytes, else 64 MiB) */
      maxResultBytes?: number;
      /**
       * child processes / worker threads the lane asks for its engine host (`allow=`): given when the plugin's consent
       * grants them (or with --allow-execute); else the plugin does not run and the lane says which grant is missing
       */
      allow?: HostGrants;
      /**
       * how values cross the engine-host channel (`hostCodec=`): `refs` (message references) or `json` (every value
       * whole, for debugging the channel); default: CONTEXTSCOPE_HOST_CODEC, else `refs`
       */
      hostCodec?: HostCodecName;
    }
  /** an engine factory registered into the lane runtime in this process (tests, embedding) */
  | { kind: 'in-process'; engineId: string; factory: ContextEngineFactory; owner?: string };

export interface ReplayLaneConfig {
  /** unique lane id (default: derived from the label) */
  id?: string;
  label?: string;
  /** the spec text the lane came from, kept in the recording */
  spec?: string;
  engine: LaneEngineSource;
  /** the model's context window (the context token budget) */
  contextWindow: number;
  /** configured agents.defaults.compaction.reserveTokens (default 16384; OpenClaw's floor and cap apply) */
  reserveTokens?: number;
  reserveTokensFloor?: number;
  keepRecentTokens?: number;
  /** agents.defaults.compaction.enabled (default true) */
  compactionEnabled?: boolean;
  /** default "embedded" */
  host?: HostSpec;
  /** model id passed to assemble and runtimeSettings (default: the session's model) */
  model?: string;
  /** extra openclaw.json content for this lane (plugins.slots.contextEngine is set by the replay) */
  config?: OpenClawConfig;
}

export interface ReplayProgress {
  lane: string;
  /** the turn just finished (0-based) */
  turn: number;
  /** turns of that lane's session */
  total: number;
  /** set for subagent lanes */
  parentLane?: string;
}

export interface PluginLoadingOptions {
  /** the user consented to running plugin code for this run (the CLI's --allow-execute, the app's "run once") */
  allowExecute: boolean;
  /**
   * the consent store consulted when `allowExecute` is false (default: plugin-consent.json in the app config
   * dir); a plugin without a current grant is not executed and its lane reports why
   */
  consentFile?: string;
  /** consent decided by the caller (the app's main process: plugins it confirmed for this run); wins over both */
  consent?: PluginConsent;
  /** how engine hosts are started (default child_process.fork; the Electron app passes its utilityProcess adapter) */
  transport?: EngineHostTransportFactory;
  /** where plugin ids are discovered (bundled resources/plugins is always searched) */
  stateDir?: string;
  workspaceDir?: string;
  bundledDir?: string;
  /** Node binary for engine hosts */
  nodePath?: string;
  /** the deadline for each engine call of every plugin lane, in ms (default 30 000; compact at least 180 000) */
  callTimeoutMs?: number;
  /**
   * the largest message (an engine result) the app takes from a plugin lane's engine host, in bytes (default 64 MiB);
   * a larger one quarantines the lane: `assemble result of 52.4 MB is over the 64 MB cap`
   */
  maxResultBytes?: number;
  /** each engine host's V8 heap cap in MiB (default 2048); a host that reaches it is reported as out of memory */
  maxHeapMb?: number;
  /** the engine-host entry (default: the built engine-host.mjs next to the running bundle, else the TypeScript source) */
  hostEntry?: Partial<EngineHostEntry>;
  /**
   * `false`: engine hosts run without Node's permission model (tests comparing the two; the lane says so). By
   * default each runs confined where its runtime allows (src/plugins/host/hostPermissions.ts)
   */
  sandbox?: false;
}

export interface ReplayOptions {
  /** a loaded session, or the path of a session JSONL file (read tolerantly; problems are recorded) */
  session: LoadedSession | string;
  lanes: ReplayLaneConfig[];
  /** the system prompt the simulated run uses (default "": the recording does not hold one) */
  systemPrompt?: string;
  /** the run's session key (default: the key sessions.json gives this session, else "agent:main:main"); null for none */
  sessionKey?: string | null;
  /** append the session's own compaction entries to every lane (default false: they are markers only) */
  honourRecordedCompactions?: boolean;
  /**
   * the OpenClaw release to behave as (default: the one that wrote the session when it records it, else the newest
   * profiled release; see lane/openclawVersion.ts and lane/versionProfiles.ts)
   */
  openclawVersion?: string;
  /**
   * how `openclawVersion` was chosen, when the caller already resolved it (a replay plan: inferred, asked for, the
   * newest); absent: the replay chooses as resolveReplaySettings does
   */
  openclawVersionChoice?: VersionChoice;
  /** where the lanes' settings came from (the CLI and the app pass resolveReplaySettings' sources; recorded as is) */
  settingSources?: Record<string, string>;
  /** call assemble twice per turn and compare (default false) */
  checkDeterminism?: boolean;
  /** estimate-drift threshold as a fraction (default 0.5) */
  driftThreshold?: number;
  /** write each lane's transcript as a JSONL file engines can read (default "write") */
  transcriptFiles?: 'write' | 'none';
  /** parent of the per-lane temp dirs (default: a fresh dir under the OS temp dir, removed afterwards) */
  workDir?: string;
  keepWorkDir?: boolean;
  /** summarizer of the built-in compaction and of plugins' runtime.llm (default: deterministic, offline) */
  summarizer?: Summarizer;
  /** `/compact` before these turns (0-based), on every lane */
  manualCompactions?: { turn: number; customInstructions?: string }[];
  /** replay subagent children found through sessions.json (default true) */
  replaySubagents?: boolean;
  /** add the read-only recorded lane when OpenClaw left a trajectory for the session (default true) */
  recordedTrajectory?: boolean;
  /** nesting limit for subagent lanes (default 3) */
  maxSubagentDepth?: number;
  /** finds a child transcript by session key (default: the sessions.json beside the session file) */
  resolveChildSession?: (childSessionKey: string) => Promise<LoadedSession | null>;
  plugins?: PluginLoadingOptions;
  onProgress?: (progress: ReplayProgress) => void;
  /** called when a lane finishes a turn (before any deferred background maintenance completes) */
  onTurn?: (record: TurnRecord) => void;
  /** called once the session is prepared, before the first turn: what a caller may read while the replay runs */
  onLive?: (live: LiveReplay) => void;
  signal?: AbortSignal;
}

/** A running replay as its caller sees it (streaming to the app, `replay --ndjson`, a cancelled replay's partial). */
export interface LiveReplay {
  /** a message of the table as the Recording will store it (exact count 0 until counted) */
  message(key: string): MessageRecord | undefined;
  /** the lanes so far (subagent lanes join when their spawn runs) */
  lanes(): LaneRecord[];
  /** the Recording of the turns finished so far (no recorded-trajectory lane) */
  partial(): Recording;
}
