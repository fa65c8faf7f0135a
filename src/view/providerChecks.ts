/**
 * A turn's provider-overflow checks as people read them: per attempt that reached the provider, whether it
 * overflowed, on which count (the provider's recorded usage or error, the tiktoken count scaled by the session's
 * measured ratio, tiktoken alone, or none for a provider that truncates silently) and that count against the window.
 */
import type { TurnRecord } from './viewTypes';

type ProviderCheck = NonNullable<TurnRecord['providerChecks']>[number];

export interface ProviderCheckFigures {
  attempt: number;
  source: ProviderCheck['source'];
  /** the source in words: `recorded`, `scaled`, `tiktoken`, `never (provider truncates silently)` */
  sourceLabel: string;
  overflowed: boolean;
  /** `overflowed`, `fits`, or `never overflows` */
  verdict: string;
  /** the prompt in provider tokens as the source gives it (null: a recorded overflow that states no count) */
  providerTokens: number | null;
  tiktokenTokens: number;
  contextWindow: number;
  /** `provider/model` */
  model: string;
  /** scaled: `×0.417 + 1500` — provider tokens per tiktoken token and the fixed part */
  ratioText: string | null;
  /** scaled: recorded turns the ratio was measured on */
  measuredTurns: number | null;
  /** recorded: the provider's error */
  recordedError: string | null;
  /** the whole check in one line (CLI, HTML report, tooltips) */
  summary: string;
}

const SOURCE_LABEL: Record<ProviderCheck['source'], string> = {
  recorded: 'recorded',
  scaled: 'scaled',
  tiktoken: 'tiktoken',
  never: 'never (provider truncates silently)',
};

function ratioTextOf(check: ProviderCheck): string | null {
  if (check.ratio === undefined) return null;
  const overhead = check.overheadTokens ? ` + ${check.overheadTokens}` : '';
  return `×${check.ratio.toFixed(3)}${overhead}`;
}

const verdictOf = (check: ProviderCheck): string =>
  check.source === 'never' ? 'never overflows' : check.overflowed ? 'overflowed' : 'fits';

function summaryOf(check: ProviderCheck, window: number, ratioText: string | null): string {
  const verdict = verdictOf(check);
  const tokens = check.providerTokens;
  const against = tokens === undefined ? '' : ` ${tokens} ${check.overflowed ? '>' : '≤'} window ${window}`;
  switch (check.source) {
    case 'recorded':
      return check.recordedError !== undefined && check.overflowed
        ? `${verdict}: the provider answered "${check.recordedError}"${tokens === undefined ? '' : ` (${tokens} tokens)`}`
        : `${verdict}: recorded usage${against}`;
    case 'scaled':
      return (
        `${verdict}: tiktoken ${check.tiktokenTokens} scaled ${ratioText ?? ''} (the ratio measured on ` +
        `${check.measuredTurns ?? 0} recorded turns of ${check.model}) =${against}`
      );
    case 'tiktoken':
      return `${verdict}: tiktoken${against} (no recorded usage for ${check.model})`;
    case 'never':
      return `${verdict}: ${check.model} truncates a prompt larger than its window without an error`;
  }
}

/** One entry per attempt whose prompt reached the provider check, in order (empty for older recordings). */
export function providerCheckFigures(record: TurnRecord): ProviderCheckFigures[] {
  const window = record.budget.contextWindow;
  return (record.providerChecks ?? []).map((check) => {
    const ratioText = ratioTextOf(check);
    return {
      attempt: check.attempt,
      source: check.source,
      sourceLabel: SOURCE_LABEL[check.source],
      overflowed: check.overflowed,
      verdict: verdictOf(check),
      providerTokens: check.providerTokens ?? null,
      tiktokenTokens: check.tiktokenTokens,
      contextWindow: window,
      model: check.model,
      ratioText,
      measuredTurns: check.measuredTurns ?? null,
      recordedError: check.recordedError ?? null,
      summary: summaryOf(check, window, ratioText),
    };
  });
}
