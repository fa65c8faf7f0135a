/**
 * What the replay benchmarks share: the session they replay, the limit (parse the JSONL and tokenize its unique
 * text once: "just loading the session"), the bundled summary-tree engine as an in-process lane, the engine-host
 * entry they start, and peak RSS of child processes (Linux /proc).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContextEngine } from '../src/contract';
import { forkTransport, type EngineHostTransportFactory } from '../src/plugins';
import type { ReplayLaneConfig } from '../src/replay';
import { createTokenCounter, encodingForModel, messageTokenText } from '../src/tokens';
import { buildContextFromPath, getActivePath, readSessionFile } from '../src/transcripts';

export function mb(bytes: number): number {
  return bytes / (1 << 20);
}

export function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

// Engine hosts run the built engine-host.mjs, as in the app and the CLI (bench/run.ts builds when sources changed);
// without a build they run the TypeScript source through tsx, which adds about half a second per host start.
// `--host-entry <file>` measures an engine host bundled elsewhere (its SDK shims are taken from the sources).
const BUILT_HOST = join(import.meta.dirname, '..', 'out', 'node', 'engine-host.mjs');
const HOST_ENTRY_AT = process.argv.indexOf('--host-entry');
export const HOST_ENTRY =
  HOST_ENTRY_AT > 0
    ? {
        entry: process.argv[HOST_ENTRY_AT + 1]!,
        shimDir: join(import.meta.dirname, '..', 'src', 'plugins', 'sdk', 'shims'),
      }
    : existsSync(BUILT_HOST)
      ? { entry: BUILT_HOST }
      : undefined;

/** Process ids of this process's child processes, from /proc (Linux); undefined elsewhere. */
export function childPids(): string[] | undefined {
  try {
    return readdirSync('/proc').filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

/** Peak RSS (VmHWM) of this process's child processes (Linux); undefined elsewhere. */
export function childPeakRssBytes(): number | undefined {
  const pids = childPids();
  if (!pids) return undefined;
  let peak = 0;
  for (const pid of pids) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
    } catch {
      // exited meanwhile
    }
  }
  return peak;
}

/**
 * Waits (up to 3 s) until the child processes started since `before` (engine hosts) have exited, so their CPU time
 * is counted as this process's children's. Older children (tsx's esbuild service) are not waited for.
 */
export async function childrenExited(before: readonly string[]): Promise<void> {
  const started = () => (childPids() ?? []).filter((pid) => !before.includes(pid));
  for (let waited = 0; waited < 3000 && started().length > 0; waited += 20) await new Promise((r) => setTimeout(r, 20));
}

/** The bundled summary-tree engine as an in-process lane engine, its state in `dir` (no engine host, no isolation). */
export async function summaryTreeInProcess(dir: string): Promise<ReplayLaneConfig['engine']> {
  const source = join(import.meta.dirname, '..', 'resources', 'plugins', 'summary-tree', 'src');
  // the plugin's own .ts-extension imports are outside the project's typecheck: loaded by path
  const { resolveConfig } = (await import(pathToFileURL(join(source, 'config.ts')).href)) as {
    resolveConfig(raw: unknown, resolvePath: undefined): unknown;
  };
  const { createSummaryTreeEngine, ENGINE_ID } = (await import(pathToFileURL(join(source, 'engine.ts')).href)) as {
    createSummaryTreeEngine(deps: { config: unknown; logger: unknown; runtimeLlm: undefined }): ContextEngine;
    ENGINE_ID: string;
  };
  const config = resolveConfig({ stateDir: join(dir, 'summary-tree-state') }, undefined);
  const quiet = { info() {}, warn() {}, error() {}, debug() {} };
  return {
    kind: 'in-process',
    engineId: ENGINE_ID,
    factory: () => createSummaryTreeEngine({ config, logger: quiet, runtimeLlm: undefined }),
  };
}

export interface Limit {
  parseMs: number;
  tokenizeMs: number;
  messages: number;
  /** characters of the unique texts tokenized */
  chars: number;
}

/** The limit: parse the JSONL, then tokenize every distinct message text once. */
export async function measureLimit(file: string): Promise<Limit> {
  globalThis.gc?.();
  let t = performance.now();
  const parsed = await readSessionFile(file, { mode: 'tolerant' });
  const parseMs = performance.now() - t;
  t = performance.now();
  const path = getActivePath(parsed);
  const all = buildContextFromPath(path.filter((e) => e.type !== 'compaction' && e.type !== 'reset'));
  const counter = createTokenCounter();
  const encoding = encodingForModel(all.model?.modelId);
  const seen = new Set<string>();
  let chars = 0;
  for (const message of all.messages) {
    const { text } = messageTokenText(message);
    if (seen.has(text)) continue;
    seen.add(text);
    chars += text.length;
    counter.countText(text, encoding);
  }
  return { parseMs, tokenizeMs: performance.now() - t, messages: all.messages.length, chars };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Messages and characters of JSON text that crossed an engine-host channel, by kind, in each direction. */
export interface ChannelCounts {
  toHost: Map<string, { messages: number; chars: number }>;
  fromHost: Map<string, { messages: number; chars: number }>;
}

function kindOf(message: { type?: unknown; op?: unknown; args?: { method?: unknown }[] }): string {
  if (message.type !== 'request') return String(message.type);
  return message.op === 'callEngine' ? String(message.args?.[0]?.method) : String(message.op);
}

function count(into: ChannelCounts['toHost'], kind: string, chars: number): void {
  const entry = into.get(kind) ?? { messages: 0, chars: 0 };
  entry.messages++;
  entry.chars += chars;
  into.set(kind, entry);
}

/**
 * The Node transport with every message counted (each one sent is serialized once more to measure it: use it for
 * a counting run, not a timed one). Responses are counted under the operation they answer.
 */
export function countingTransport(): { transport: EngineHostTransportFactory; counts: ChannelCounts } {
  const counts: ChannelCounts = { toHost: new Map(), fromHost: new Map() };
  const transport: EngineHostTransportFactory = (spec) => {
    const inner = forkTransport(spec);
    const sentOps = new Map<number, string>();
    const receivedOps = new Map<number, string>();
    const countSent = (message: unknown) => {
      const m = message as { type?: unknown; id?: number };
      const kind = m.type === 'response' ? `response:${receivedOps.get(m.id!) ?? '?'}` : kindOf(m as never);
      if (m.type === 'request') sentOps.set(m.id!, kind);
      count(counts.toHost, kind, JSON.stringify(message).length + 1);
    };
    return {
      get pid() {
        return inner.pid;
      },
      send(message) {
        countSent(message);
        inner.send(message);
      },
      sendMany(messages) {
        messages.forEach(countSent);
        inner.sendMany!(messages);
      },
      onMessage: (listener) =>
        inner.onMessage((text) => {
          const m = JSON.parse(text as string) as { type?: unknown; id?: number; op?: unknown };
          const kind = m.type === 'response' ? `response:${sentOps.get(m.id!) ?? '?'}` : kindOf(m as never);
          if (m.type === 'request') receivedOps.set(m.id!, kind);
          count(counts.fromHost, kind, (text as string).length + 1);
          listener(text);
        }),
      onOversized: (listener) => inner.onOversized?.(listener),
      onExit: (listener) => inner.onExit(listener),
      onOutput: (listener) => inner.onOutput(listener),
      kill: () => inner.kill(),
    };
  };
  return { transport, counts };
}
