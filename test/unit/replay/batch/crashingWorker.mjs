// A stand-in batch worker for the pool test: answers each job with a done row, except the job whose session id
// is "crash", where the thread exits mid-job as a crashing replay would.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.type !== 'job') return;
  const { job } = message;
  if (job.sessionId === 'crash') process.exit(7);
  parentPort.postMessage({
    type: 'row',
    row: {
      index: job.index,
      sessionId: job.sessionId,
      agentId: job.agentId,
      storage: job.storage,
      file: job.file,
      status: 'done',
      lanes: [],
      failing: 0,
      turns: 1,
    },
  });
});
parentPort.postMessage({ type: 'ready' });
