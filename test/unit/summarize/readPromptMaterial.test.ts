import { describe, expect, it } from 'vitest';
import { createDeterministicSummarizer } from '../../../src/summarize';
import { readPromptMaterial } from '../../../src/summarize/readPromptMaterial';

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('readPromptMaterial (what the offline stand-in summarizes)', () => {
  it('leaves out the instruction paragraph and reads a rendered transcript back as messages', () => {
    const material = readPromptMaterial(
      ask(
        'Summarize the following in at most 400 tokens.\n\n' +
          'User: Fix the failing test in src/parser.ts.\n\n' +
          'Assistant: Reading it now.\n\nIt fails on empty input.\n\n' +
          'Tool result (read): export function parse() {}\n\n' +
          '[User]: Also add a regression test.',
      ),
    );
    expect(material.summaries).toEqual([]);
    expect(material.messages.map((m) => [m.role, 'toolName' in m ? m.toolName : undefined])).toEqual([
      ['user', undefined],
      ['assistant', undefined],
      ['toolResult', 'read'],
      ['user', undefined],
    ]);
    expect(material.messages[0]!.content).toBe('Fix the failing test in src/parser.ts.');
    // a paragraph without a speaker continues the message before it
    expect(material.messages[1]!.content).toEqual([
      { type: 'text', text: 'Reading it now.\n\nIt fails on empty input.' },
    ]);
  });

  it('reads "Part N:" paragraphs as earlier summaries to condense', () => {
    const material = readPromptMaterial(
      ask('Summarize the following.\n\nPart 1:\n## Goal\n- fix the parser\n\nPart 2:\n## Goal\n- add a test'),
    );
    expect(material.messages).toEqual([]);
    expect(material.summaries).toEqual(['## Goal\n- fix the parser', '## Goal\n- add a test']);
  });

  it('keeps every paragraph of an ordinary message (no transcript or summaries after the first)', () => {
    const material = readPromptMaterial(ask('Why does the pool leak?\n\nIt happens under load.'));
    expect(material.messages).toHaveLength(1);
    expect(material.messages[0]!.content).toBe('Why does the pool leak?\n\nIt happens under load.');
  });

  it('complete() summarizes the material: no instruction in the goal, condensed parts merged rather than nested', async () => {
    const summarizer = createDeterministicSummarizer();
    const leaf = await summarizer.complete!({
      ...ask(
        'Summarize the following in at most 400 tokens.\n\nUser: Please fix the retry loop in src/retry.ts.\n\nAssistant: Done.',
      ),
      maxTokens: 400,
    });
    expect(leaf.text).toContain('Please fix the retry loop in src/retry.ts.');
    expect(leaf.text).not.toContain('Summarize the following');
    const other = await summarizer.complete!({
      ...ask('Summarize the following.\n\nUser: Now add a test for the parser.'),
      maxTokens: 400,
    });
    const condensed = await summarizer.complete!({
      ...ask(`Summarize the following in at most 400 tokens.\n\nPart 1:\n${leaf.text}\n\nPart 2:\n${other.text}`),
      maxTokens: 400,
    });
    expect(condensed.text).not.toContain('Part 1');
    expect(condensed.text).not.toContain('Summarize the following');
    expect(condensed.text).toContain('Please fix the retry loop in src/retry.ts.');
    expect(condensed.text).toContain('Now add a test for the parser.');
    expect(condensed.text.match(/^## Goal$/gm)).toHaveLength(1);
  });
});
