import { describe, expect, it } from 'vitest';
import {
  capCompactionSummary,
  composeCompactionSummary,
  extractLatestUserRequest,
  formatFileOperations,
  SUMMARY_TRUNCATED_MARKER,
  TURN_CONTEXT_PREFIX,
} from '../../../src/engines/legacy';
import { assistantText, user } from './helpers';

describe('compaction summary layout', () => {
  it('orders request block, history, split-turn context and file lists', () => {
    const summary = composeCompactionSummary({
      historySummary: 'HISTORY',
      turnPrefixSummary: 'PREFIX',
      fileOperations: formatFileOperations(['r.ts'], ['m.ts']),
      latestUnresolvedUserRequest: 'do "it"',
    });
    expect(summary).toBe(
      `## Latest unresolved user request\n"do \\"it\\""\n\nHISTORY${TURN_CONTEXT_PREFIX}PREFIX\n\n<read-files>\nr.ts\n</read-files>\n\n<modified-files>\nm.ts\n</modified-files>`,
    );
  });

  it('capCompactionSummary keeps the preserved suffix after the marker', () => {
    const capped = capCompactionSummary(`${'a'.repeat(100)}SUFFIX`, 60, 'SUFFIX');
    expect(capped).toBe(`${'a'.repeat(60 - SUMMARY_TRUNCATED_MARKER.length - 6)}${SUMMARY_TRUNCATED_MARKER}SUFFIX`);
    expect(capped.length).toBe(60);
    expect(capCompactionSummary('short', 60)).toBe('short');
  });

  it('caps the latest user request at 800 chars as head + marker + tail', () => {
    const long = `HEAD${'m'.repeat(2000)}TAIL`;
    const request = extractLatestUserRequest([user(long), assistantText('ok')])!;
    expect(request.length).toBe(800);
    expect(request.startsWith('HEAD')).toBe(true);
    expect(request.endsWith('TAIL')).toBe(true);
    expect(request).toContain('\n[... latest user request truncated ...]\n');
    expect(extractLatestUserRequest([assistantText('no user')])).toBeUndefined();
  });

  it('file lists overflow into "...and N more" within 900 chars', () => {
    const files = Array.from({ length: 200 }, (_, i) => `src/module-${String(i).padStart(3, '0')}.ts`);
    const block = formatFileOperations(files, []);
    expect(block.length).toBeLessThanOrEqual(2 + 900);
    expect(block).toMatch(/\n\.\.\.and \d+ more\n<\/read-files>$/);
    expect(formatFileOperations([], [])).toBe('');
  });
});
