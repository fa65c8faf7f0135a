/**
 * The summarization prompts of OpenClaw's built-in compaction (behaviour §3.3 "Summary generation"). The wording is
 * ContextScope's own; the section headings and the identifier-preservation sentence are the exact texts the
 * spec gives, because summarizers and engines downstream parse them.
 */

export const SUMMARIZATION_SYSTEM_PROMPT = [
  'You are a context summarization assistant.',
  'You are given a transcript of a conversation between a user and an AI assistant that uses tools.',
  'Your only job is to write a structured summary of it that another model will read to carry on the work.',
  'Do not continue the conversation, do not answer questions asked in it and do not call tools: output the summary only.',
  'When a user line carries a sender={...} label, keep that attribution next to what that sender asked or decided.',
].join(' ');

/** The required layout of a history summary (headings are exact). */
export const SUMMARY_FORMAT = `## Goal
[What the user wants to achieve. List several goals if there are several.]

## Constraints & Preferences
- [Requirements, limits and preferences the user stated, or "(none)"]

## Progress
### Done
- [x] [Finished work]

### In Progress
- [ ] [Work that was started and is not finished]

### Blocked
- [What stops progress, or "(none)"]

## Key Decisions
- **[Decision]**: [Why it was made]

## Next Steps
1. [What should happen next, in order]

## Critical Context
- [Facts, data and references needed to continue]`;

export const SUMMARIZATION_PROMPT = `The conversation above is to be summarized into a checkpoint from which another model can continue the work without the original messages.

Use exactly this structure:

${SUMMARY_FORMAT}

Be brief in every section. Quote file paths, function names, commands and error messages exactly.`;

export const UPDATE_SUMMARIZATION_PROMPT = `The conversation above contains only the messages that came after an earlier checkpoint. That earlier checkpoint is given in the <previous-summary> tags.

Produce one updated checkpoint:
- keep everything from the previous summary that is still true;
- add the new progress, decisions and context;
- move items from In Progress to Done once they are finished;
- rewrite Next Steps for where the work stands now;
- drop only what the new messages made obsolete.

Use exactly this structure:

${SUMMARY_FORMAT}

Be brief in every section. Quote file paths, function names, commands and error messages exactly.`;

/** The required layout of a split-turn prefix summary (headings are exact). */
export const TURN_PREFIX_FORMAT = `## Original Request
[What the user asked for in this turn]

## Early Progress
- [What was done in this part of the turn]

## Context for Suffix
- [What is needed to understand the part of the turn that follows]`;

export const TURN_PREFIX_SUMMARIZATION_PROMPT = `The conversation above is the first part (the prefix) of a single turn that was too long to keep whole. The rest of the turn (the suffix) stays in context word for word.

Summarize the prefix so that the suffix can be understood on its own. Use exactly this structure:

${TURN_PREFIX_FORMAT}

Be brief. Quote file paths, commands and error messages exactly.`;

/** Exact text (behaviour §3.3): the default `identifierPolicy: "strict"` instruction. */
export const IDENTIFIER_PRESERVATION_INSTRUCTIONS =
  'Preserve all opaque identifiers exactly as written (no shortening or reconstruction), including UUIDs, hashes, IDs, hostnames, IPs, ports, URLs, and file names.';

export type IdentifierPolicy = 'strict' | 'off' | 'custom';

/**
 * OpenClaw's instruction text handed to the summarizer as its custom instructions:
 * `"<identifier text>\n\nAdditional focus:\n<custom>"`, or either part alone. `undefined` when both are empty.
 */
export function composeSummaryInstructions(params: {
  customInstructions?: string;
  identifierPolicy?: IdentifierPolicy;
  identifierInstructions?: string;
}): string | undefined {
  const policy = params.identifierPolicy ?? 'strict';
  const identifierText =
    policy === 'off'
      ? ''
      : policy === 'custom'
        ? (params.identifierInstructions?.trim() ?? '') || IDENTIFIER_PRESERVATION_INSTRUCTIONS
        : IDENTIFIER_PRESERVATION_INSTRUCTIONS;
  const custom = params.customInstructions?.trim() ?? '';
  if (identifierText && custom) return `${identifierText}\n\nAdditional focus:\n${custom}`;
  return identifierText || custom || undefined;
}
