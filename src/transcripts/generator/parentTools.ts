/**
 * The parent session being generated (its simulator, text source and running notes) and its tool calls: which
 * tool a round calls, and the result each tool records. Every random draw happens in a fixed order, so a seed
 * always gives the same transcript.
 */
import type { ToolCall } from '../../contract';
import { commandRun, fileContent, thinkingText, webSearchResult } from './corpus';
import type { PendingChild } from './generatedTypes';
import type { Prng } from './prng';
import type { SessionSimulator } from './sessionSimulator';

export interface ParentContext {
  sim: SessionSimulator;
  textRng: Prng;
  imageData: string[];
  images: boolean;
  imageTurns: Set<number>;
  cwd: string;
  agentId: string;
  spawnCount: number;
  readFiles: Set<string>;
  modifiedFiles: Set<string>;
  doneLines: string[];
  firstRequest: string;
  lastRequest: string;
  failedSpawns: number;
  children: PendingChild[];
}

export const SCREENSHOT_PATH = 'docs/screenshots/checkout.png';

export function toolCallId(ctx: ParentContext): string {
  const { sim } = ctx;
  return sim.model.provider === 'anthropic' ? `toolu_01${sim.rng.base62(22)}` : `call_${sim.rng.base62(24)}`;
}

function readTool(ctx: ParentContext, call: ToolCall, path: string): void {
  const { sim, textRng } = ctx;
  ctx.readFiles.add(path);
  if (path.endsWith('.png')) {
    sim.toolResult(
      call,
      [
        { type: 'text', text: `Read image file [image/png]` },
        { type: 'image', data: sim.rng.pick(ctx.imageData), mimeType: 'image/png' },
      ],
      false,
    );
  } else {
    sim.toolResult(call, [{ type: 'text', text: fileContent(textRng, path, sim.rng.int(20, 90)) }], false);
  }
}

function execTool(ctx: ParentContext, call: ToolCall, path: string): void {
  const { sim } = ctx;
  const run = commandRun(ctx.textRng, path);
  call.arguments = { command: run.command, workdir: ctx.cwd };
  const text =
    (run.output || '(no output)') + (run.exitCode !== 0 ? `\n\n(Command exited with code ${run.exitCode})` : '');
  sim.toolResult(call, [{ type: 'text', text }], false, {
    status: 'completed',
    exitCode: run.exitCode,
    durationMs: sim.rng.int(300, 24000),
    cwd: ctx.cwd,
  });
}

function editTool(ctx: ParentContext, call: ToolCall, path: string): void {
  const { sim } = ctx;
  const r = sim.rng;
  if (r.chance(0.06)) {
    const text = `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`;
    sim.toolResult(call, [{ type: 'text', text }], true);
    return;
  }
  ctx.modifiedFiles.add(path);
  const diff = `--- ${path}\n+++ ${path}\n@@ -${r.int(10, 200)},3 +${r.int(10, 200)},4 @@\n-${String(call.arguments.oldText)}\n+${String(call.arguments.newText)}`;
  sim.toolResult(call, [{ type: 'text', text: `Successfully replaced text in ${path}.` }], false, { diff });
}

/** Records the result of one tool call made on `path`. */
export function runTool(ctx: ParentContext, call: ToolCall, path: string): void {
  switch (call.name) {
    case 'read':
      return readTool(ctx, call, path);
    case 'exec':
      return execTool(ctx, call, path);
    case 'edit':
      return editTool(ctx, call, path);
    case 'write': {
      ctx.modifiedFiles.add(path);
      const text = `Successfully wrote ${String(call.arguments.content).length} bytes to ${path}`;
      ctx.sim.toolResult(call, [{ type: 'text', text }], false);
      return;
    }
    case 'web_search': {
      const text = webSearchResult(ctx.textRng, String(call.arguments.query));
      ctx.sim.toolResult(call, [{ type: 'text', text }], false);
      return;
    }
  }
}

/** The tool a round calls on `path` (read 38 %, exec 34 %, edit 16 %, write 7 %, web_search 5 %). */
export function makeCall(ctx: ParentContext, path: string): ToolCall {
  const { sim, textRng } = ctx;
  const r = sim.rng;
  const roll = r.next();
  const id = toolCallId(ctx);
  if (roll < 0.38) return { type: 'toolCall', id, name: 'read', arguments: { path } };
  if (roll < 0.72) return { type: 'toolCall', id, name: 'exec', arguments: { command: '' } };
  if (roll < 0.88) {
    const oldText = fileContent(textRng, path, 3).replace(/^\s*\d+\t/gm, '');
    const newText = `${oldText}\n  // handled: release the connection on the error path`;
    return { type: 'toolCall', id, name: 'edit', arguments: { path, oldText, newText } };
  }
  if (roll < 0.95) {
    const content = fileContent(textRng, path, r.int(15, 50)).replace(/^\s*\d+\t/gm, '');
    return { type: 'toolCall', id, name: 'write', arguments: { path, content } };
  }
  const topic = r.pick(['pool release on error', 'serialization failure retry', 'idle timeout']);
  return { type: 'toolCall', id, name: 'web_search', arguments: { query: `node-postgres ${topic}`, count: 5 } };
}

/** A thinking block for Anthropic models while thinking is on. */
export function thinkingBlock(ctx: ParentContext, path: string) {
  const { sim } = ctx;
  return sim.thinkingLevel !== 'off' && sim.model.provider === 'anthropic'
    ? [{ type: 'thinking' as const, thinking: thinkingText(ctx.textRng, path), thinkingSignature: sim.rng.base62(64) }]
    : [];
}
