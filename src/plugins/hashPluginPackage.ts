/**
 * The content hash consent is bound to: the manifest, package.json, and the folder tree of every entry file
 * (node_modules and dot-folders excluded). Files are hashed in path order up to a size cap; past the cap a
 * file contributes only its path and size, so a huge bundled asset cannot make consent checks slow.
 * Symlinks contribute their target text and are not followed.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export interface HashablePlugin {
  rootDir: string;
  manifestPath: string;
  packageJsonPath?: string;
  entries: { file: string }[];
}

export interface PackageHashOptions {
  /** bytes read in full before switching to path+size (default 16 MiB) */
  maxBytes?: number;
  /** files considered at most (default 5000) */
  maxFiles?: number;
}

const SKIP_DIRS = new Set(['node_modules', '.git']);

function walk(dir: string, out: Set<string>, maxFiles: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (out.size >= maxFiles) return;
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) walk(path, out, maxFiles);
    else out.add(path);
  }
}

export function hashPluginPackage(plugin: HashablePlugin, options: PackageHashOptions = {}): string {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxFiles = options.maxFiles ?? 5000;
  const files = new Set<string>();
  if (existsSync(plugin.manifestPath)) files.add(plugin.manifestPath);
  const pkg = plugin.packageJsonPath ?? join(plugin.rootDir, 'package.json');
  if (existsSync(pkg)) files.add(pkg);
  for (const entry of plugin.entries) {
    files.add(entry.file);
    walk(dirname(entry.file), files, maxFiles);
  }
  const hash = createHash('sha256');
  let budget = maxBytes;
  const toKey = (file: string) => relative(plugin.rootDir, file).split(sep).join('/');
  for (const file of [...files].sort((a, b) => (toKey(a) < toKey(b) ? -1 : toKey(a) > toKey(b) ? 1 : 0))) {
    let stat;
    try {
      stat = lstatSync(file);
    } catch {
      hash.update(`${toKey(file)}\0missing\n`);
      continue;
    }
    if (stat.isSymbolicLink()) {
      hash.update(`${toKey(file)}\0link:${readlinkSync(file)}\n`);
      continue;
    }
    if (stat.size <= budget) {
      budget -= stat.size;
      hash.update(`${toKey(file)}\0${createHash('sha256').update(readFileSync(file)).digest('hex')}\n`);
    } else {
      hash.update(`${toKey(file)}\0size:${stat.size}\n`);
    }
  }
  return hash.digest('hex');
}
