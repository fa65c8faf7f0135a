/**
 * Parent side of plugin hooks: one `runHooks` request per hook point to the plugin's engine host, with a
 * deadline that covers the handlers' own timeouts, and the reply checked against the protocol.
 */
import type { EngineHost } from './host/engineHost';
import { RunHooksReply, describeProtocolViolation, type HookInvocation } from './host/protocol';

export type { HookInvocation, RunHooksReply };

/** Margin over the handlers' own timeouts before the app gives up on the host. */
const HOOK_DEADLINE_MARGIN_MS = 5_000;

export async function requestHooks(
  host: EngineHost,
  invocations: readonly HookInvocation[],
  defaultDeadlineMs: number,
): Promise<RunHooksReply> {
  const ownTimeouts = invocations.reduce((sum, i) => sum + (i.timeoutMs ?? 0), 0);
  const deadlineMs = Math.max(defaultDeadlineMs, ownTimeouts + HOOK_DEADLINE_MARGIN_MS);
  const reply = await host.request('runHooks', [{ invocations }], { deadlineMs, operation: 'hooks' });
  const problem = describeProtocolViolation(RunHooksReply, reply);
  if (problem) throw new Error(`engine host sent an invalid hooks reply: ${problem}`);
  return reply as RunHooksReply;
}
