/**
 * One session of a batch, start to end (what a pool worker runs): read the session, resolve its settings from its
 * state dir's openclaw.json with the request's overrides, replay it through the planned lanes, write its Recording
 * atomically and summarize it as a row. Any failure is the row's error: a batch never stops for one session.
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { errorMessage } from '../../common/errorText';
import { confirmedConsent, createConsentStore, defaultConsentFile } from '../../plugins/consent';
import { writeRecordingFile } from '../recording/writeRecordingFile';
import { laneConfigFromSpec } from '../lane/laneConfigFromSpec';
import { parseHostSpec, type HostSpec } from '../lane/laneSpec';
import type { ReplayLaneConfig, ReplayOptions } from '../lane/replayTypes';
import { replaySession } from '../replaySession';
import { openReplaySession } from '../session/resolveSessionInput';
import {
  resolveReplaySettings,
  settingSourcesOf,
  type ResolvedReplaySettings,
} from '../settings/resolveReplaySettings';
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

function lanesOf(request: BatchRequest, resolved: ResolvedReplaySettings): ReplayLaneConfig[] {
  const { settings } = resolved;
  const host: HostSpec | undefined = request.host ? parseHostSpec(request.host, 'host') : undefined;
  return planBatchLanes(request.lanes).specs.map((spec) =>
    laneConfigFromSpec(spec, {
      contextWindow: settings.contextWindow,
      reserveTokens: settings.reserveTokens,
      keepRecentTokens: settings.keepRecentTokens,
      ...(settings.reserveTokensFloor !== null ? { reserveTokensFloor: settings.reserveTokensFloor } : {}),
      compactionEnabled: settings.compactionEnabled,
      ...(host ? { host } : {}),
    }),
  );
}

function replayOptionsOf(
  request: BatchRequest,
  resolved: ResolvedReplaySettings,
  signal?: AbortSignal,
): Omit<ReplayOptions, 'session'> {
  const plugins = request.plugins ?? {};
  return {
    lanes: lanesOf(request, resolved),
    ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
    honourRecordedCompactions: request.honourRecordedCompactions === true,
    checkDeterminism: request.checkDeterminism === true,
    openclawVersion: resolved.settings.openclawVersion,
    settingSources: settingSourcesOf(resolved),
    ...(request.driftThreshold !== undefined ? { driftThreshold: request.driftThreshold } : {}),
    replaySubagents: request.replaySubagents !== false,
    plugins: {
      allowExecute: plugins.allowExecute === true,
      stateDir: resolve(request.stateDir),
      ...(plugins.consentFile ? { consentFile: plugins.consentFile } : {}),
      ...(plugins.confirmed?.length
        ? {
            consent: confirmedConsent(
              plugins.confirmed,
              createConsentStore(plugins.consentFile ?? defaultConsentFile()),
            ),
          }
        : {}),
      ...(plugins.workspaceDir ? { workspaceDir: plugins.workspaceDir } : {}),
      ...(plugins.nodePath ? { nodePath: plugins.nodePath } : {}),
      ...(plugins.callTimeoutMs !== undefined ? { callTimeoutMs: plugins.callTimeoutMs } : {}),
      ...(plugins.maxResultBytes !== undefined ? { maxResultBytes: plugins.maxResultBytes } : {}),
    },
    ...(signal ? { signal } : {}),
  };
}

export async function runBatchJob(job: BatchJob, request: BatchRequest, signal?: AbortSignal): Promise<BatchRow> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { loaded } = await openReplaySession(job.file);
    const resolved = await resolveReplaySettings({
      session: loaded,
      stateDir: resolve(request.stateDir),
      overrides: request.overrides ?? {},
    });
    const recording = await replaySession({ ...replayOptionsOf(request, resolved, signal), session: loaded });
    // streamed: a long session's Recording can be past V8's largest string
    if (job.recordingFile) writeRecordingFile(job.recordingFile, recording);
    const summary = summarizeRecording(recording, {
      baselineAdded: planBatchLanes(request.lanes).baselineAdded,
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
