/**
 * Replays as a service for the shells (bridge `replay.*`): start one in the background, watch its progress,
 * fetch its Recording (whole or sliced), export it, cancel it. The store is bounded: the oldest finished replays
 * are forgotten once more than `maxReplays` are held.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { LoadedSession } from '../transcripts';
import { exportRecordingJson } from './recording/exportRecording';
import type { Recording } from '../contract/recording';
import type { PluginLoadingOptions, ReplayOptions } from './lane/replayTypes';
import { buildReplayPlan, checkReplayRequest, type ReplayRequest } from './plan/replayPlan';
import type { PluginConsent } from '../plugins';
import { writeFileAtomic } from '../common/writeFileAtomic';
import { renderHtmlReport } from './report/renderHtmlReport';
import { followSession } from './follow/followSession';
import { replaySession } from './replaySession';
import { openReplaySession } from './session/resolveSessionInput';
import { sliceRecording, type RecordingSlice } from './recording/sliceRecording';
import { errorMessage } from '../common/errorText';
import { DEFAULT_TOKEN_ENCODING } from '../tokens';
import { prestartTokenWorker } from './recording/backgroundTokenCounter';
import { createJobStream, streamPage, type JobStream } from './stream/replayStreamPage';
import type { ReplayStreamPage, ReplayStreamRequest } from './stream/replayStreamPage';
import { checkPageRequest, recordingFitsInline, recordingPage } from './stream/recordingPages';
import type { PageCache, RecordingPage, RecordingPageRequest } from './stream/recordingPages';

export { defaultDemoSessionsDir, listSessions, type ListedSession } from './listSessions';

export type ReplayStatus = 'running' | 'done' | 'failed' | 'cancelled';

/** A replay the shell starts: the session, the shared replay request, and the consent the main process gave. */
export interface StartReplayRequest extends ReplayRequest {
  sessionPath: string;
  allowExecute?: boolean;
  /** consent for this run (the app's main process confirmed these plugins); others need a remembered grant */
  consent?: PluginConsent;
  /** live mode: follow the session, replaying each change, until cancelled */
  follow?: boolean;
}

export interface ReplayProgressUpdate {
  replayId: string;
  lane: string;
  turn: number;
  /** turns that lane replays (its session's active branch) */
  total: number;
  /** set for subagent lanes (their turns are not part of the snapshot's done/total) */
  parentLane?: string;
}

export interface ReplaySnapshot {
  replayId: string;
  status: ReplayStatus;
  /** lane-turns finished / planned, root lanes only: lanes × turns of the session's active branch */
  done: number;
  total: number;
  error?: string;
  recording?: Recording;
}

interface ReplayJob {
  id: string;
  status: ReplayStatus;
  done: number;
  total: number;
  error?: string;
  recording?: Recording;
  controller: AbortController;
  finished: Promise<void>;
  /** live mode: passes finished so far (undefined for a one-off replay) */
  passes?: number;
  /** turns as lanes finish them (replay.stream) */
  stream: JobStream;
  /** performance.now() at the start */
  startedAt: number;
  /** what replay.get's pages of the recording keep between pages */
  pages: PageCache;
}

/** `replay.get` as the bridge asks it: a slice, live mode's last pass seen, a page of the recording. */
export interface ReplayReadRequest extends RecordingPageRequest {
  slice?: RecordingSlice;
  afterPass?: number;
}

/**
 * `replay.get` within the bridge's message bound: the recording whole when it is small enough, else `paged` (read
 * it with `from`); with `from`, a page of it (`pass`: the live-mode pass it belongs to).
 */
export type ReplayRead = ReplaySnapshot & { paged?: true; page?: RecordingPage & { pass?: number } };

export class ReplayNotFoundError extends Error {
  readonly code = 'not_found';
  constructor(replayId: string) {
    super(
      `No replay "${replayId}" (it never existed or was forgotten; only the latest replays are kept). Start it again with replay.start.`,
    );
  }
}

