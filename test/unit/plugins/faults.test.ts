/**
 * Fault isolation with a real engine host: every way an engine can fail becomes an error with a reason, the
 * runtime quarantines it with the operation, and the app process stays responsive. assemble gets a short deadline
 * (1000 ms); every other call a generous one, so a busy machine cannot make a healthy call time out.
 * One host serves the non-destructive cases; the destructive ones (sync loop, exit, crash) each reload it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ContextEngineQuarantine } from '../../../src/contract';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { loadPlugin, type LoadedPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { createContextRuntime } from '../../../src/engines';
import { type ContextRuntime } from '../../../src/runtime';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const messages = [{ role: 'user' as const, content: 'hello', timestamp: 1 }];
const ASSEMBLE_DEADLINE_MS = 1000;

let runtime: ContextRuntime;
let faults: LoadedPlugin;

const slot = (id: string) => ({ plugins: { slots: { contextEngine: id } } });
function quarantineOf(engineId: string): Omit<ContextEngineQuarantine, 'failedAt'> | undefined {
  const record = runtime.listContextEngineQuarantines().find((q) => q.engineId === engineId);
  if (!record) return undefined;
  const { failedAt: _failedAt, ...rest } = record;
  return rest;
}

beforeAll(async () => {
  runtime = createContextRuntime({ logger: quiet });
  faults = await loadPlugin(readPluginPackage(join(FIXTURES, 'loader-faults'), 'linked'), {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    deadlines: { defaultMs: 10_000, methods: { assemble: ASSEMBLE_DEADLINE_MS } },
    unresponsiveGraceMs: 1000,
  });
}, 30_000);

afterAll(async () => {
  await faults.close();
});

describe('engine failures inside the engine host', () => {
  it("applies OpenClaw's registration diagnostics to what the plugin registered", () => {
    expect(faults.diagnostics.map((d) => d.message)).toEqual([
      'context engine id reserved by core: legacy',
      'context engine registration missing id',
      'context engine "fault-no-factory" registration missing factory',
    ]);
    expect(faults.engineIds).not.toContain('legacy');
  });

  it('quarantines a throwing method with the operation and the thrown message, and falls back to legacy', async () => {
    const engine = await runtime.resolveContextEngine(slot('fault-throw'));
    const result = await engine.assemble({ sessionId: 's', messages });
    expect(result.messages).toEqual(messages);
    expect(quarantineOf('fault-throw')).toEqual({
      engineId: 'fault-throw',
      owner: 'plugin:loader-faults',
      operation: 'assemble',
      reason: 'assemble exploded',
    });
  });

  it('quarantines factory and contract failures during resolution', async () => {
    await runtime.resolveContextEngine(slot('fault-factory'));
    await runtime.resolveContextEngine(slot('fault-contract'));
    await runtime.resolveContextEngine(slot('fault-null'));
    expect(quarantineOf('fault-factory')).toMatchObject({ operation: 'factory', reason: 'factory refused' });
    expect(quarantineOf('fault-contract')).toMatchObject({
      operation: 'contract-validation',
      reason:
        'Context engine "fault-contract" factory returned an invalid ContextEngine: missing ingest(), missing assemble(), missing compact().',
    });
    expect(quarantineOf('fault-null')).toMatchObject({
      operation: 'contract-validation',
      reason: 'Context engine "fault-null" factory returned null instead of a ContextEngine object.',
    });
  });

  it('releases a hung call at its deadline while another engine in the same host keeps answering', async () => {
    const hung = await runtime.resolveContextEngine(slot('fault-hang'));
    const healthy = await runtime.resolveContextEngine(slot('fault-ok'));
    const order: string[] = [];
    const hangDone = hung.assemble({ sessionId: 's', messages }).then(() => order.push('hung call released'));
    await healthy.ingest({ sessionId: 's', message: messages[0]! }).then(() => order.push('other engine answered'));
    await hangDone;
    expect(order).toEqual(['other engine answered', 'hung call released']);
    expect(quarantineOf('fault-hang')).toMatchObject({
      operation: 'assemble',
      reason: `timeout after ${ASSEMBLE_DEADLINE_MS} ms`,
    });
    // a host that still answers pings is not killed: only the hung engine is affected
    expect(await faults.checkResponsive()).toBe(true);
    expect(faults.host?.running).toBe(true);
    expect((await healthy.assemble({ sessionId: 's', messages })).estimatedTokens).toBe(1);
  });

  it('forwards an abort to the engine and does not quarantine an aborted call', async () => {
    const engine = await runtime.resolveContextEngine(slot('fault-abortable'));
    const controller = new AbortController();
    const pending = engine.compact({ sessionId: 's', abortSignal: controller.signal });
    controller.abort(new Error('user pressed stop'));
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe('compact aborted: user pressed stop');
    expect(quarantineOf('fault-abortable')).toBeUndefined();
  });

  it('kills a host stuck in a synchronous loop without blocking the app, and later calls fail fast', async () => {
    const engine = await runtime.resolveContextEngine(slot('fault-loop'));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await engine.assemble({ sessionId: 's', messages });
      expect(await faults.whenHostStopped()).toBe('killed after timeout in assemble');
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0); // the app's event loop kept running throughout
    expect(quarantineOf('fault-loop')).toMatchObject({
      operation: 'assemble',
      reason: `timeout after ${ASSEMBLE_DEADLINE_MS} ms`,
    });
    expect(faults.status).toBe('stopped');
    await runtime.resolveContextEngine(slot('fault-ok'));
    expect(quarantineOf('fault-ok')).toMatchObject({
      operation: 'factory',
      reason: 'engine host is not running (killed after timeout in assemble)',
    });
  });

  it('turns process.exit(3) into "engine host exited with code 3" (restarted only by reload)', async () => {
    await faults.reload();
    expect(faults.status).toBe('running');
    expect(quarantineOf('fault-ok')).toBeUndefined(); // a fresh runtime registration lifts the old quarantine
    const engine = await runtime.resolveContextEngine(slot('fault-exit'));
    await engine.assemble({ sessionId: 's', messages });
    expect(quarantineOf('fault-exit')).toMatchObject({
      operation: 'assemble',
      reason: 'engine host exited with code 3',
    });
    expect(faults.status).toBe('stopped');
    expect(faults.statusMessage).toBe('engine host exited with code 3; engines of this plugin fail until reload()');
  });

  it('turns an exception thrown outside any call into a crash reason', async () => {
    await faults.reload();
    const engine = await runtime.resolveContextEngine(slot('fault-crash'));
    await engine.assemble({ sessionId: 's', messages });
    expect(quarantineOf('fault-crash')).toMatchObject({
      operation: 'assemble',
      reason: 'engine host crashed: uncaughtException: Error: async boom',
    });
  });
});
