/** Sessions real OpenClaw wrote as JSONL transcripts (releases before 2026.8), replayed by ContextScope. */
import { describe } from 'vitest';
import { isSqliteRelease, itReplaysAsOpenClawDid, recordedFixtures } from './recordedFixtures';
describe('JSONL sessions real OpenClaw wrote, replayed by ContextScope', () => {
  itReplaysAsOpenClawDid(recordedFixtures().filter((f) => !isSqliteRelease(f.version)));
});
