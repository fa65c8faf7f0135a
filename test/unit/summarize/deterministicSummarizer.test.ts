import { describe, expect, it } from 'vitest';
import {
  buildSummaryRequest,
  createDeterministicSummarizer,
  extractIdentifiers,
  IDENTIFIER_PRESERVATION_INSTRUCTIONS,
  SUMMARIZATION_SYSTEM_PROMPT,
} from '../../../src/summarize';
import { estimateStringChars } from '../../../src/tokens';
import { codingSession, HASH, URL_ID, UUID } from './fixtures';

const HEADINGS = [
  '## Goal',
  '## Constraints & Preferences',
  '## Progress',
  '### Done',
  '### In Progress',
  '### Blocked',
  '## Key Decisions',
  '## Next Steps',
  '## Critical Context',
];

function sectionBody(summary: string, heading: string): string {
  const start = summary.indexOf(`${heading}\n`);
  expect(start, `missing ${heading}`).toBeGreaterThanOrEqual(0);
  const rest = summary.slice(start + heading.length + 1);
  const next = rest.search(/\n\n#{2,3} /);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('deterministic summarizer — history', () => {
  const summarizer = createDeterministicSummarizer();

  it('writes every required section, in order', async () => {
    const { summary } = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 4000 }));
    const positions = HEADINGS.map((h) => summary.indexOf(`${h}\n`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('fills the sections extractively from the conversation', async () => {
    const { summary } = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 4000 }));
    expect(sectionBody(summary, '## Goal')).toContain('- Please fix the login bug in src/auth/login.ts.');
    expect(sectionBody(summary, '## Constraints & Preferences')).toContain('we must not change the public API.');
    expect(sectionBody(summary, '### Done')).toBe('- [x] read src/auth/login.ts');
    expect(sectionBody(summary, '### In Progress')).toBe('- [ ] edit src/auth/hash.ts');
    expect(sectionBody(summary, '### Blocked')).toContain('- bash npm test: Error: 2 tests failed');
    expect(sectionBody(summary, '## Key Decisions')).toBe('- I decided to use bcrypt instead of md5.');
    expect(sectionBody(summary, '## Next Steps')).toBe('1. Next, I will run the tests.');
  });

  it('copies identifiers exactly into Critical Context', async () => {
    const { summary } = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 4000 }));
    const critical = sectionBody(summary, '## Critical Context');
    for (const id of ['src/auth/login.ts', 'localhost:8080', UUID, 'src/auth/hash.ts', HASH, URL_ID]) {
      expect(critical).toContain(`- ${id}`);
    }
  });

  it('is deterministic', async () => {
    const a = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 4000 }));
    const b = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 4000 }));
    expect(a.summary).toBe(b.summary);
  });

  it('stays within maxTokens as OpenClaw measures text (weighted chars / 4)', async () => {
    for (const maxTokens of [60, 120, 200]) {
      const { summary } = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens }));
      expect(estimateStringChars(summary)).toBeLessThanOrEqual(maxTokens * 4);
    }
    // with a tight budget the least important sections lose items first, the goal survives
    const { summary } = await summarizer.summarize(buildSummaryRequest({ messages: codingSession(), maxTokens: 120 }));
    expect(summary).toContain('## Goal\n- Please fix the login bug');
    expect(sectionBody(summary, '### Done')).toBe('- (none)');
  });

  it('update: merges the previous summary and moves finished work to Done', async () => {
    const previousSummary = [
      '## Goal',
      '- Migrate the build to esbuild',
      '',
      '## Constraints & Preferences',
      '- keep Node 20 support',
      '',
      '## Progress',
      '### Done',
      '- [x] read package.json',
      '',
      '### In Progress',
      '- [ ] edit src/auth/hash.ts',
      '',
      '### Blocked',
      '- (none)',
      '',
      '## Key Decisions',
      '- (none)',
      '',
      '## Next Steps',
      '1. run the build',
      '',
      '## Critical Context',
      '- build id 9f8e7d6c5b4a',
    ].join('\n');
    const more = [
      ...codingSession(),
      {
        role: 'toolResult' as const,
        toolCallId: 'c3',
        toolName: 'edit',
        content: [{ type: 'text' as const, text: 'ok' }],
        isError: false,
        timestamp: 7,
      },
    ];
    const request = buildSummaryRequest({ messages: more, previousSummary, maxTokens: 4000 });
    expect(request.kind).toBe('update');
    const { summary } = await summarizer.summarize(request);
    expect(sectionBody(summary, '## Goal')).toMatch(/^- Migrate the build to esbuild\n- Please fix the login bug/);
    expect(sectionBody(summary, '## Constraints & Preferences')).toContain('- keep Node 20 support');
    expect(sectionBody(summary, '### Done')).toBe(
      '- [x] read package.json\n- [x] read src/auth/login.ts\n- [x] edit src/auth/hash.ts',
    );
    expect(sectionBody(summary, '### In Progress')).toBe('- (none)');
    expect(sectionBody(summary, '## Critical Context')).toContain('- build id 9f8e7d6c5b4a');
  });

  it('does not list an announced step whose tool call has completed as a next step', async () => {
    const { summary } = await summarizer.summarize(
      buildSummaryRequest({
        messages: [
          { role: 'user', content: 'Write the script.', timestamp: 1 },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Next I will write deploy/run.sh.' },
              { type: 'toolCall', id: 'w', name: 'write', arguments: { path: 'deploy/run.sh' } },
            ],
            timestamp: 2,
          },
          {
            role: 'toolResult',
            toolCallId: 'w',
            toolName: 'write',
            content: [{ type: 'text', text: 'ok' }],
            isError: false,
            timestamp: 3,
          },
        ],
        maxTokens: 4000,
      }),
    );
    expect(sectionBody(summary, '### Done')).toBe('- [x] write deploy/run.sh');
    expect(sectionBody(summary, '## Next Steps')).toBe('- (none)');
  });

  it('adds the requested focus to Critical Context', async () => {
    const { summary } = await summarizer.summarize(
      buildSummaryRequest({ messages: codingSession(), maxTokens: 4000, customInstructions: 'the failing tests' }),
    );
    expect(sectionBody(summary, '## Critical Context')).toContain('- Requested focus: the failing tests');
  });
});

