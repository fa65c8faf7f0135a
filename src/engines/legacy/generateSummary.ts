/**
 * OpenClaw's "Summary generation" step of the built-in compaction (harness `compact()` → `generateSummary`, behaviour
 * §3.3): the history summary (merged with the previous one) and, for a split turn, the turn-prefix summary, each
 * asked of a `Summarizer` with its own output cap.
 */
import type { CompactionSettings } from '../../runtime/compactionSettings';
import {
  buildSummaryRequest,
  resolveSummaryOutputTokens,
  type BuildSummaryRequestInput,
  type IdentifierPolicy,
  type Summarizer,
} from '../../summarize';
import { formatFileOperations } from './fileOperations';
import type { CompactionPreparation } from './prepareCompaction';

/** Summary used when only a split-turn prefix is summarized and no earlier summary exists. */
export const NO_PRIOR_HISTORY = 'No prior history.';

export interface GenerateSummaryOptions {
  customInstructions?: string;
  identifierPolicy?: IdentifierPolicy;
  identifierInstructions?: string;
  signal?: AbortSignal;
  /** the model's output cap, bounding the summary's maxTokens */
  modelMaxTokens?: number;
}

export interface GeneratedSummaries {
  historySummary: string;
  turnPrefixSummary?: string;
}

/** Asks `summarizer` for the summaries `preparation` calls for; a summarizer's throw propagates. */
export async function generateSummaries(
  summarizer: Summarizer,
  preparation: CompactionPreparation,
  settings: CompactionSettings,
  options: GenerateSummaryOptions,
): Promise<GeneratedSummaries> {
  const summarize = (part: SummaryPart) => summarizePart(summarizer, settings, options, part);
  const summarizeTurnPrefix = preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0;
  const historySummary =
    preparation.messagesToSummarize.length > 0 || !summarizeTurnPrefix
      ? await summarize({ messages: preparation.messagesToSummarize, previousSummary: preparation.previousSummary })
      : previousSummaryWithoutFileLists(preparation);
  if (!summarizeTurnPrefix) return { historySummary };
  const turnPrefixSummary = await summarize({ messages: preparation.turnPrefixMessages, turnPrefix: true });
  return { historySummary, turnPrefixSummary };
}

type SummaryPart = Pick<BuildSummaryRequestInput, 'messages' | 'previousSummary' | 'turnPrefix'>;

async function summarizePart(
  summarizer: Summarizer,
  settings: CompactionSettings,
  options: GenerateSummaryOptions,
  part: SummaryPart,
): Promise<string> {
  const request = buildSummaryRequest({
    customInstructions: options.customInstructions,
    identifierPolicy: options.identifierPolicy,
    identifierInstructions: options.identifierInstructions,
    signal: options.signal,
    ...part,
    maxTokens: resolveSummaryOutputTokens({
      reserveTokens: settings.reserveTokens,
      modelMaxTokens: options.modelMaxTokens,
      turnPrefix: part.turnPrefix,
    }),
  });
  return (await summarizer.summarize(request)).summary;
}

/** Only a turn prefix is new: the previous summary is kept without the file lists it already carried. */
function previousSummaryWithoutFileLists(preparation: CompactionPreparation): string {
  const previousLists = preparation.previousSummaryDetails
    ? formatFileOperations(
        preparation.previousSummaryDetails.readFiles,
        preparation.previousSummaryDetails.modifiedFiles,
      )
    : '';
  const previous = preparation.previousSummary;
  return previous !== undefined && previousLists && previous.endsWith(previousLists)
    ? previous.slice(0, -previousLists.length)
    : (previous ?? NO_PRIOR_HISTORY);
}
