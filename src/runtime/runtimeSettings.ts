/**
 * `buildContextEngineRuntimeSettings` (behaviour §6.2): the schema-v1 runtimeSettings object the host passes to
 * bootstrap / assemble / maintain / afterTurn / compact. Every field is present; unknowns are null.
 */
import type { ContextEngineHostSupport, ContextEngineRuntimeSettings, RuntimeSettingsReasonCode } from '../contract';

/** Inputs of `buildContextEngineRuntimeSettings` (free-form values are normalised). */
export interface BuildContextEngineRuntimeSettingsParams {
  mode?: ContextEngineRuntimeSettings['runtime']['mode'];
  harnessId?: unknown;
  runtimeId?: unknown;
  requestedModel?: unknown;
  resolvedModel?: unknown;
  provider?: unknown;
  modelFamily?: unknown;
  selectedContextEngineId?: unknown;
  contextEngineSelectionSource?: ContextEngineRuntimeSettings['contextEngineSelection']['source'];
  fallbackReason?: unknown;
  degradedReason?: unknown;
  promptTokenBudget?: unknown;
  maxOutputTokens?: unknown;
  contextEngineHost?: Pick<ContextEngineHostSupport, 'id' | 'label'>;
}

const KNOWN_REASON_CODES: ReadonlySet<string> = new Set<RuntimeSettingsReasonCode>([
  'provider_timeout',
  'provider_unavailable',
  'rate_limited',
  'context_overflow',
  'runtime_unavailable',
  'unknown',
]);

/** A trimmed non-empty string, else null. */
export function normalizeOptionalString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}

/** A finite number, else null. */
export function normalizeOptionalNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Map a free-text fallback/degraded reason onto a reason code (behaviour §6.2); empty gives null. */
export function normalizeRuntimeSettingsReason(value: unknown): RuntimeSettingsReasonCode | null {
  const text = normalizeOptionalString(value);
  if (text === null) return null;
  if (KNOWN_REASON_CODES.has(text)) return text as RuntimeSettingsReasonCode;
  const lower = text.toLowerCase();
  if (lower.includes('timeout')) return 'provider_timeout';
  if (lower.includes('rate') || lower.includes('limit') || lower.includes('429')) return 'rate_limited';
  if (lower.includes('overflow') || lower.includes('context') || lower.includes('pressure')) return 'context_overflow';
  if (lower.includes('runtime')) return 'runtime_unavailable';
  if (lower.includes('provider') || lower.includes('primary') || lower.includes('unavailable'))
    return 'provider_unavailable';
  return 'unknown';
}

/** Build the schema-v1 runtimeSettings object. */
export function buildContextEngineRuntimeSettings(
  params: BuildContextEngineRuntimeSettingsParams = {},
): ContextEngineRuntimeSettings {
  const requested = normalizeOptionalString(params.requestedModel);
  const resolved = normalizeOptionalString(params.resolvedModel);
  const fallbackReason = normalizeRuntimeSettingsReason(params.fallbackReason);
  const degradedReason = normalizeRuntimeSettingsReason(params.degradedReason);
  const selectedId = normalizeOptionalString(params.selectedContextEngineId);
  const modelSwitched = requested !== null && resolved !== null && requested !== resolved;
  const mode = params.mode ?? (degradedReason ? 'degraded' : fallbackReason || modelSwitched ? 'fallback' : 'normal');
  const host = params.contextEngineHost;
  return {
    schemaVersion: 1,
    runtime: {
      host: 'openclaw',
      mode,
      harnessId: normalizeOptionalString(params.harnessId),
      runtimeId: normalizeOptionalString(params.runtimeId),
    },
    model: {
      requested,
      resolved,
      provider: normalizeOptionalString(params.provider),
      family: normalizeOptionalString(params.modelFamily),
    },
    contextEngineSelection: {
      selectedId,
      source: params.contextEngineSelectionSource ?? (selectedId ? 'configured' : 'unknown'),
    },
    executionHost: {
      id: normalizeOptionalString(host?.id),
      label: normalizeOptionalString(host?.label),
    },
    limits: {
      promptTokenBudget: normalizeOptionalNumber(params.promptTokenBudget),
      maxOutputTokens: normalizeOptionalNumber(params.maxOutputTokens),
    },
    diagnostics: { fallbackReason, degradedReason },
  };
}

/** The runtime cannot produce runtimeSettings for this invocation (OpenClaw `types.ts`). */
export class ContextEngineRuntimeSettingsUnavailableError extends Error {
  readonly code = 'context_engine_runtime_settings_unavailable';
  constructor(message = 'Context engine runtime settings are unavailable.') {
    super(message);
    this.name = 'ContextEngineRuntimeSettingsUnavailableError';
  }
}

/** The engine does not support the runtimeSettings it received (OpenClaw `types.ts`). */
export class ContextEngineRuntimeSettingsUnsupportedError extends Error {
  readonly code = 'context_engine_runtime_settings_unsupported';
  constructor(message = 'Context engine runtime settings are unsupported.') {
    super(message);
    this.name = 'ContextEngineRuntimeSettingsUnsupportedError';
  }
}
