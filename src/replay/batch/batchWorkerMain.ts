/**
 * A batch pool worker (a worker thread; started by batchPool.ts, never imported): replays the jobs it is sent one
 * at a time and answers each with its row. `cancel` aborts the job running now (its row says so).
 */
import { parentPort } from 'node:worker_threads';
import { runBatchJob } from './runBatchJob';
import type { ToWorker, FromWorker } from './batchProtocol';

const port = parentPort;
if (!port) {
  process.stderr.write('batchWorkerMain runs as a worker thread of a ContextScope batch (batchPool.ts).\n');
  process.exitCode = 2;
} else {
  let controller: AbortController | null = null;
  port.on('message', (message: ToWorker) => {
    if (message.type === 'cancel') {
      controller?.abort();
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    void runBatchJob(message.job, message.request, signal).then((row) => {
      const reply: FromWorker = { type: 'row', row };
      port.postMessage(reply);
    });
  });
  const ready: FromWorker = { type: 'ready' };
  port.postMessage(ready);
}
