// Turns message chunks (leaves) and groups of summaries (parents) into summary text.
//
// With an LLM (runtime.llm.complete, from the host at register time or per call via runtimeContext.llm) the
// text is abstractive; otherwise the extractive facts are rendered. Mode "auto" uses the LLM when one is
// available and falls back to the extractive text if the call fails; "llm" requires it; "deterministic" never
// calls it. Extractive facts are always computed so parents can be condensed without an LLM later.

import { extractFacts, mergeFacts, renderFacts, truncate } from './extractFacts.ts';
import type { ChunkFacts } from './extractFacts.ts';
import type { AgentMessage, LlmCapability, PluginLogger } from './types.ts';
import type { SummarizerMode } from './config.ts';

export interface SummaryDraft {
  text: string;
  facts: ChunkFacts;
  method: 'llm' | 'deterministic';
}

export interface SummarizeContext {
  llm?: LlmCapability;
  signal?: AbortSignal;
  customInstructions?: string;
}

export interface SummarizerOptions {
  mode: SummarizerMode;
  maxTokens: number;
  model?: string;
  logger: PluginLogger;
}

const MESSAGE_CHARS_FOR_PROMPT = 1500;

const SYSTEM_PROMPT =
  'You compress part of a conversation between a user and a coding agent so the agent can continue without it. ' +
  'Keep: what the user asked for, decisions made, files and commands involved, errors hit, and what is still open. ' +
  'Drop pleasantries and tool output details. Plain text, no preamble, no markdown headings.';

function renderMessageForPrompt(message: AgentMessage): string {
  const content = message.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((block) => {
              if (block.type === 'text') return block.text;
              if (block.type === 'toolCall') return `[calls ${block.name}(${JSON.stringify(block.arguments ?? {})})]`;
              if (block.type === 'image') return '[image]';
              return '';
            })
            .filter((part) => part !== '')
            .join('\n')
        : '';
  switch (message.role) {
    case 'toolResult':
      return `Tool result (${message.toolName ?? 'tool'}): ${truncate(text, MESSAGE_CHARS_FOR_PROMPT)}`;
    case 'bashExecution':
      return `Shell: $ ${message.command ?? ''}\n${truncate(message.output ?? '', MESSAGE_CHARS_FOR_PROMPT)}`;
    case 'compactionSummary':
    case 'branchSummary':
      return `Earlier summary: ${truncate(message.summary ?? '', MESSAGE_CHARS_FOR_PROMPT)}`;
    default: {
      const who = message.role === 'assistant' ? 'Assistant' : message.role === 'user' ? 'User' : message.role;
      return `${who}: ${truncate(text, MESSAGE_CHARS_FOR_PROMPT)}`;
    }
  }
}

export function createSummarizer(options: SummarizerOptions) {
  const maxChars = options.maxTokens * 4;

  function pickLlm(ctx: SummarizeContext): LlmCapability | undefined {
    if (options.mode === 'deterministic') return undefined;
    const llm = ctx.llm && typeof ctx.llm.complete === 'function' ? ctx.llm : undefined;
    if (!llm && options.mode === 'llm') {
      throw new Error(
        'summarizer is "llm" but the host provides no runtime.llm.complete; ' +
          'set plugins.entries.summary-tree.config.summarizer to "auto" or "deterministic".',
      );
    }
    return llm;
  }

  async function complete(llm: LlmCapability, purpose: string, body: string, ctx: SummarizeContext) {
    const instructions = ctx.customInstructions ? `\n\nAdditional instructions: ${ctx.customInstructions}` : '';
    const result = await llm.complete({
      systemPrompt: SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: `Summarize the following in at most ${options.maxTokens} tokens.${instructions}\n\n${body}`,
        },
      ],
      maxTokens: options.maxTokens,
      temperature: 0,
      model: options.model,
      signal: ctx.signal,
      purpose,
    });
    const text = typeof result?.text === 'string' ? result.text.trim() : '';
    if (text === '') throw new Error('the model returned an empty summary');
    return truncate(text, maxChars);
  }

  async function withFallback(
    purpose: string,
    facts: ChunkFacts,
    deterministicText: () => string,
    body: () => string,
    ctx: SummarizeContext,
  ): Promise<SummaryDraft> {
    const llm = pickLlm(ctx);
    if (llm) {
      try {
        return { text: await complete(llm, purpose, body(), ctx), facts, method: 'llm' };
      } catch (error) {
        if (options.mode === 'llm' || ctx.signal?.aborted) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        options.logger.warn(`summary-tree: LLM summary failed (${reason}); using the extractive summary instead.`);
      }
    }
    return { text: deterministicText(), facts, method: 'deterministic' };
  }

  return {
    /** Summary of one chunk of raw messages (a leaf). */
    summarizeChunk(messages: AgentMessage[], ctx: SummarizeContext): Promise<SummaryDraft> {
      const facts = extractFacts(messages);
      return withFallback(
        'summary-tree:leaf',
        facts,
        () => renderFacts(facts, maxChars),
        () => messages.map(renderMessageForPrompt).join('\n\n'),
        ctx,
      );
    },

    /** Summary of consecutive summaries (a parent). */
    condense(children: { text: string; facts: ChunkFacts }[], ctx: SummarizeContext): Promise<SummaryDraft> {
      const facts = mergeFacts(children.map((child) => child.facts));
      return withFallback(
        'summary-tree:condense',
        facts,
        () => renderFacts(facts, maxChars),
        () => children.map((child, i) => `Part ${i + 1}:\n${child.text}`).join('\n\n'),
        ctx,
      );
    },
  };
}

export type Summarizer = ReturnType<typeof createSummarizer>;