describe('deterministic summarizer — turn prefix', () => {
  it('writes Original Request / Early Progress / Context for Suffix', async () => {
    const request = buildSummaryRequest({ messages: codingSession().slice(0, 3), turnPrefix: true, maxTokens: 2000 });
    expect(request.kind).toBe('turn-prefix');
    const { summary } = await createDeterministicSummarizer().summarize(request);
    expect(summary).toMatch(/^## Original Request\nPlease fix the login bug in src\/auth\/login\.ts\./);
    expect(sectionBody(summary, '## Early Progress')).toBe(
      '- done: read src/auth/login.ts\n- Let me read the file first.',
    );
    expect(sectionBody(summary, '## Context for Suffix')).toContain(`- ${UUID}`);
  });
});

describe('summary request rendering', () => {
  it('puts the conversation, previous summary, prompt and instructions in OpenClaw order', () => {
    const request = buildSummaryRequest({
      messages: codingSession().slice(0, 1),
      previousSummary: 'OLD',
      customInstructions: 'keep the API notes',
      maxTokens: 100,
    });
    expect(request.systemPrompt).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(request.prompt.startsWith('<conversation>\n[User]: Please fix the login bug')).toBe(true);
    expect(request.prompt).toContain('\n</conversation>\n\n<previous-summary>\nOLD\n</previous-summary>\n\n');
    expect(request.prompt).toContain('<previous-summary>');
    expect(
      request.prompt.endsWith(
        `\n\nAdditional focus: ${IDENTIFIER_PRESERVATION_INSTRUCTIONS}\n\nAdditional focus:\nkeep the API notes`,
      ),
    ).toBe(true);
  });

  it('the first summary has no previous-summary block and the identifier text alone', () => {
    const request = buildSummaryRequest({ messages: codingSession().slice(0, 1), maxTokens: 100 });
    expect(request.kind).toBe('history');
    expect(request.prompt).not.toContain('<previous-summary>');
    expect(request.prompt).toContain('## Goal\n');
    expect(request.prompt.endsWith(`\n\nAdditional focus: ${IDENTIFIER_PRESERVATION_INSTRUCTIONS}`)).toBe(true);
  });

  it('identifierPolicy off drops the identifier text', () => {
    const request = buildSummaryRequest({
      messages: codingSession().slice(0, 1),
      maxTokens: 100,
      identifierPolicy: 'off',
    });
    expect(request.prompt).not.toContain('Additional focus');
  });
});

describe('extractIdentifiers', () => {
  it('finds each kind once, exactly as written, without overlaps', () => {
    const text = `See ${URL_ID} and /var/log/app.log; host db.internal:5432 at 10.0.0.7, port 9000, commit ${HASH}, id ${UUID}, file config.yaml.`;
    expect(extractIdentifiers(text)).toEqual([
      URL_ID,
      '/var/log/app.log',
      'db.internal:5432',
      '10.0.0.7',
      'port 9000',
      HASH,
      UUID,
      'config.yaml',
    ]);
  });
});

describe('deterministic complete()', () => {
  it('answers a completion offline with usage and the deterministic model name', async () => {
    const result = await createDeterministicSummarizer().complete({
      messages: [
        { role: 'system', content: 'Summarize.' },
        { role: 'user', content: `Deploy to 10.1.2.3:8443 using key ${HASH}.` },
      ],
      maxTokens: 300,
    });
    expect(result.provider).toBe('contextscope');
    expect(result.model).toBe('deterministic-extractive-v1');
    expect(result.text).toContain('- 10.1.2.3:8443');
    expect(result.text).toContain(`- ${HASH}`);
    expect(estimateStringChars(result.text)).toBeLessThanOrEqual(1200);
    expect(result.usage.totalTokens).toBe((result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0));
  });

  it('rejects an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(
      createDeterministicSummarizer().complete({
        messages: [{ role: 'user', content: 'x' }],
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop now');
  });
});