export interface ReplayService {
  start(
    request: StartReplayRequest,
    onProgress?: (update: ReplayProgressUpdate) => void,
  ): Promise<{ replayId: string }>;
  /** `afterPass` (live mode): the recording only when a later pass finished */
  get(replayId: string, slice?: RecordingSlice, afterPass?: number): ReplaySnapshot;
  /** resolves when the replay has finished (whatever its status) */
  wait(replayId: string): Promise<ReplaySnapshot>;
  /** to `path`, else inline in `content` */
  export(
    replayId: string,
    format: 'json' | 'html',
    path?: string,
  ): { format: 'json' | 'html'; bytes: number; path?: string; content?: string };
  cancel(replayId: string): boolean;
  /** replay.get for the bridge: no answer over the bridge's message bound (see stream/recordingPages.ts) */
  read(replayId: string, request?: ReplayReadRequest): ReplayRead;
  /** the next page of a replay's turns, as they finish (see stream/replayStreamPage.ts) */
  stream(replayId: string, request?: ReplayStreamRequest): Omit<ReplaySnapshot, 'recording'> & ReplayStreamPage;
}

export interface ReplayServiceOptions {
  maxReplays?: number;
  /**
   * how plugin lanes load: the engine-host transport (the Electron app's utilityProcess adapter), the consent
   * file the app's Plugins view writes, discovery folders. A request's `allowExecute` decides consent per run.
   */
  plugins?: Omit<PluginLoadingOptions, 'allowExecute'>;
  /**
   * keep a tokenizer worker started for the next replay (the app: a replay's first turn then does not wait for a
   * worker to start and load tiktoken); another is started when a replay ends
   */
  prestartTokenizer?: boolean;
}

function runJob(entry: ReplayJob, session: LoadedSession, replay: Omit<ReplayOptions, 'session' | 'signal'>) {
  return replaySession({ ...replay, session, signal: entry.controller.signal }).then(
    (recording) => {
      entry.recording = recording;
      entry.status = 'done';
    },
    (error: unknown) => {
      entry.status = entry.controller.signal.aborted ? 'cancelled' : 'failed';
      entry.error = errorMessage(error);
      // a cancelled replay keeps what it did, marked partial
      if (entry.status === 'cancelled' && entry.stream.live && entry.done > 0) {
        const recording = entry.stream.live.partial();
        // counted in the recording it describes: a turn recorded just before the abort may not have reported its
        // progress yet, and the note and the turn list must not say two numbers (issue 34)
        const done = recording.lanes
          .filter((lane) => !lane.parentLane && lane.source !== 'trajectory')
          .reduce((sum, lane) => sum + (recording.turns[lane.id]?.length ?? 0), 0);
        entry.recording = { ...recording, partial: { reason: 'cancelled' as const, done, total: entry.total } };
      }
    },
  );
}

/** Live mode: each pass replaces the recording; cancelling ends the job as done with the last pass. */
function followJob(entry: ReplayJob, input: string, replay: Omit<ReplayOptions, 'session' | 'signal'>) {
  entry.passes = 0;
  const laneCount = replay.lanes.length;
  return followSession({
    input,
    replay: { ...replay, onProgress: undefined, onTurn: undefined, onLive: undefined },
    signal: entry.controller.signal,
    onRecording: (recording, pass) => {
      entry.recording = recording;
      entry.passes = pass;
      entry.total = laneCount * recording.session.turnStarts.length;
      entry.done = entry.total;
      delete entry.error;
    },
    onError: (error) => {
      entry.error = errorMessage(error);
    },
  }).then(
    () => {
      entry.status = entry.recording ? 'done' : 'cancelled';
    },
    (error: unknown) => {
      entry.status = 'failed';
      entry.error = errorMessage(error);
    },
  );
}

/** Validates the request, reads the session and starts its replay; the job follows it to the end. */
async function startReplayJob(
  request: StartReplayRequest,
  onProgress: ((update: ReplayProgressUpdate) => void) | undefined,
  plugins: ReplayServiceOptions['plugins'],
): Promise<ReplayJob> {
  const { sessionPath, allowExecute, consent, follow, ...asked } = request;
  const checked = checkReplayRequest(asked); // anything a person can get wrong throws before the replay gets an id
  const { loaded: session } = await openReplaySession(sessionPath);
  const plan = await buildReplayPlan(session, checked, {
    ...plugins,
    allowExecute: allowExecute === true,
    ...(consent ? { consent } : {}),
  });
  const id = randomUUID();
  const controller = new AbortController();
  const entry: ReplayJob = {
    id,
    status: 'running',
    done: 0,
    total: plan.total,
    controller,
    finished: Promise.resolve(),
    stream: createJobStream(),
    startedAt: performance.now(),
    pages: {},
  };
  const replay: Omit<ReplayOptions, 'session' | 'signal'> = {
    ...plan.options,
    onTurn: (record) => entry.stream.log.push(record),
    onLive: (live) => {
      entry.stream.live = live;
    },
    onProgress: (p) => {
      if (!p.parentLane) entry.done++;
      onProgress?.({
        replayId: id,
        lane: p.lane,
        turn: p.turn,
        total: p.total,
        ...(p.parentLane ? { parentLane: p.parentLane } : {}),
      });
    },
  };
  entry.finished = follow ? followJob(entry, sessionPath, replay) : runJob(entry, session, replay);
  return entry;
}

