/** What a change does to openclaw.json: path-level `from → to` of the effective config, and the file's text diff. */
import { createPatch } from 'diff';
import { isRecord } from '../common';
import { sameValue } from './json5Edit';

export interface PathChange {
  path: string[];
  kind: 'added' | 'removed' | 'changed';
  /** absent when added */
  from?: unknown;
  /** absent when removed */
  to?: unknown;
}

/** The leaves that differ between two configs (objects are walked; arrays and values compare whole). */
export function pathChanges(before: unknown, after: unknown, path: string[] = []): PathChange[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const inBefore = Object.prototype.hasOwnProperty.call(before, key) && before[key] !== undefined;
      const inAfter = Object.prototype.hasOwnProperty.call(after, key) && after[key] !== undefined;
      if (inBefore && !inAfter) return [{ path: [...path, key], kind: 'removed' as const, from: before[key] }];
      if (!inBefore && inAfter) return [{ path: [...path, key], kind: 'added' as const, to: after[key] }];
      return pathChanges(before[key], after[key], [...path, key]);
    });
  }
  if (sameValue(before, after)) return [];
  if (before === undefined) return [{ path, kind: 'added', to: after }];
  if (after === undefined) return [{ path, kind: 'removed', from: before }];
  return [{ path, kind: 'changed', from: before, to: after }];
}

/** A unified diff of the file (3 lines of context), '' when the texts are the same. */
export function textDiff(fileName: string, before: string, after: string): string {
  if (before === after) return '';
  return createPatch(fileName, before, after, 'on disk', 'after the change', { context: 3 });
}
