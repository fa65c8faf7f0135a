/**
 * Files the compacted history read or changed (harness compaction `utils.ts`, behaviour §3.3 step 6): `read`, `write`
 * and `edit` tool calls (`path` / `file_path` / `filePath` argument; MCP-style `server__read` names count too) and
 * `apply_patch` results that report added/modified files. Lists carry over from the previous compaction's details.
 */
import { asRecord } from '../../common/guards';
import type { AgentMessage } from '../../contract';

export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

function normalizeToolName(value: unknown): string {
  const name = typeof value === 'string' ? value.toLowerCase() : '';
  const separator = name.indexOf('__', name.startsWith('mcp__') ? 5 : 0);
  return separator < 0 ? name : name.slice(separator + 2);
}

function addPaths(target: Set<string>, value: unknown): void {
  if (!Array.isArray(value)) return;
  for (const path of value) if (typeof path === 'string') target.add(path);
}

/** Restores the lists a previous compaction recorded (modified files count as edited). */
export function mergeRecordedFileLists(
  ops: FileOperations,
  details: { readFiles?: unknown; modifiedFiles?: unknown },
): void {
  addPaths(ops.read, details.readFiles);
  addPaths(ops.edited, details.modifiedFiles);
}

export function extractFileOpsFromMessage(message: AgentMessage, ops: FileOperations): void {
  if (message.role === 'toolResult') {
    if (normalizeToolName(message.toolName) !== 'apply_patch') return;
    for (const carrier of [message, ...(Array.isArray(message.content) ? message.content : [])]) {
      const summary = asRecord(asRecord(asRecord(carrier)?.details)?.summary);
      addPaths(ops.written, summary?.added);
      addPaths(ops.edited, summary?.modified);
    }
    return;
  }
  if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue;
    const args = asRecord(block.arguments);
    const path = [args?.path, args?.file_path, args?.filePath].find((v): v is string => typeof v === 'string');
    if (!path) continue;
    switch (normalizeToolName(block.name)) {
      case 'read':
        ops.read.add(path);
        break;
      case 'write':
        ops.written.add(path);
        break;
      case 'edit':
        ops.edited.add(path);
        break;
    }
  }
}

/** Sorted lists: files only read, and files written or edited. */
export function computeFileLists(ops: FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = new Set([...ops.edited, ...ops.written]);
  return {
    readFiles: [...ops.read].filter((f) => !modified.has(f)).sort(),
    modifiedFiles: [...modified].sort(),
  };
}

/** Each list block is capped at this many chars; the overflow collapses into "...and N more". */
const MAX_FILE_LIST_CHARS = 900;

function formatFileList(tag: string, files: readonly string[]): string {
  if (files.length === 0) return '';
  const open = `<${tag}>\n`;
  const close = `\n</${tag}>`;
  const lines: string[] = [];
  let used = open.length + close.length;
  for (let i = 0; i < files.length; i++) {
    const line = `${files[i]}\n`;
    const remaining = files.length - i - 1;
    const overflowLine = remaining > 0 ? `...and ${remaining} more\n` : '';
    if (used + line.length + overflowLine.length > MAX_FILE_LIST_CHARS) {
      const overflow = `...and ${files.length - i} more\n`;
      if (used + overflow.length <= MAX_FILE_LIST_CHARS) lines.push(overflow);
      break;
    }
    lines.push(line);
    used += line.length;
  }
  return lines.length > 0 ? `${open}${lines.join('').trimEnd()}${close}` : '';
}

/** `\n\n<read-files>\n…\n</read-files>\n\n<modified-files>\n…\n</modified-files>` (empty lists omitted). */
export function formatFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
  const sections = [formatFileList('read-files', readFiles), formatFileList('modified-files', modifiedFiles)].filter(
    Boolean,
  );
  return sections.length > 0 ? `\n\n${sections.join('\n\n')}` : '';
}