/** ReplayService.read: the snapshot within the bridge's bound, or the page asked for. */
function readJob(
  j: ReplayJob,
  { slice, afterPass, from, count }: ReplayReadRequest,
  get: (slice?: RecordingSlice, afterPass?: number) => ReplaySnapshot,
): ReplayRead {
  if (from === undefined && count === undefined) {
    const { recording, ...snapshot } = get(slice, afterPass);
    if (!recording || recordingFitsInline(recording)) return { ...snapshot, ...(recording ? { recording } : {}) };
    return { ...snapshot, paged: true };
  }
  const { recording: _whole, ...snapshot } = get();
  if (!j.recording) {
    checkPageRequest({ from, count }, Number.MAX_SAFE_INTEGER); // no page yet: only the request's shape
    return snapshot;
  }
  const page = recordingPage(j.pages, j.recording, { from, count }, slice);
  return { ...snapshot, page: { ...page, ...(j.passes !== undefined ? { pass: j.passes } : {}) } };
}

export function createReplayService(options: ReplayServiceOptions = {}): ReplayService {
  const maxReplays = options.maxReplays ?? 8;
  const jobs = new Map<string, ReplayJob>();
  const prestart = () => {
    if (options.prestartTokenizer) prestartTokenWorker(DEFAULT_TOKEN_ENCODING);
  };
  prestart();

  const job = (replayId: string): ReplayJob => {
    const found = jobs.get(replayId);
    if (!found) throw new ReplayNotFoundError(replayId);
    return found;
  };

  const forgetOld = () => {
    for (const [id, j] of jobs) {
      if (jobs.size <= maxReplays) break;
      if (j.status !== 'running') jobs.delete(id);
    }
  };

  return {
    async start(request, onProgress) {
      const entry = await startReplayJob(request, onProgress, options.plugins);
      void entry.finished.then(prestart);
      jobs.set(entry.id, entry);
      forgetOld();
      return { replayId: entry.id };
    },

    get(replayId, slice, afterPass) {
      const j = job(replayId);
      const fresh = afterPass === undefined || (j.passes ?? 0) > afterPass || j.status !== 'running';
      return {
        replayId,
        status: j.status,
        done: j.done,
        total: j.total,
        ...(j.error !== undefined ? { error: j.error } : {}),
        ...(j.passes !== undefined ? { following: j.status === 'running', passes: j.passes } : {}),
        ...(j.recording && fresh ? { recording: slice ? sliceRecording(j.recording, slice) : j.recording } : {}),
      };
    },

    read(replayId, request = {}) {
      return readJob(job(replayId), request, (slice, afterPass) => this.get(replayId, slice, afterPass));
    },

    async wait(replayId) {
      await job(replayId).finished;
      return this.get(replayId);
    },

    export(replayId, format, path) {
      const j = job(replayId);
      if (!j.recording) {
        throw new Error(
          `Replay ${replayId} has no recording to export yet (status: ${j.status}${j.error ? `: ${j.error}` : ''}).`,
        );
      }
      const recording = j.recording;
      const content = format === 'json' ? exportRecordingJson(recording) : renderHtmlReport(recording);
      const bytes = Buffer.byteLength(content);
      if (!path) return { format, bytes, content };
      const target = resolve(path);
      writeFileAtomic(target, content, { mode: 0o644 });
      return { format, bytes, path: target };
    },

    stream(replayId, request = {}) {
      const j = job(replayId);
      const running = j.status === 'running';
      const page = streamPage(j.stream, { running, recording: j.recording, startedAt: j.startedAt }, request);
      const { recording: _recording, ...snapshot } = this.get(replayId);
      return { ...snapshot, ...page };
    },

    cancel(replayId) {
      const j = job(replayId);
      if (j.status !== 'running') return false;
      j.controller.abort();
      return true;
    },
  };
}
