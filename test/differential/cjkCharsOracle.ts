/**
 * `npx tsx test/differential/cjkCharsOracle.ts`: OpenClaw's own `estimateStringChars` (the cjk-chars chunk of the
 * installed 2026.6.11, 2026.7.35 and 2026.9.6 dists, `ensureOpenClaw`) against src/tokens/estimateStringChars.ts's
 * `basic`, `fullwidth` and `tiered` forms, on strings from every weight class. Exits 1 on any difference. Run after
 * touching the counting (the CI has no OpenClaw install: tokens/estimators.test.ts keeps the figures this printed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { estimateStringChars, type CjkCounting } from '../../src/tokens';
import { ensureOpenClaw } from './openclawInstall';

const FORMS: { version: string; counting: CjkCounting }[] = [
  { version: '2026.6.11', counting: 'basic' },
  { version: '2026.7.35', counting: 'fullwidth' },
  { version: '2026.9.6', counting: 'tiered' },
];
const SAMPLES = [
  '，',
  '\u{20000}',
  '\u2E80',
  '\uFF71',
  '\u00B7',
  '😀你',
  '河流从山丘流向大海，塑造了山谷和城镇。',
  'ｈｅｌｌｏ　世界！',
  'ㄱㅏ가\u1100',
  'abc',
  '\u{1D360}\u{16FE0}\uFE10\u02C7\u0305',
  '한국어 텍스트',
  'カタカナ ﾊﾝｶｸ',
];

/** The chunk's `estimateStringChars`: the exported function that counts "，" (the only one the chunk exports). */
async function openclawCount(version: string): Promise<(text: string) => number> {
  const dist = path.join(ensureOpenClaw(version, console.log).dir, 'node_modules/openclaw/dist');
  const chunk = fs.readdirSync(dist).find((f) => f.startsWith('cjk-chars-') && /\.m?js$/.test(f));
  if (!chunk) throw new Error(`no cjk-chars chunk in ${dist}`);
  const module = (await import(pathToFileURL(path.join(dist, chunk)).href)) as Record<string, unknown>;
  const candidates = Object.values(module).filter(
    (value): value is (text: string) => number => typeof value === 'function' && value.length === 1,
  );
  const counter = candidates.find((fn) => fn('abc') === 3 && fn('你') >= 4);
  if (!counter) throw new Error(`no estimateStringChars among the exports of ${chunk}`);
  return counter;
}

let differences = 0;
for (const { version, counting } of FORMS) {
  const count = await openclawCount(version);
  for (const sample of SAMPLES) {
    const [theirs, ours] = [count(sample), estimateStringChars(sample, counting)];
    if (theirs !== ours) differences++;
    console.log(
      `${theirs === ours ? 'ok ' : 'BAD'} ${version} ${counting.padEnd(9)} ${JSON.stringify(sample)}: OpenClaw ${theirs}, ContextScope ${ours}`,
    );
  }
}
console.log(`${differences} differences`);
process.exit(differences === 0 ? 0 : 1);
