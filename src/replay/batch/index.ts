/** Public API of src/replay/batch: one engine replayed over every session of a state dir on a worker pool. */
export type { BatchJob, BatchLaneFigures, BatchRequest, BatchRow, BatchRowStatus, BatchTotals } from './batchTypes';
export {
  BASELINE_SPEC,
  planBatch,
  planBatchLanes,
  safeFileStem,
  type BatchLanePlan,
  type BatchPlan,
} from './planBatch';
export { summarizeRecording, type RecordingSummary } from './summarizeRecording';
export { batchTotals } from './batchTotals';
export { formatBatchTable, savedText, shownLanes } from './formatBatchTable';
export { failedRow, pendingRow, runBatchJob } from './runBatchJob';
export { CANCELLED_BEFORE_START, defaultWorkerCount, runBatchPool, type BatchPoolOptions } from './batchPool';
export { BUILT_BATCH_WORKER_FILE, resolveBatchWorkerEntry } from './workerEntry';
export { planStateDir, runBatch, type BatchResult } from './runBatch';
export {
  BatchNotFoundError,
  createBatchService,
  type BatchService,
  type BatchServiceOptions,
  type BatchSnapshot,
  type BatchStatus,
  type StartBatchRequest,
} from './batchService';
