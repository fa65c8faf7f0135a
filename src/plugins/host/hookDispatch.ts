/**
 * Engine-host side of plugin hooks: the handlers `api.on(name, handler, {priority, timeoutMs})` registered, run
 * for one hook point at a time on the app's request, the way OpenClaw's hook runner runs them (openclaw
 * `src/plugins/hooks.ts`): handlers sorted by priority, higher first (ties keep registration order); a modifying
 * hook runs them one after the other with the same event; a void hook runs them all at once; a synchronous
 * message hook (tool_result_persist) chains them over `event.message` and ignores a handler that returns a
 * promise. A handler that throws or passes its timeout is reported and the others go on (OpenClaw's fail-open).
 * Merging the results is the app's part (src/replay/lane/hooks), so this file knows no hook by name.
 */
import type { HookHandlerOutcome, HookInvocation, RunHooksReply } from './protocol';
import { nameAccessDenials } from './accessDenied';

export interface HookHandlerRecord {
  pluginId: string;
  handler: unknown;
  priority: number;
  timeoutMs?: number;
}

function byPriority(handlers: readonly HookHandlerRecord[]): HookHandlerRecord[] {
  return handlers
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.priority - a.h.priority || a.i - b.i)
    .map(({ h }) => h);
}

function failureText(error: unknown, hook: string): string {
  nameAccessDenials(error, `hook ${hook}`);
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

async function withTimeout<T>(promise: Promise<T>, ms: number | undefined, hook: string): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${hook} handler timed out after ${ms}ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

async function callHandler(
  record: HookHandlerRecord,
  invocation: HookInvocation,
  event: unknown,
): Promise<HookHandlerOutcome> {
  const ms = record.timeoutMs ?? invocation.timeoutMs;
  try {
    if (typeof record.handler !== 'function') throw new TypeError(`the ${invocation.hook} handler is not a function`);
    const handler = record.handler as (event: unknown, ctx: unknown) => unknown;
    const result = await withTimeout(Promise.resolve(handler(event, invocation.ctx)), ms, invocation.hook);
    return { pluginId: record.pluginId, ...(result !== undefined ? { result } : {}) };
  } catch (error) {
    return { pluginId: record.pluginId, error: failureText(error, invocation.hook) };
  }
}

/** tool_result_persist: synchronous handlers chained over the message; a promise result is ignored. */
function runMessageChain(handlers: readonly HookHandlerRecord[], invocation: HookInvocation): RunHooksReply[number] {
  const event = (invocation.event ?? {}) as Record<string, unknown>;
  let current = event.message;
  const outcomes: HookHandlerOutcome[] = [];
  for (const record of handlers) {
    try {
      if (typeof record.handler !== 'function') throw new TypeError(`the ${invocation.hook} handler is not a function`);
      const result = (record.handler as (e: unknown, c: unknown) => unknown)(
        { ...event, message: current },
        invocation.ctx,
      );
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        Promise.resolve(result).catch(() => undefined);
        outcomes.push({
          pluginId: record.pluginId,
          error: `${invocation.hook} handler returned a Promise; this hook is synchronous and the result was ignored`,
        });
        continue;
      }
      const next = (result as { message?: unknown } | undefined)?.message;
      if (next) current = next;
      outcomes.push({ pluginId: record.pluginId, ...(next ? { result: next } : {}) });
    } catch (error) {
      outcomes.push({ pluginId: record.pluginId, error: failureText(error, invocation.hook) });
    }
  }
  return { hook: invocation.hook, handlers: outcomes, message: current };
}

async function runOne(
  registry: ReadonlyMap<string, readonly HookHandlerRecord[]>,
  invocation: HookInvocation,
): Promise<RunHooksReply[number]> {
  const handlers = byPriority(registry.get(invocation.hook) ?? []);
  if (invocation.mode === 'message') return runMessageChain(handlers, invocation);
  if (invocation.mode === 'parallel') {
    const outcomes = await Promise.all(handlers.map((h) => callHandler(h, invocation, invocation.event)));
    // a void hook's return value is ignored by OpenClaw: report failures only
    return {
      hook: invocation.hook,
      handlers: outcomes.map(({ pluginId, error }) => ({ pluginId, ...(error ? { error } : {}) })),
    };
  }
  const outcomes: HookHandlerOutcome[] = [];
  for (const h of handlers) outcomes.push(await callHandler(h, invocation, invocation.event));
  return { hook: invocation.hook, handlers: outcomes };
}

/** Runs the invocations in order (one round trip per hook point; a batch keeps OpenClaw's order). */
export async function dispatchHooks(
  registry: ReadonlyMap<string, readonly HookHandlerRecord[]>,
  invocations: readonly HookInvocation[],
): Promise<RunHooksReply> {
  const replies: RunHooksReply = [];
  for (const invocation of invocations) replies.push(await runOne(registry, invocation));
  return replies;
}
