// Reads vitest's JSON report and prints a breakdown, then ONE plain last line: "N passed, N failed".
// A test file that failed to load (no test inside failed, yet the file did) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const reportPath = process.argv[2] ?? 'test-results/vitest.json';
if (!existsSync(reportPath)) {
  console.log(`No vitest report at ${reportPath} (vitest did not finish).`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const groups = new Map();
const group = (file) => {
  const relative = path.relative(process.cwd(), file).split(path.sep).join('/');
  if (relative.startsWith('test/e2e/') || relative.startsWith('test/electron/')) return 'e2e (Chromium / Electron)';
  if (relative.startsWith('test/renderer/')) return 'renderer (jsdom)';
  return 'node (src/, main/)';
};

for (const file of report.testResults ?? []) {
  const name = group(file.name);
  const counts = groups.get(name) ?? { passed: 0, failed: 0, skipped: 0, first: Infinity, last: 0, fileMs: 0 };
  // the projects run side by side: a project's time is from its first file's start to its last file's end
  if (file.startTime && file.endTime) {
    counts.first = Math.min(counts.first, file.startTime);
    counts.last = Math.max(counts.last, file.endTime);
    counts.fileMs += file.endTime - file.startTime;
  }
  let failedInside = 0;
  for (const assertion of file.assertionResults ?? []) {
    if (assertion.status === 'passed') counts.passed += 1;
    else if (assertion.status === 'failed') {
      counts.failed += 1;
      failedInside += 1;
    } else counts.skipped += 1;
  }
  if (file.status === 'failed' && failedInside === 0) {
    counts.failed += 1;
    console.log(`FAILED TO RUN: ${path.relative(process.cwd(), file.name)}: ${(file.message ?? '').split('\n')[0]}`);
  }
  groups.set(name, counts);
}

let passed = 0;
let failed = 0;
for (const [name, counts] of groups) {
  const span = counts.last > counts.first ? `${((counts.last - counts.first) / 1000).toFixed(0)} s` : 'no time';
  const files = `${(counts.fileMs / 1000).toFixed(0)} s`;
  console.log(
    `${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped; ${span} from its first file's start to its last's end (${files} of file time)`,
  );
  passed += counts.passed;
  failed += counts.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || report.success === false ? 1 : 0);
