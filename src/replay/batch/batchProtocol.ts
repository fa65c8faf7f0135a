/** The messages between a batch pool and its workers (structured clone over a worker thread's port). */
import type { BatchJob, BatchRequest, BatchRow } from './batchTypes';

export type ToWorker = { type: 'job'; job: BatchJob; request: BatchRequest } | { type: 'cancel' };

export type FromWorker = { type: 'ready' } | { type: 'row'; row: BatchRow };
