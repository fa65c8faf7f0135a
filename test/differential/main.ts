/**
 * `npm run differential [-- --scenario <id>]… [--version <v>]… [--out <dir>] [--reuse] [--parallel N] [--json <file>]
 * [--record]`: every scenario on every version through real OpenClaw and ContextScope; prints the table, writes the
 * JSON report, exits 1 on an unexplained mismatch. `--record` also keeps each run OpenClaw finished as the fixture
 * `npm test` replays (test/fixtures/openclaw-real/<version>/<scenario>), with the hash of its inputs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTable, passed, runDifferential, VERSIONS } from './differential';
import { exportFixture } from './exportFixture';
import { listScenarios } from './scenario';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true },
    version: { type: 'string', multiple: true },
    out: { type: 'string' },
    json: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    parallel: { type: 'string', default: '2' },
    record: { type: 'boolean', default: false },
  },
});

const all = listScenarios();
const unknown = (values.scenario ?? []).filter((id) => !all.some((s) => s.id === id));
if (unknown.length) {
  console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${all.map((s) => s.id).join(', ')}`);
  process.exit(2);
}
const scenarios = values.scenario?.length ? all.filter((s) => values.scenario!.includes(s.id)) : all;
const outDir = values.out ?? path.join(os.tmpdir(), 'contextscope-differential');
const jsonFile = values.json ?? path.join(outDir, 'differential.json');
const started = Date.now();
const results = await runDifferential(scenarios, {
  outDir,
  versions: values.version?.length ? values.version : VERSIONS,
  reuse: values.reuse,
  parallel: Math.max(1, Number(values.parallel) || 2),
  log: (line) => console.error(line),
});
const wallMs = Date.now() - started;
console.log(formatTable(results));
for (const r of results) {
  for (const d of r.unexpected)
    console.log(
      `  ${r.scenario} ${r.version} turn ${d.turn} ${d.field}: OpenClaw ${d.openclaw} | ContextScope ${d.contextscope}`,
    );
  for (const k of r.missingKnown)
    console.log(`  ${r.scenario} ${r.version} known mismatch ${k} did not happen (remove it from the scenario)`);
}
if (values.record) {
  for (const r of results) {
    const runDir = path.join(outDir, r.scenario, r.version);
    // a run OpenClaw did not finish (install or runner failure) has no done.json and is not a recording
    if (!fs.existsSync(path.join(runDir, 'done.json'))) {
      console.log(`  not recorded: ${r.scenario} ${r.version} (${r.error?.split('\n')[0] ?? 'no finished run'})`);
      continue;
    }
    console.log(`  recorded ${path.relative(process.cwd(), exportFixture(runDir))}`);
  }
}
fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
fs.writeFileSync(jsonFile, JSON.stringify({ wallMs, results }, null, 2));
const ok = passed(results);
console.log(`${ok ? 'PASS' : 'FAIL'}: ${results.length} runs in ${(wallMs / 1000).toFixed(0)} s; report ${jsonFile}`);
process.exit(ok ? 0 : 1);
