/** Sessions real OpenClaw wrote into its SQLite agent database (2026.8 and later), replayed by ContextScope. */
import { describe } from 'vitest';
import { isSqliteRelease, itReplaysAsOpenClawDid, recordedFixtures } from './recordedFixtures';
import { useSourceEngineHost } from '../unit/builtApp';

// the TypeScript source host (a gap of the built host to close, issue 35's note): on the built, confined host the
// plugin scenarios record no engine calls ("ContextScope (none)")
useSourceEngineHost();

describe('SQLite sessions real OpenClaw wrote, replayed by ContextScope', () => {
  itReplaysAsOpenClawDid(recordedFixtures().filter((f) => isSqliteRelease(f.version)));
});
