/** State shared by every lane of one replay: the message table, token counter, clock and replay options. */
import type { TokenEncoding } from '../../tokens';
import type { LoadedSession } from '../../transcripts';
import { BackgroundTokenCounter } from '../recording/backgroundTokenCounter';
import { DEFAULT_DRIFT_THRESHOLD } from '../findings/computeTurnFindings';
import { MessageTable } from '../recording/messageTable';
import { openClawVersionProfile, type OpenClawVersionProfile } from './openclawVersion';
import type { VersionChoice } from './openclawVersion';

export interface ReplayStateInit {
  encoding: TokenEncoding;
  systemPrompt: string;
  checkDeterminism: boolean;
  driftThreshold?: number;
  honourRecordedCompactions: boolean;
  /** the release to behave as and how it was chosen (default: 2026.9.6, the newest) */
  versionChoice?: VersionChoice;
  /** where the lanes' settings came from, recorded as is */
  settingSources?: Record<string, string>;
  manualCompactions?: { turn: number; customInstructions?: string }[];
  resolveChildSession?: (childSessionKey: string) => Promise<LoadedSession | null>;
  /** count tokens on a worker thread (default true) */
  tokenizeInBackground?: boolean;
}

export class ReplayState {
  readonly counter: BackgroundTokenCounter;
  readonly table: MessageTable;
  readonly encoding: TokenEncoding;
  readonly systemPrompt: string;
  readonly checkDeterminism: boolean;
  readonly driftThreshold: number;
  readonly honourRecordedCompactions: boolean;
  readonly profile: OpenClawVersionProfile;
  readonly versionChoice: VersionChoice;
  /** profiles of the other releases the root session's turns ran as (a session that spans upgrades) */
  private readonly turnProfiles = new Map<string, OpenClawVersionProfile>();
  readonly settingSources?: Record<string, string>;
  readonly manualCompactions: Map<number, { customInstructions?: string }>;
  readonly resolveChildSession: (childSessionKey: string) => Promise<LoadedSession | null>;
  private readonly startedAt = performance.now();
  private seq = 0;

  constructor(init: ReplayStateInit) {
    this.encoding = init.encoding;
    this.counter = new BackgroundTokenCounter(init.encoding, { useWorker: init.tokenizeInBackground !== false });
    this.systemPrompt = init.systemPrompt;
    this.checkDeterminism = init.checkDeterminism;
    this.driftThreshold = init.driftThreshold ?? DEFAULT_DRIFT_THRESHOLD;
    this.honourRecordedCompactions = init.honourRecordedCompactions;
    this.profile = openClawVersionProfile(init.versionChoice?.version);
    this.table = new MessageTable(this.counter, this.profile.messageEstimator, this.profile.cjkCounting);
    this.versionChoice = init.versionChoice ?? { version: this.profile.version, how: 'newest' };
    if (init.settingSources) this.settingSources = init.settingSources;
    this.manualCompactions = new Map(
      (init.manualCompactions ?? []).map((m) => [m.turn, { customInstructions: m.customInstructions }]),
    );
    this.resolveChildSession = init.resolveChildSession ?? (async () => null);
  }

  /**
   * The profile of the release turn `turn` of the root session ran as: its own run's when the session spans releases
   * (`versionChoice.turnReleases`), else the replay's. Only what OpenClaw decides per run uses it (the tool-call id
   * rewrite); everything else behaves as `profile`.
   */
  profileOfTurn(turn: number): OpenClawVersionProfile {
    const ranges = this.versionChoice.turnReleases;
    if (!ranges || ranges.length === 0) return this.profile;
    let version = ranges[0]!.version;
    for (const range of ranges) if (range.firstTurn <= turn) version = range.version;
    if (version === this.profile.version) return this.profile;
    let profile = this.turnProfiles.get(version);
    if (!profile) {
      profile = openClawVersionProfile(version);
      this.turnProfiles.set(version, profile);
    }
    return profile;
  }

  now(): number {
    return Math.max(0, performance.now() - this.startedAt);
  }

  nextSeq(): number {
    return this.seq++;
  }
}
