/** Test fixtures for the runtime: a recording logger, configurable fake engines and config builders. */
import { vi, type Mock } from 'vitest';
import type {
  AgentMessage,
  ContextEngine,
  ContextEngineInfo,
  GuardedMethod,
  Logger,
  OpenClawConfig,
} from '../../../src/contract';
import { createContextRuntime } from '../../../src/engines';
import { type ContextRuntime, type ContextRuntimeOptions, type RuntimeEvent } from '../../../src/runtime';

export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

/** A logger that records every line. */
export function recordingLogger(): { logger: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine['level']) => (message: string) => void lines.push({ level, message });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** A runtime with a recording logger and recorded events. */
export function testRuntime(options: Omit<ContextRuntimeOptions, 'logger' | 'onEvent'> = {}): {
  runtime: ContextRuntime;
  lines: LoggedLine[];
  events: RuntimeEvent[];
} {
  const { logger, lines } = recordingLogger();
  const events: RuntimeEvent[] = [];
  const runtime = createContextRuntime({ ...options, logger, onEvent: (event) => void events.push(event) });
  return { runtime, lines, events };
}

/** `plugins.slots.contextEngine = slot`. */
export function slotConfig(slot: string | undefined): OpenClawConfig {
  return slot === undefined ? { plugins: { slots: {} } } : { plugins: { slots: { contextEngine: slot } } };
}

export const USER_MESSAGE: AgentMessage = { role: 'user', content: 'hello', timestamp: 1 } as AgentMessage;

type AnyFn = (...args: any[]) => any;
type FakeMethod = GuardedMethod | 'dispose';

/** A ContextEngine whose lifecycle methods are vi.fn mocks (inspect `.mock.calls`). */
export type FakeEngine = Omit<ContextEngine, FakeMethod> & { info: ContextEngineInfo } & {
  [K in FakeMethod]: Mock<AnyFn>;
};

/** A complete fake engine whose every method is a vi.fn; pass overrides to change behaviour. */
export function fakeEngine(
  info: Partial<ContextEngineInfo> = {},
  overrides: Partial<Record<FakeMethod, AnyFn>> = {},
): FakeEngine {
  const engine: Record<string, unknown> = {
    info: { id: 'fake', name: 'Fake Engine', ...info },
    ingest: vi.fn(async () => ({ ingested: true })),
    ingestBatch: vi.fn(async (p: { messages: unknown[] }) => ({ ingestedCount: p.messages.length })),
    assemble: vi.fn(async (p: { messages: AgentMessage[] }) => ({
      messages: p.messages.slice(-1),
      estimatedTokens: 42,
    })),
    compact: vi.fn(async () => ({ ok: true, compacted: true, result: { tokensBefore: 100, tokensAfter: 10 } })),
    bootstrap: vi.fn(async () => ({ bootstrapped: true, importedMessages: 3 })),
    maintain: vi.fn(async () => ({ changed: true, bytesFreed: 10, rewrittenEntries: 1 })),
    afterTurn: vi.fn(async () => undefined),
    prepareSubagentSpawn: vi.fn(async () => ({ rollback: () => undefined })),
    onSubagentEnded: vi.fn(async () => undefined),
    commitTurn: vi.fn(async () => ({ status: 'committed' as const })),
    dispose: vi.fn(async () => undefined),
  };
  for (const [method, fn] of Object.entries(overrides)) {
    engine[method] = vi.isMockFunction(fn) ? fn : vi.fn(fn);
  }
  return engine as unknown as FakeEngine;
}

/** A rejection helper for engines that fail. */
export function failing(message: string) {
  return vi.fn(async () => {
    throw new Error(message);
  });
}
