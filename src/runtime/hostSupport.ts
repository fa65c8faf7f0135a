/**
 * Host requirements (behaviour §5, OpenClaw's `host-compat.ts`): the built-in hosts, the evaluation of an engine's
 * `info.hostRequirements` for an operation, and the fail-closed assertion with OpenClaw's exact message.
 * A mismatch is never a quarantine: the run does not start.
 */
import type {
  ContextEngineHostCapability,
  ContextEngineHostSupport,
  ContextEngineInfo,
  ContextEngineOperation,
} from '../contract';

const EMBEDDED_CAPABILITIES: readonly ContextEngineHostCapability[] = Object.freeze([
  'bootstrap',
  'assemble-before-prompt',
  'reference-context',
  'after-turn',
  'maintain',
  'compact',
  'runtime-llm-complete',
] as const);

/** The embedded runner host (`openclaw-embedded`). */
export const OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST: ContextEngineHostSupport = Object.freeze({
  id: 'openclaw-embedded',
  label: 'OpenClaw embedded runner',
  capabilities: EMBEDDED_CAPABILITIES,
});

/** The Codex app-server harness host: the embedded set plus `thread-bootstrap-projection`. */
export const CODEX_APP_SERVER_CONTEXT_ENGINE_HOST: ContextEngineHostSupport = Object.freeze({
  id: 'codex-app-server',
  label: 'Codex app-server harness',
  capabilities: Object.freeze([...EMBEDDED_CAPABILITIES, 'thread-bootstrap-projection'] as const),
});

/** Capabilities of a generic CLI backend that declares none. */
export const DEFAULT_CLI_CONTEXT_ENGINE_HOST_CAPABILITIES: readonly ContextEngineHostCapability[] = Object.freeze([
  'bootstrap',
  'after-turn',
  'maintain',
] as const);

/** Capabilities of the CLI compaction path. */
export const CLI_COMPACTION_CONTEXT_ENGINE_HOST_CAPABILITIES: readonly ContextEngineHostCapability[] = Object.freeze([
  'compact',
  'maintain',
] as const);

/** A generic CLI backend host `cli:<backendId>`; `capabilities` defaults to bootstrap, after-turn, maintain. */
export function cliContextEngineHost(
  backendId: string,
  capabilities?: readonly ContextEngineHostCapability[],
): ContextEngineHostSupport {
  return {
    id: `cli:${backendId}`,
    label: `CLI backend "${backendId}"`,
    capabilities: [...(capabilities ?? DEFAULT_CLI_CONTEXT_ENGINE_HOST_CAPABILITIES)],
  };
}

/** The CLI compaction path host for `backendId` (capabilities compact, maintain). */
export function cliCompactionContextEngineHost(backendId: string): ContextEngineHostSupport {
  return cliContextEngineHost(backendId, CLI_COMPACTION_CONTEXT_ENGINE_HOST_CAPABILITIES);
}

/** An agent-harness plugin host `agent-harness:<id>`; capabilities default to none. */
export function agentHarnessContextEngineHost(
  harnessId: string,
  capabilities?: readonly ContextEngineHostCapability[],
): ContextEngineHostSupport {
  return {
    id: `agent-harness:${harnessId}`,
    label: `agent harness "${harnessId}"`,
    capabilities: [...(capabilities ?? [])],
  };
}

/** Arguments of the host-support check: engine info, operation and host. */
export interface ContextEngineHostSupportArgs {
  contextEngineInfo: ContextEngineInfo;
  operation: ContextEngineOperation;
  host: ContextEngineHostSupport;
}

/** Outcome of `evaluateContextEngineHostSupport`. */
export interface ContextEngineHostSupportEvaluation {
  ok: boolean;
  /** the operation's required capabilities (empty when it has none) */
  required: ContextEngineHostCapability[];
  /** required capabilities the host lacks, in requirement order */
  missing: ContextEngineHostCapability[];
  unsupportedMessage?: string;
}

/** Evaluate whether `host` satisfies the engine's requirements for `operation`. */
export function evaluateContextEngineHostSupport(
  args: ContextEngineHostSupportArgs,
): ContextEngineHostSupportEvaluation {
  const requirement = args.contextEngineInfo.hostRequirements?.[args.operation];
  const required = [...(requirement?.requiredCapabilities ?? [])];
  if (required.length === 0) return { ok: true, required: [], missing: [] };
  const available = new Set(args.host.capabilities);
  const missing = required.filter((capability) => !available.has(capability));
  const unsupportedMessage =
    typeof requirement?.unsupportedMessage === 'string' && requirement.unsupportedMessage.trim()
      ? requirement.unsupportedMessage
      : undefined;
  return { ok: missing.length === 0, required, missing, ...(unsupportedMessage ? { unsupportedMessage } : {}) };
}

/** The exact error message for an unsupported host (behaviour §5). */
export function formatContextEngineHostUnsupportedMessage(
  args: ContextEngineHostSupportArgs,
  evaluation: ContextEngineHostSupportEvaluation,
): string {
  const hostCapabilities = args.host.capabilities.length > 0 ? args.host.capabilities.join(', ') : '(none)';
  const suffix = evaluation.unsupportedMessage ? ` ${evaluation.unsupportedMessage}` : '';
  return (
    `Context engine "${args.contextEngineInfo.id}" cannot run operation "${args.operation}" on ${args.host.label}. ` +
    `Missing host capabilities: ${evaluation.missing.join(', ')}. ` +
    `Required capabilities: ${evaluation.required.join(', ')}. ` +
    `Host capabilities: ${hostCapabilities}.${suffix}`
  );
}

/** Thrown by `assertContextEngineHostSupport`; carries the evaluation for callers that record it. */
export class ContextEngineHostUnsupportedError extends Error {
  readonly code = 'context_engine_host_unsupported';
  readonly engineId: string;
  readonly operation: ContextEngineOperation;
  readonly hostId: string;
  readonly missing: ContextEngineHostCapability[];
  readonly required: ContextEngineHostCapability[];

  constructor(args: ContextEngineHostSupportArgs, evaluation: ContextEngineHostSupportEvaluation) {
    super(formatContextEngineHostUnsupportedMessage(args, evaluation));
    this.name = 'ContextEngineHostUnsupportedError';
    this.engineId = args.contextEngineInfo.id;
    this.operation = args.operation;
    this.hostId = args.host.id;
    this.missing = evaluation.missing;
    this.required = evaluation.required;
  }
}

/** Throw `ContextEngineHostUnsupportedError` (OpenClaw's exact message) when the host lacks a required capability. */
export function assertContextEngineHostSupport(args: ContextEngineHostSupportArgs): void {
  const evaluation = evaluateContextEngineHostSupport(args);
  if (!evaluation.ok) throw new ContextEngineHostUnsupportedError(args, evaluation);
}

/** True when the host check applies at all: OpenClaw skips it for the resolved `legacy` engine. */
export function shouldAssertContextEngineHostSupport(contextEngineInfo: ContextEngineInfo): boolean {
  return contextEngineInfo.id !== 'legacy';
}
