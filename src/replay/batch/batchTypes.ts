/** What a batch replay is asked for, what one session's job is, and the row each job ends as. Plain JSON. */
import type { ConfirmedPlugin } from '../../plugins/consent';
import type { ReplayRequest } from '../plan/replayPlan';

/**
 * One replay request applied to every session of a state dir (the same lanes and flags for each; settings the
 * request leaves out come from the state dir's openclaw.json and each session's release). A plain `legacy` baseline
 * lane is added when no lane asked for is one (see planBatch.ts).
 */
export interface BatchRequest extends ReplayRequest {
  /** the state dir (or folder of transcripts) whose sessions are replayed, and whose openclaw.json applies */
  stateDir: string;
  /** finding codes or a severity (as `--fail-on`): a row counts the findings it selects in `failing` */
  failOn?: string[];
  plugins?: {
    allowExecute?: boolean;
    consentFile?: string;
    /** plugins confirmed for this batch only (real path + content hash): plain data, so workers build the consent */
    confirmed?: ConfirmedPlugin[];
    workspaceDir?: string;
    nodePath?: string;
    /** the largest engine result taken from an engine host, in bytes (`--max-result-mb`) */
    maxResultBytes?: number;
  };
}

/** One session to replay: where it is read and where its Recording goes. */
export interface BatchJob {
  /** position in the plan (rows keep it) */
  index: number;
  sessionId: string;
  key?: string;
  agentId: string;
  storage: 'jsonl' | 'sqlite';
  /** what openReplaySession takes: the transcript file or `<agent database>#<session key>` */
  file: string;
  /** the Recording's file (absent: not written) */
  recordingFile?: string;
}

/** One lane's figures over one session (root lane turns only; subagent lanes are not summed in). */
export interface BatchLaneFigures {
  laneId: string;
  label: string;
  spec: string;
  /** the legacy lane the others are measured against */
  baseline: boolean;
  /** the lane was added as the baseline (not asked for): its findings are not counted in the row */
  added: boolean;
  turns: number;
  compactions: number;
  quarantines: number;
  /** turns whose status is not ok */
  failedTurns: number;
  /** assembled tokens (tiktoken) summed over the lane's turns */
  tokens: number;
  /** the baseline's tokens minus this lane's (positive: this lane sent less); null without a baseline */
  savedTokens: number | null;
  /** savedTokens as a fraction of the baseline's tokens */
  savedFraction: number | null;
  findings: { error: number; warning: number; info: number };
  /** the lane could not run at all */
  error?: string;
}

export type BatchRowStatus = 'queued' | 'running' | 'done' | 'failed';

export interface BatchRow {
  index: number;
  sessionId: string;
  key?: string;
  agentId: string;
  storage: 'jsonl' | 'sqlite';
  file: string;
  status: BatchRowStatus;
  /** why the session could not be loaded or replayed */
  error?: string;
  /** user turns of the session's active branch (once read) */
  turns?: number;
  lanes: BatchLaneFigures[];
  /** findings (of the lanes asked for) selected by the request's failOn */
  failing: number;
  recordingFile?: string;
  /** wall time of this session's replay in its worker */
  durationMs?: number;
}

export interface BatchTotals {
  sessions: number;
  done: number;
  failed: number;
  turns: number;
  /** per lane id (lanes asked for, and the baseline): figures summed over the finished sessions */
  lanes: BatchLaneFigures[];
  failing: number;
}
