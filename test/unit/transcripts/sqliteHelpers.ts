/** Shared by the SQLite transcript tests: temp state dirs, a file-tree fingerprint, and a real writer process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export const FIXTURE_STATE_DIR = resolve(import.meta.dirname, '../../fixtures/sqlite/openclaw-2026.9.6');
export const FIXTURE_DB = join(FIXTURE_STATE_DIR, 'agents/main/agent/openclaw-agent.sqlite');

export const tmp = (prefix = 'cs-sqlite-') => mkdtempSync(join(tmpdir(), prefix));

/** Every file under `dir` with its size, mtime and sha256: equal fingerprints = nothing was changed or added. */
export function treeFingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const st = statSync(path);
        const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
        out[relative(dir, path)] = `${st.size}:${st.mtimeMs}:${sha}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** The better-sqlite3 the project uses (for tests that change a database on purpose). */
export function betterSqlite(): new (
  path: string,
  options?: Record<string, unknown>,
) => {
  prepare(sql: string): {
    run(...a: unknown[]): unknown;
    get(...a: unknown[]): unknown;
    all(...a: unknown[]): unknown[];
  };
  exec(sql: string): unknown;
  pragma(sql: string): unknown;
  close(): unknown;
} {
  return createRequire(import.meta.url)('better-sqlite3');
}

const WRITER = `
const [modulePath, db, sessionId, firstParent, count, delayMs, checkpoint] = process.argv.slice(2);
const Database = require(modulePath);
process.stdout.on('error', () => process.exit(0));
const conn = new Database(db);
conn.pragma('journal_mode = WAL');
conn.pragma(checkpoint === 'never' ? 'wal_autocheckpoint = 0' : 'wal_autocheckpoint = 4');
const maxSeq = conn.prepare('SELECT max(seq) AS s FROM transcript_events WHERE session_id = ?').get(sessionId).s;
const insert = conn.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, ?, ?, ?, ?)');
let parent = firstParent;
let k = 0;
const pad = 'x'.repeat(3000);
function tick() {
  k += 1;
  const id = 'tick' + String(k).padStart(4, '0');
  const ts = new Date(Date.UTC(2026, 2, 3, 0, 0, k)).toISOString();
  const json = JSON.stringify({ type: 'custom', id, parentId: parent, timestamp: ts, customType: 'tick', data: { k, pad } });
  conn.transaction(() => insert.run(sessionId, maxSeq + k, json, Date.parse(ts), Buffer.byteLength(json)))();
  parent = id;
  process.stdout.write('committed ' + k + '\\n');
  if (k < Number(count)) setTimeout(tick, Number(delayMs));
  else process.stdout.write('done\\n');
}
tick();
setInterval(() => {}, 1000);
`;

export interface WriterProcess {
  child: ChildProcess;
  /** resolves when the writer reports `committed n` */
  committed(n: number): Promise<void>;
  /** the last commit reported */
  last(): number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * A real second process holding the database open in WAL mode and appending `custom` entries (3 KB each, a
 * chain from `firstParent`) every `delayMs`; `checkpoint: 'never'` keeps every commit in the -wal file.
 */
export function startWriter(
  db: string,
  sessionId: string,
  firstParent: string,
  options: { count: number; delayMs: number; checkpoint: 'often' | 'never' },
): WriterProcess {
  const script = join(tmp('cs-writer-'), 'writer.cjs');
  writeFileSync(script, WRITER);
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const args = [
    script,
    modulePath,
    db,
    sessionId,
    firstParent,
    String(options.count),
    String(options.delayMs),
    options.checkpoint,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let last = 0;
  const waiters: { n: number; done: () => void }[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      const m = /^committed (\d+)$/.exec(line);
      if (m) last = Number(m[1]);
      for (const w of waiters.filter((x) => x.n <= last)) w.done();
    }
  });
  return {
    child,
    committed: (n) => (n <= last ? Promise.resolve() : new Promise((done) => waiters.push({ n, done }))),
    last: () => last,
    kill: (signal = 'SIGTERM') =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
  };
}
