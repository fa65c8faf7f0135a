// bootstrap(): imports what was appended to the session transcript since the last bootstrap of that file (all of
// it the first time), then compacts past the threshold.

import { errorText } from './engineContext.ts';
import type { EngineContext } from './engineContext.ts';
import { readTranscriptMessages, transcriptExists } from './readTranscriptMessages.ts';
import type { TranscriptCursor } from './readTranscriptMessages.ts';
import { compactAfterIngest } from './thresholdCompaction.ts';
import type { BootstrapParams, BootstrapResult } from './types.ts';

function sameCursor(a: TranscriptCursor | undefined, b: TranscriptCursor): boolean {
  return (
    a !== undefined &&
    a.file === b.file &&
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.offset === b.offset &&
    a.headHash === b.headHash &&
    a.leafId === b.leafId &&
    a.entryCount === b.entryCount &&
    a.everyEntryHasId === b.everyEntryHasId
  );
}

export async function bootstrapSession(ctx: EngineContext, params: BootstrapParams): Promise<BootstrapResult> {
  const { store, logger } = ctx;
  const file = params.sessionFile;
  if (typeof file !== 'string' || file === '') return { bootstrapped: false, reason: 'no sessionFile was given' };
  if (!transcriptExists(file)) return { bootstrapped: false, reason: `no transcript at ${file}` };
  return store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    let read;
    try {
      // Only what was appended since the last bootstrap of this file (everything on the first one).
      read = await readTranscriptMessages(file, tree.transcript);
    } catch (error) {
      return { bootstrapped: false, reason: `could not read ${file}: ${errorText(error)}` };
    }
    if (read.skippedLines > 0) {
      logger.warn(`summary-tree: ${file}: skipped ${read.skippedLines} line(s) that are not JSON.`);
    }
    logger.debug?.(
      `summary-tree: ${file}: ${read.mode === 'full' ? 'read the whole file' : 'read the appended part'}, ` +
        `${read.bytesRead} byte(s) from offset ${read.mode === 'full' ? 0 : (tree.transcript?.offset ?? 0)}` +
        `${read.restartReason ? ` (${read.restartReason})` : ''}.`,
    );
    if (!sameCursor(tree.transcript, read.cursor)) tree.setTranscriptCursor(read.cursor);
    let imported = 0;
    for (const message of read.messages) if (tree.append(message, false)) imported++;
    await compactAfterIngest(
      ctx,
      tree,
      {
        tokenBudget: ctx.budgetFrom(params.runtimeContext?.tokenBudget),
        force: false,
        runtimeContext: params.runtimeContext,
      },
      'bootstrap',
    );
    await store.save(tree);
    return { bootstrapped: true, importedMessages: imported };
  });
}
