/** Sessions real OpenClaw wrote into its SQLite agent database (2026.8 and later), replayed by ContextScope. */
import { describe } from 'vitest';
import { isSqliteRelease, itReplaysAsOpenClawDid, recordedFixtures } from './recordedFixtures';
describe('SQLite sessions real OpenClaw wrote, replayed by ContextScope', () => {
  itReplaysAsOpenClawDid(recordedFixtures().filter((f) => isSqliteRelease(f.version)));
});
