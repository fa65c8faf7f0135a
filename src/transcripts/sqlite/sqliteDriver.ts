/**
 * One small interface over the two SQLite bindings ContextScope can use: `node:sqlite` (Node >= 22.5, Electron 45)
 * and `better-sqlite3` (a native package that builds on Node 20). Both are SQLite itself, synchronous, and return
 * rows as plain objects; this module hides their differences (option names, BLOB types, URI filenames).
 * `CONTEXTSCOPE_SQLITE_DRIVER=better-sqlite3|node:sqlite` forces one (for measurements and tests).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../../common/errorText';

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';
export type SqliteValue = string | number | bigint | Uint8Array | null;
export type SqliteRow = Record<string, SqliteValue>;

export interface SqliteStatement {
  all(...params: SqliteValue[]): SqliteRow[];
  get(...params: SqliteValue[]): SqliteRow | undefined;
  iterate(...params: SqliteValue[]): IterableIterator<SqliteRow>;
  run(...params: SqliteValue[]): void;
}

export interface SqliteDatabase {
  readonly driver: SqliteDriverName;
  readonly path: string;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

export interface OpenSqliteOptions {
  readOnly?: boolean;
  /**
   * Open with SQLite's `immutable=1` (no locks, no -wal/-shm side files, the WAL ignored). Only `node:sqlite`
   * supports it (better-sqlite3 is built without URI filenames); callers check {@link supportsImmutableOpen}.
   */
  immutable?: boolean;
  /** create the file when it does not exist (default false) */
  create?: boolean;
  driver?: SqliteDriverName;
}

interface NativeStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  iterate(...params: unknown[]): IterableIterator<unknown>;
  run(...params: unknown[]): unknown;
}
interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  close(): unknown;
}
type NodeSqliteModule = { DatabaseSync: new (path: string | URL, options?: Record<string, unknown>) => NativeDatabase };
type BetterSqliteConstructor = new (path: string, options?: Record<string, unknown>) => NativeDatabase;

let nodeSqlite: NodeSqliteModule | null | undefined;
let betterSqlite: BetterSqliteConstructor | null | undefined;
let betterSqliteError: string | undefined;

function loadNodeSqlite(): NodeSqliteModule | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  nodeSqlite = (getBuiltin?.call(process, 'node:sqlite') as NodeSqliteModule | undefined) ?? null;
  return nodeSqlite;
}

function loadBetterSqlite(): BetterSqliteConstructor | null {
  if (betterSqlite !== undefined) return betterSqlite;
  try {
    betterSqlite = createRequire(import.meta.url)('better-sqlite3') as BetterSqliteConstructor;
  } catch (error) {
    betterSqlite = null;
    betterSqliteError = errorMessage(error);
  }
  return betterSqlite;
}

/** The drivers this runtime can load, preferred first. */
export function availableSqliteDrivers(): SqliteDriverName[] {
  const names: SqliteDriverName[] = [];
  if (loadNodeSqlite()) names.push('node:sqlite');
  if (loadBetterSqlite()) names.push('better-sqlite3');
  return names;
}

/** The driver {@link openSqliteDatabase} uses by default: the environment's choice, else node:sqlite, else better-sqlite3. */
export function defaultSqliteDriver(env: NodeJS.ProcessEnv = process.env): SqliteDriverName {
  const forced = env.CONTEXTSCOPE_SQLITE_DRIVER;
  if (forced === 'node:sqlite' || forced === 'better-sqlite3') return forced;
  const available = availableSqliteDrivers();
  if (available.length === 0) {
    throw new Error(
      `No SQLite available: this runtime (Node ${process.versions.node}) has no node:sqlite and better-sqlite3 did not load (${betterSqliteError ?? 'unknown error'}). Run npm install, or use Node >= 22.5.`,
    );
  }
  return available[0]!;
}

export function supportsImmutableOpen(driver: SqliteDriverName): boolean {
  return driver === 'node:sqlite';
}

function wrapStatement(statement: NativeStatement, toParam: (v: SqliteValue) => unknown): SqliteStatement {
  const map = (params: SqliteValue[]) => params.map(toParam);
  return {
    all: (...params) => statement.all(...map(params)) as SqliteRow[],
    get: (...params) => statement.get(...map(params)) as SqliteRow | undefined,
    iterate: (...params) => statement.iterate(...map(params)) as IterableIterator<SqliteRow>,
    run: (...params) => void statement.run(...map(params)),
  };
}

function openNative(path: string, driver: SqliteDriverName, options: OpenSqliteOptions): NativeDatabase {
  if (driver === 'node:sqlite') {
    const sqlite = loadNodeSqlite();
    if (!sqlite) throw new Error(`node:sqlite is not available in Node ${process.versions.node} (it needs >= 22.5)`);
    let target: string | URL = path;
    if (options.immutable) {
      target = pathToFileURL(path);
      target.searchParams.set('immutable', '1');
    }
    return new sqlite.DatabaseSync(target, { readOnly: options.readOnly === true || options.immutable === true });
  }
  if (options.immutable) throw new Error('better-sqlite3 cannot open a database immutable (no URI filenames)');
  const Database = loadBetterSqlite();
  if (!Database) throw new Error(`better-sqlite3 did not load (${betterSqliteError ?? 'unknown error'})`);
  return new Database(path, { readonly: options.readOnly === true, fileMustExist: options.create !== true });
}

/** Opens a database with the chosen (or default) driver. Errors name the file. */
export function openSqliteDatabase(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const driver = options.driver ?? defaultSqliteDriver();
  let native: NativeDatabase;
  try {
    native = openNative(path, driver, options);
  } catch (error) {
    throw new Error(`Cannot open SQLite database ${path} (${driver}): ${errorMessage(error)}`, { cause: error });
  }
  // better-sqlite3 binds Buffers, not bare Uint8Arrays; node:sqlite takes both.
  const toParam =
    driver === 'better-sqlite3'
      ? (v: SqliteValue) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v)
      : (v: SqliteValue) => v;
  return {
    driver,
    path,
    prepare: (sql) => wrapStatement(native.prepare(sql), toParam),
    exec: (sql) => void native.exec(sql),
    close: () => void native.close(),
  };
}
