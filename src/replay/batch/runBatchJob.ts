/**
 * One session of a batch, start to end (what a pool worker runs): read the session, build its replay plan (the
 * state dir's openclaw.json with the request's overrides, the planned lanes) as a single replay does, replay it, write its Recording
 * atomically and summarize it as a row. Any failure is the row's error: a batch never stops for one session.
 */
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../../common/errorText';
import { confirmedConsent, createConsentStore, defaultConsentFile } from '../../plugins/consent';
import { writeRecordingFile } from '../recording/writeRecordingFile';
import type { PluginLoadingOptions } from '../lane/replayTypes';
import { buildReplayPlan } from '../plan/replayPlan';
import { replaySession } from '../replaySession';
import { openReplaySession } from '../session/resolveSessionInput';
import type { BatchJob, BatchRequest, BatchRow } from './batchTypes';
import { planBatchLanes } from './planBatch';
import { summarizeRecording } from './summarizeRecording';

/** The row of a job before it ran (or when it could not). */
export function pendingRow(job: BatchJob, status: BatchRow['status'] = 'queued'): BatchRow {
  return {
    index: job.index,
    sessionId: job.sessionId,
    ...(job.key ? { key: job.key } : {}),
    agentId: job.agentId,
    storage: job.storage,
    file: job.file,
    status,
    lanes: [],
    failing: 0,
  };
}

export function failedRow(job: BatchJob, error: string, durationMs?: number): BatchRow {
  return { ...pendingRow(job, 'failed'), error, ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** Plugin loading in a worker: the consent a batch carries as plain data made into the consent it stands for. */
function pluginsOf(request: BatchRequest): PluginLoadingOptions {
  const plugins = request.plugins ?? {};
  return {
    allowExecute: plugins.allowExecute === true,
    ...(plugins.consentFile ? { consentFile: plugins.consentFile } : {}),
    ...(plugins.confirmed?.length
      ? {
          consent: confirmedConsent(plugins.confirmed, createConsentStore(plugins.consentFile ?? defaultConsentFile())),
        }
      : {}),
    ...(plugins.workspaceDir ? { workspaceDir: plugins.workspaceDir } : {}),
    ...(plugins.nodePath ? { nodePath: plugins.nodePath } : {}),
    ...(plugins.maxResultBytes !== undefined ? { maxResultBytes: plugins.maxResultBytes } : {}),
  };
}

export async function runBatchJob(job: BatchJob, request: BatchRequest, signal?: AbortSignal): Promise<BatchRow> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { loaded } = await openReplaySession(job.file);
    const { failOn: _failOn, plugins: _plugins, ...asked } = request;
    const lanes = planBatchLanes(request.lanes);
    const plan = await buildReplayPlan(loaded, { ...asked, lanes: lanes.lanes }, pluginsOf(request));
    const recording = await replaySession({ ...plan.options, session: loaded, ...(signal ? { signal } : {}) });
    // streamed: a long session's Recording can be past V8's largest string
    if (job.recordingFile) writeRecordingFile(job.recordingFile, recording);
    const summary = summarizeRecording(recording, {
      baselineAdded: lanes.baselineAdded,
      ...(request.failOn ? { failOn: request.failOn } : {}),
    });
    return {
      ...pendingRow(job, 'done'),
      turns: summary.turns,
      lanes: summary.lanes,
      failing: summary.failing,
      ...(job.recordingFile ? { recordingFile: job.recordingFile } : {}),
      durationMs: elapsed(),
    };
  } catch (error) {
    return failedRow(job, errorMessage(error), elapsed());
  }
}
