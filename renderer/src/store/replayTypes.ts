/** The replay store's state and actions (replayStore.ts), shared by the modules that implement its actions. */
import type { StoreApi } from 'zustand';
import type { BridgeEvent, InspectorApi } from '../../../src/bridge';
import type { ConsentRequest, LaneChoice } from '../model/laneChoices';
import type { ReplayProgressSample } from '../../../src/view';
import type { Recording, ReplayStatus } from '../recordingTypes';

export interface ReplayFormState {
  /** the lane choices ticked in the form, by key (LaneChoice.key) */
  lanes: string[];
  /** more lane specs typed by the user, whitespace-separated (e.g. `legacy?window=64000`) */
  extraSpecs: string;
  window: string;
  /** '' = OpenClaw's default reserve */
  reserve: string;
  /** '' = OpenClaw's default keepRecentTokens (20000) */
  keepRecentTokens: string;
  host: string;
  /** the OpenClaw release to replay as; '' = ContextScope's default (2026.7.1) */
  openclawVersion: string;
  /** live mode: keep following the session and show each new turn as it arrives */
  follow: boolean;
  /** per ticked plugin lane (by its key): the plugin's config as JSON5 text ('' = the plugin's defaults) */
  laneConfigs: Record<string, string>;
}

export interface ReplayJobView {
  replayId: string | null;
  status: 'starting' | ReplayStatus;
  /** lane-turns finished / planned */
  done: number;
  total: number;
  /** latest turn finished per lane (1-based) and that lane's turn count */
  lanes: Record<string, { turn: number; total: number }>;
  error: string | null;
  sessionFile: string;
  sessionTitle: string;
  /**
   * for turns/s and time left (src/view/replayRate.ts): the first replay.stream page with turns done, and the latest
   */
  pace?: { first: ReplayProgressSample; last: ReplayProgressSample };
  /** live mode: the session is followed; passes shown so far */
  following?: boolean;
  passes?: number;
}

/** The section a replay's recording opens in once its first turns arrive. */
export type ReplayOpensIn = 'replay' | 'compare';

/**
 * One replay as it is asked for: the session, the values it runs with — the form's, or another lane set a workflow
 * passes for this replay only (try-before-save: the saved and the edited config), never written into the form —
 * and where its recording opens.
 */
export interface ReplayLaunch {
  session: { file: string; title: string };
  form: ReplayFormState;
  /** the lane choices the form's keys name */
  choices: readonly LaneChoice[];
  opensIn: ReplayOpensIn;
}

/** What a caller may change for one replay: fields over the form's values, and where the recording opens. */
export interface LaunchOptions {
  form?: Partial<ReplayFormState>;
  opensIn?: ReplayOpensIn;
}

/** What requestStart did: started (and followed to its end), asked for consent, or refused the form (formError). */
export type StartOutcome = 'started' | 'asked' | 'refused';

export interface PendingStart {
  /** the replay that starts once consent is given, exactly as asked for */
  launch: ReplayLaunch;
  requests: ConsentRequest[];
}

export type ExportFormat = 'json' | 'html';

/** A recording this window finished before the current one (what Compare can set the current one against). */
export interface FinishedRecording {
  replayId: string;
  title: string;
  recording: Recording;
  /** Date.now() when it finished */
  finishedAt: number;
}

export interface ReplayStoreState {
  form: ReplayFormState;
  /** the user changed the lane choice (so the default plugin lane is no longer added for them) */
  lanesTouched: boolean;
  /** a validation problem of the form, shown next to the Start button */
  formError: string | null;
  run: ReplayJobView | null;
  /** consent the user must give before the replay starts */
  pending: PendingStart | null;
  consentBusy: boolean;
  recording: Recording | null;
  /** the replay the recording came from (what export names) */
  recordingReplayId: string | null;
  recordingTitle: string;
  /** the recordings finished before the current one, newest first (at most MAX_PREVIOUS_RECORDINGS) */
  previous: FinishedRecording[];
  exporting: ExportFormat | null;
  exportError: string | null;
  /** ms between replay.get polls while a replay runs */
  pollIntervalMs: number;

  setForm(patch: Partial<ReplayFormState>): void;
  toggleLane(spec: string): void;
  /**
   * Validates the form (with `options` over it, for this replay only); asks for consent when a plugin lane needs
   * it, else starts and follows the replay to its end.
   */
  requestStart(
    api: InspectorApi,
    session: { file: string; title: string },
    choices: readonly LaneChoice[],
    options?: LaunchOptions,
  ): Promise<StartOutcome>;
  /** `approve`: remember consent for every approvable plugin, then start; `once`: start with allowExecute. */
  confirmConsent(api: InspectorApi, mode: 'approve' | 'once'): Promise<void>;
  dismissConsent(): void;
  handleEvent(event: BridgeEvent): void;
  cancel(api: InspectorApi): Promise<void>;
  /** The export's content (the view saves it as a file), or null when it failed (see exportError). */
  exportRecording(api: InspectorApi, format: ExportFormat): Promise<string | null>;
}

/** What an action of the replay store works with: zustand's own `set` and `get`. */
export interface ReplayStoreAccess {
  set: StoreApi<ReplayStoreState>['setState'];
  get: StoreApi<ReplayStoreState>['getState'];
  subscribe: StoreApi<ReplayStoreState>['subscribe'];
}
