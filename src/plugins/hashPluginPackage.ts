/**
 * What consent is bound to: every file under the plugin's real root — node_modules and dot-folders included, `.git`
 * excepted — and, for a symlink that points out of the package, the file or folder it points to. Each file counts
 * with its path and the sha256 of its bytes; the package hash is the sha256 over those lines in path order.
 * The snapshot also lists each covered file's real path with its digest: the engine host loads no module that is
 * not among them with that content (host/moduleCoverage.ts), so a file the hash did not see — past the caps, in
 * `.git`, or outside the package (a parent folder's node_modules, an absolute path) — cannot run.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export interface HashablePlugin {
  rootDir: string;
  manifestPath: string;
  packageJsonPath?: string;
  entries: { file: string }[];
}

export interface PackageHashOptions {
  /** bytes hashed at most; files past it are left out (and so cannot be loaded) (default 256 MiB) */
  maxBytes?: number;
  /** files hashed at most (default 20 000) */
  maxFiles?: number;
}

export interface PackageSnapshot {
  /** the package hash consent is remembered with */
  hash: string;
  /** real path of every covered file → sha256 (hex) of its bytes */
  files: Record<string, string>;
  fileCount: number;
  bytes: number;
  /** why some files were left out (a cap was reached), when they were */
  truncated?: string;
  /**
   * the real paths of the files and folders that symbolic links out of the package point to (their covered files
   * are in `files`); the engine host may read them (host/hostPermissions.ts)
   */
  linkedTargets?: string[];
}

/** Folders never hashed: their files are not covered, so the engine host refuses to load them. */
const SKIP_DIRS = new Set(['.git']);
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_MAX_FILES = 20_000;

// digests by file identity: a rewrite changes ctime (which no program can set back), so a hit is the same bytes
const digestCache = new Map<string, string>();
const MAX_CACHED_DIGESTS = 50_000;

function digestOf(file: string, stat: Stats): string {
  const key = `${file}\0${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  const cached = digestCache.get(key);
  if (cached) return cached;
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (digestCache.size >= MAX_CACHED_DIGESTS) digestCache.clear();
  digestCache.set(key, digest);
  return digest;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

class PackageWalk {
  readonly lines: string[] = [];
  readonly files: Record<string, string> = {};
  readonly linkedTargets: string[] = [];
  fileCount = 0;
  bytes = 0;
  truncated: string | undefined;
  /** real folders already walked (a symlink loop or two links to one folder are walked once) */
  private readonly seenDirs = new Set<string>();

  constructor(
    private readonly realRoot: string,
    private readonly maxFiles: number,
    private readonly maxBytes: number,
  ) {}

  /** `key` is the package-relative path the file is reached by; `real` where its bytes are. */
  walkDir(real: string, key: string): void {
    if (this.seenDirs.has(real)) return;
    this.seenDirs.add(real);
    let names: string[];
    try {
      names = readdirSync(real).sort();
    } catch {
      this.lines.push(`${key}/\0unreadable`);
      return;
    }
    for (const name of names) {
      if (this.truncated) return;
      if (SKIP_DIRS.has(name)) continue;
      this.visit(join(real, name), key === '' ? name : `${key}/${name}`);
    }
  }

  private visit(path: string, key: string): void {
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      return;
    }
    if (stat.isSymbolicLink()) this.visitLink(path, key);
    else if (stat.isDirectory()) this.walkDir(path, key);
    else if (stat.isFile()) this.addFile(path, key, stat);
  }

  /** A link inside the package is its text (its target is hashed where it lies); one out of it is its target. */
  private visitLink(path: string, key: string): void {
    const text = readlinkSync(path);
    let target: string;
    try {
      target = realpathSync(path);
    } catch {
      this.lines.push(`${key}\0dangling-link:${text}`);
      return;
    }
    if (isInside(this.realRoot, target)) {
      this.lines.push(`${key}\0link:${text}`);
      return;
    }
    this.lines.push(`${key}\0outside-link:${target}`);
    if (!this.linkedTargets.includes(target)) this.linkedTargets.push(target);
    const stat = statSync(target);
    if (stat.isDirectory()) this.walkDir(target, key);
    else if (stat.isFile()) this.addFile(target, key, stat);
  }

  private addFile(real: string, key: string, stat: Stats): void {
    if (this.fileCount >= this.maxFiles || this.bytes + stat.size > this.maxBytes) {
      this.truncated = `the package has more than ${this.fileCount >= this.maxFiles ? `${this.maxFiles} files` : `${this.maxBytes} bytes`}; files from ${key} on are not covered and cannot be loaded`;
      this.lines.push(`\0truncated`);
      return;
    }
    let digest: string;
    try {
      digest = digestOf(real, stat);
    } catch {
      this.lines.push(`${key}\0unreadable`);
      return;
    }
    this.fileCount++;
    this.bytes += stat.size;
    this.lines.push(`${key}\0${digest}`);
    this.files[real] = digest;
  }
}

function realRootOf(rootDir: string): string {
  try {
    return realpathSync(rootDir);
  } catch {
    return rootDir;
  }
}

/** The covered files of a plugin package and the hash consent is bound to. */
export function snapshotPluginPackage(plugin: HashablePlugin, options: PackageHashOptions = {}): PackageSnapshot {
  const realRoot = realRootOf(plugin.rootDir);
  const walk = new PackageWalk(realRoot, options.maxFiles ?? DEFAULT_MAX_FILES, options.maxBytes ?? DEFAULT_MAX_BYTES);
  walk.walkDir(realRoot, '');
  const hash = createHash('sha256');
  for (const line of walk.lines) hash.update(`${line}\n`);
  return {
    hash: hash.digest('hex'),
    files: walk.files,
    fileCount: walk.fileCount,
    bytes: walk.bytes,
    ...(walk.truncated ? { truncated: walk.truncated } : {}),
    ...(walk.linkedTargets.length > 0 ? { linkedTargets: walk.linkedTargets } : {}),
  };
}

/** The package hash alone (see snapshotPluginPackage). */
export function hashPluginPackage(plugin: HashablePlugin, options: PackageHashOptions = {}): string {
  return snapshotPluginPackage(plugin, options).hash;
}
