/**
 * Parent side: the ordinary async ContextEngine (and factory) the runtime sees for an engine that lives in an
 * engine host. Only the members the real engine has are present (so the runtime's contract validation and
 * "method missing → canned fallback" rules see the plugin as it is), `info` is the engine's own info, and
 * every method call carries a deadline.
 */
import type { ContextEngine, ContextEngineFactory, ContextEngineFactoryContext } from '../../contract';
import { CreateEngineReply, describeProtocolViolation } from './protocol';
import type { EngineHost } from './engineHost';
import { EngineHostError } from './engineHostError';

export interface EngineDeadlines {
  /** every call without a more specific deadline (default 30 000 ms) */
  defaultMs: number;
  /** compact (default 180 000 ms) */
  compactMs: number;
  /** loading the plugin and running register(api) (default 30 000 ms) */
  registerMs: number;
  /** starting the engine-host process (default 20 000 ms) */
  startMs: number;
  /** per-operation overrides: `assemble`, `factory`, `dispose`, ... */
  methods: Record<string, number>;
}

export const DEFAULT_ENGINE_DEADLINES: EngineDeadlines = {
  defaultMs: 30_000,
  compactMs: 180_000,
  registerMs: 30_000,
  startMs: 20_000,
  methods: {},
};

export function resolveDeadlines(partial: Partial<EngineDeadlines> = {}): EngineDeadlines {
  return { ...DEFAULT_ENGINE_DEADLINES, ...partial, methods: { ...partial.methods } };
}

export function deadlineFor(deadlines: EngineDeadlines, operation: string): number {
  const override = deadlines.methods[operation];
  if (override !== undefined) return override;
  if (operation === 'compact') return deadlines.compactMs;
  if (operation === 'register') return deadlines.registerMs;
  return deadlines.defaultMs;
}

/** A factory that creates the engine inside the host (registration `seq`) and returns a proxy for it. */
export function createRemoteFactory(
  getHost: () => EngineHost,
  seq: number,
  deadlines: EngineDeadlines,
): ContextEngineFactory {
  return async (ctx: ContextEngineFactoryContext) => {
    const host = getHost();
    const reply = await host.request('createEngine', [{ seq, ctx }], {
      deadlineMs: deadlineFor(deadlines, 'factory'),
      operation: 'factory',
    });
    const problem = describeProtocolViolation(CreateEngineReply, reply);
    if (problem)
      throw new EngineHostError('protocol', `engine host sent an invalid factory reply: ${problem}`, 'factory');
    const created = reply as CreateEngineReply;
    // a factory that returned a non-object reaches the runtime unchanged, so its contract check reports it
    if (created.kind === 'value') return created.value as ContextEngine;
    return buildRemoteEngine(host, created, deadlines);
  };
}

function buildRemoteEngine(
  host: EngineHost,
  created: Extract<CreateEngineReply, { kind: 'engine' }>,
  deadlines: EngineDeadlines,
): ContextEngine {
  const engine: Record<string, unknown> = {};
  if (created.hasInfo) engine.info = created.info;
  for (const method of created.methods) {
    const call = (...params: unknown[]) =>
      host.request('callEngine', [{ handle: created.handle, method, params }], {
        deadlineMs: deadlineFor(deadlines, method),
        operation: method,
      });
    Object.defineProperty(call, 'name', { value: method });
    engine[method] = call;
  }
  return engine as unknown as ContextEngine;
}
