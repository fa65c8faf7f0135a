// openclaw/plugin-sdk/session-transcript-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk)
  throw new Error('openclaw/plugin-sdk/session-transcript-runtime is only available inside a ContextScope engine host');
export const {
  readVisibleSessionTranscriptMessageEntries,
  readSessionTranscriptVisibleMessageDelta,
  readSessionTranscriptRawDelta,
  readSessionTranscriptEvents,
  resolveSessionTranscriptIdentity,
  resolveSessionTranscriptTarget,
  formatSessionTranscriptMemoryHitKey,
  parseSessionTranscriptMemoryHitKey,
} = sdk.sessionTranscriptRuntime;
export default sdk.sessionTranscriptRuntime;
