import { describe, expect, it } from 'vitest';
import {
  buildSummaryRequest,
  createDeterministicSummarizer,
  renderSummaryPromptText,
  SUMMARIZATION_SYSTEM_PROMPT,
} from '../../../src/summarize';
import { promptForKind } from '../../../src/summarize/buildSummaryRequest';
import { composeSummaryInstructions } from '../../../src/summarize/prompts';
import { estimateTextTokens } from '../../../src/tokens';
import { codingSession } from './fixtures';

describe('fields computed on first read', () => {
  it('a request’s prompt is the rendered prompt, the same on every read and in copies', () => {
    const input = { messages: codingSession(), previousSummary: 'OLD', customInstructions: 'focus', maxTokens: 500 };
    const request = buildSummaryRequest(input);
    const expected = renderSummaryPromptText({
      messages: input.messages,
      prompt: promptForKind('update'),
      previousSummary: 'OLD',
      instructions: composeSummaryInstructions(input),
    });
    expect(request.prompt).toBe(expected);
    expect(request.prompt).toBe(expected);
    expect({ ...request }.prompt).toBe(expected);
    expect(JSON.parse(JSON.stringify({ ...request, messages: [] })).prompt).toBe(expected);
    expect(Object.keys(request)).toEqual([
      'kind',
      'messages',
      'previousSummary',
      'customInstructions',
      'maxTokens',
      'systemPrompt',
      'prompt',
    ]);
  });

  it('the deterministic summary’s usage measures the prompts and the summary', async () => {
    const request = buildSummaryRequest({ messages: codingSession(), maxTokens: 500 });
    const output = await createDeterministicSummarizer().summarize(request);
    const expected = {
      inputTokens: estimateTextTokens(SUMMARIZATION_SYSTEM_PROMPT) + estimateTextTokens(request.prompt),
      outputTokens: estimateTextTokens(output.summary),
    };
    expect(output.usage).toEqual(expected);
    expect({ ...output }.usage).toEqual(expected);
    expect(Object.keys(output)).toEqual(['summary', 'provider', 'model', 'usage']);
  });
});
