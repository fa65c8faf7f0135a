/**
 * The `batch.*` handlers of the bridge table: replaying every session of a state dir on a worker pool
 * (src/replay/batch). Plugin lanes honour the app's consent file and the plugins the main process confirmed for
 * this batch (`consentNonce`); the workers start engine hosts with
 * child_process.fork (a worker thread cannot use Electron's utilityProcess adapter).
 */
import type { ConsentBroker } from '../src/app';
import { BridgeMethodError, type batchMethods, type HandlersFor } from '../src/bridge';
import { createPagedRecordings, LaneSpecError, RecordingPageError } from '../src/replay';
import { BatchNotFoundError, createBatchService, type BatchService } from '../src/replay/batch';
import type { ConfirmedPlugin } from '../src/plugins';

export interface BatchHandlerEnvironment {
  consentFile?: string;
  /** redeems `consentNonce` (plugins confirmed for this batch only) */
  consentBroker?: ConsentBroker;
  /** tests: a service of their own */
  service?: BatchService;
}

async function asBatchError<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new BridgeMethodError('not_found', error.message, '/batchId');
    if (error instanceof RecordingPageError) throw new BridgeMethodError('invalid_params', error.message, error.path);
    if (error instanceof LaneSpecError) {
      const path = error.message.startsWith('Invalid host') ? '/host' : '/lanes';
      throw new BridgeMethodError('invalid_params', error.message, path);
    }
    throw error;
  }
}

/** The plugins a `consentNonce` confirmed for this batch; consent comes from the main process, never from a flag. */
function confirmedBy(broker: ConsentBroker | undefined, nonce: string | undefined): ConfirmedPlugin[] {
  if (nonce === undefined) return [];
  if (!broker) throw new BridgeMethodError('consent_required', 'This shell cannot confirm plugins.', '/consentNonce');
  return broker
    .take(nonce, 'run', '/consentNonce')
    .map(({ realPath, hash, grants }) => ({ realPath, hash, ...(grants ? { grants } : {}) }));
}

export function createBatchHandlers(env: BatchHandlerEnvironment = {}): HandlersFor<typeof batchMethods> {
  const batches = env.service ?? createBatchService(env.consentFile ? { consentFile: env.consentFile } : {});
  // a row's recording too large for one bridge message is read in pages; the readings between pages are kept here
  const pages = createPagedRecordings();
  return {
    'batch.start': ({ consentNonce, ...params }) => {
      const confirmed = confirmedBy(env.consentBroker, consentNonce);
      return asBatchError(() => batches.start({ ...params, ...(confirmed.length > 0 ? { confirmed } : {}) }));
    },
    'batch.get': ({ batchId }) => asBatchError(() => batches.get(batchId)),
    'batch.recording': ({ batchId, index, ...request }) =>
      asBatchError(() => {
        const row = batches.get(batchId).rows[index];
        if (!row) throw new BridgeMethodError('not_found', `Batch ${batchId} has no session ${index}.`, '/index');
        if (row.status !== 'done')
          throw new BridgeMethodError(
            'not_ready',
            `Session ${row.key ?? row.sessionId} has no recording (${row.status}${row.error ? `: ${row.error}` : ''}).`,
            '/index',
          );
        return pages.answer(`${batchId}#${index}`, () => batches.recording(batchId, index), request);
      }),
    'batch.cancel': ({ batchId }) => asBatchError(() => ({ cancelled: batches.cancel(batchId) })),
  };
}
