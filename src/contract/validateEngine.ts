/**
 * Contract validation of what a context-engine factory returned (behaviour §4.2,
 * OpenClaw's `describeResolvedContextEngineContractError`). Returns the exact OpenClaw message, or undefined
 * when the value satisfies the contract. `info.id` need not equal the registered id.
 */

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

function describeValue(value: unknown): string {
  // JSON.stringify(undefined) is undefined; String() keeps the message readable in that case.
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}

/** Describe why `value` is not a valid ContextEngine for registered id `engineId`, or undefined when it is. */
export function describeContextEngineContractError(engineId: string, value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') {
    return `Context engine "${engineId}" factory returned ${describeValue(value)} instead of a ContextEngine object.`;
  }
  const engine = value as Record<string, unknown>;
  const issues: string[] = [];
  const info = engine.info;
  if (info === null || typeof info !== 'object') {
    issues.push('missing info');
  } else {
    const record = info as Record<string, unknown>;
    if (!isNonEmptyString(record.id)) issues.push('missing info.id');
    if (!isNonEmptyString(record.name)) issues.push('missing info.name');
  }
  for (const method of ['ingest', 'assemble', 'compact'] as const) {
    if (typeof engine[method] !== 'function') issues.push(`missing ${method}()`);
  }
  if (issues.length === 0) return undefined;
  return `Context engine "${engineId}" factory returned an invalid ContextEngine: ${issues.join(', ')}.`;
}
