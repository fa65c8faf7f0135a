/**
 * Keeps a collected run as a test fixture (`test/fixtures/openclaw-real/<version>/<scenario>/`): what OpenClaw
 * wrote for the session — the agent database (2026.8+, checkpointed into one file) or the JSONL transcripts (its own
 * and its subagents'), their trajectories and sessions.json (before 2026.8) — plus the scripted model's request log, each turn's `--json` output and
 * the plugin's engine-call log, and `inputs.json` (recordedInputs.ts: what the run depended on, to tell a stale
 * fixture). Nothing else of the state dir (workspace files, memory indexes, logs) is kept.
 *
 * `node --import tsx test/differential/exportFixture.ts <run dir>… ` (a run dir is `<out>/<scenario>/<version>`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteDatabase } from '../../src/transcripts/sqlite';
import { INPUTS_FILE, recordedInputs } from './recordedInputs';
import { readScenario, SCENARIO_DIR } from './scenario';
import type { LoggedRequest } from './scriptedModel';

export const FIXTURE_ROOT = path.resolve(import.meta.dirname, '../fixtures/openclaw-real');
const KEEP = ['engine-calls.jsonl', 'done.json'];
/** trajectory events the comparison does not read and that repeat the system prompt and tools (2026.7 files) */
const DROPPED_EVENTS = new Set(['trace.metadata', 'prompt.submitted']);
/**
 * The session store and every transcript beside it: the run's own session and the child sessions its spawns started
 * (sessions.json names them by an absolute path into the run's folder; the replay finds them by name beside it).
 */
const SESSION_FILES = /^([\w-]+\.(jsonl|trajectory\.jsonl)|sessions\.json)$/;

function copyAgentDatabase(runDir: string, target: string): void {
  const from = path.join(runDir, 'agents/main/agent/openclaw-agent.sqlite');
  if (!fs.existsSync(from)) return;
  const to = path.join(target, 'agents/main/agent/openclaw-agent.sqlite');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  if (fs.existsSync(`${from}-wal`)) fs.copyFileSync(`${from}-wal`, `${to}-wal`);
  const db = openSqliteDatabase(to);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; VACUUM;');
  db.close();
  for (const side of ['-wal', '-shm']) fs.rmSync(`${to}${side}`, { force: true });
}

function jsonLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const writeLines = (file: string, lines: unknown[]) =>
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));

function copySessions(runDir: string, target: string): void {
  const dir = path.join(runDir, 'agents/main/sessions');
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir).filter((n) => SESSION_FILES.test(n))) {
    fs.mkdirSync(path.join(target, 'agents/main/sessions'), { recursive: true });
    const [from, to] = [path.join(dir, name), path.join(target, 'agents/main/sessions', name)];
    if (name.endsWith('.trajectory.jsonl')) {
      writeLines(
        to,
        jsonLines(from).filter((e) => !DROPPED_EVENTS.has(String(e.type))),
      );
    } else fs.copyFileSync(from, to);
  }
}

/**
 * The request log with the tool list and system prompt kept once (in the first request) where later requests repeat
 * them verbatim (`systemSameAsFirst`, `toolsSameAsFirst` say so).
 */
function copyRequests(runDir: string, target: string): void {
  const requests = jsonLines(path.join(runDir, 'requests.jsonl')) as unknown as LoggedRequest[];
  const first = requests[0];
  const systemOf = (r: LoggedRequest | undefined) => JSON.stringify(r?.body.messages.find((m) => m.role === 'system'));
  const trimmed = requests.map((r, i) => {
    if (i === 0 || !first) return r;
    const body = { ...r.body };
    const flags: Record<string, boolean> = {};
    if (JSON.stringify(body.tools) === JSON.stringify(first.body.tools)) {
      delete body.tools;
      flags.toolsSameAsFirst = true;
    }
    if (systemOf(r) === systemOf(first)) {
      body.messages = body.messages.filter((m) => m.role !== 'system');
      flags.systemSameAsFirst = true;
    }
    return { ...r, ...flags, body };
  });
  writeLines(path.join(target, 'requests.jsonl'), trimmed);
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null ? (v as Rec) : {});

/** Each turn's `--json` output cut to what the comparison reads (payload text, error, budget status, usage). */
function copyTurns(runDir: string, target: string): void {
  const turns = JSON.parse(fs.readFileSync(path.join(runDir, 'turns.json'), 'utf8')) as Rec[];
  const cut = turns.map((t) => {
    const output = rec(t.output);
    const meta = rec(output.meta);
    const agentMeta = rec(meta.agentMeta);
    const pick = (o: Rec, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
    return {
      exitCode: t.exitCode,
      ms: t.ms,
      output: {
        payloads: (Array.isArray(output.payloads) ? output.payloads : []).map((p) => ({
          text: String(rec(p).text ?? '').slice(0, 300),
        })),
        meta: {
          ...pick(meta, ['durationMs', 'error']),
          agentMeta: pick(agentMeta, [
            'sessionId',
            'contextTokens',
            'usage',
            'lastCallUsage',
            'contextBudgetStatus',
            'compactionCount',
          ]),
        },
      },
    };
  });
  fs.writeFileSync(path.join(target, 'turns.json'), JSON.stringify(cut, null, 1));
}

export function exportFixture(runDir: string, root = FIXTURE_ROOT): string {
  const done = JSON.parse(fs.readFileSync(path.join(runDir, 'done.json'), 'utf8')) as {
    version: string;
    scenario: string;
  };
  const target = path.join(root, done.version, done.scenario);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const name of KEEP) {
    if (fs.existsSync(path.join(runDir, name))) fs.copyFileSync(path.join(runDir, name), path.join(target, name));
  }
  copyRequests(runDir, target);
  copyTurns(runDir, target);
  copyAgentDatabase(runDir, target);
  copySessions(runDir, target);
  const scenario = readScenario(path.join(SCENARIO_DIR, `${done.scenario}.json`));
  fs.writeFileSync(
    path.join(target, INPUTS_FILE),
    `${JSON.stringify(recordedInputs(scenario, done.version), null, 1)}\n`,
  );
  return target;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const dir of process.argv.slice(2)) console.log(exportFixture(dir));
}
