/** Sessions real OpenClaw wrote as JSONL transcripts (releases before 2026.8), replayed by ContextScope. */
import { describe } from 'vitest';
import { isSqliteRelease, itReplaysAsOpenClawDid, recordedFixtures } from './recordedFixtures';
import { useSourceEngineHost } from '../unit/builtApp';

// the TypeScript source host (a gap of the built host to close, issue 35's note): on the built, confined host the
// plugin scenarios record no engine calls ("ContextScope (none)")
useSourceEngineHost();

describe('JSONL sessions real OpenClaw wrote, replayed by ContextScope', () => {
  itReplaysAsOpenClawDid(recordedFixtures().filter((f) => !isSqliteRelease(f.version)));
});
