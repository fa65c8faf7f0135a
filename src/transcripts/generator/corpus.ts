/**
 * Whole on purpose (about 415 lines): mostly word lists and text templates, data rather than logic.
 *
 * Text for synthetic coding-assistant sessions: user requests (English, Chinese, Japanese, emoji), assistant
 * prose and thinking, file contents and command output. Everything is drawn from the PRNG passed in.
 */
import type { Prng } from './prng';

export const PROJECT_FILES = [
  'src/server/routes/orders.ts',
  'src/server/routes/users.ts',
  'src/server/middleware/rateLimit.ts',
  'src/auth/session.ts',
  'src/auth/tokens.ts',
  'src/db/pool.ts',
  'src/db/queries/orders.sql',
  'src/billing/invoice.ts',
  'src/billing/currency.ts',
  'src/jobs/retryQueue.ts',
  'src/i18n/messages.zh-CN.json',
  'src/i18n/messages.ja.json',
  'src/utils/backoff.ts',
  'test/orders.test.ts',
  'test/auth/session.test.ts',
  'test/billing/invoice.test.ts',
  'package.json',
  'tsconfig.json',
  'README.md',
  'docker-compose.yml',
] as const;

const NOUNS = [
  'order',
  'invoice',
  'session',
  'token',
  'user',
  'payment',
  'refund',
  'cart',
  'webhook',
  'tenant',
  'quota',
  'report',
];
const VERBS = [
  'load',
  'save',
  'validate',
  'resolve',
  'normalize',
  'refresh',
  'compute',
  'serialize',
  'schedule',
  'retry',
  'merge',
  'apply',
];
const FEATURES = [
  'checkout',
  'login',
  'invoice export',
  'refund flow',
  'rate limiter',
  'webhook delivery',
  'currency conversion',
  'password reset',
  'CSV import',
  'audit log',
];
const CONDITIONS = [
  'the cart is empty',
  'two requests arrive within the same millisecond',
  'the token has just expired',
  'the tenant has no billing address',
  'the amount is in JPY (zero decimals)',
  'the retry queue is drained during a deploy',
  'the user name contains emoji',
  'Postgres returns a serialization failure',
];

function cap(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

export function identifier(rng: Prng): string {
  return `${rng.pick(VERBS)}${cap(rng.pick(NOUNS))}`;
}

export function userRequest(rng: Prng, path: string): string {
  const fn = identifier(rng);
  const templates: (() => string)[] = [
    () =>
      `The ${rng.pick(FEATURES)} endpoint returns a 500 when ${rng.pick(CONDITIONS)}. Can you find out why and fix it? Logs are in the usual place.`,
    () => `Can you add a test for \`${fn}\` in ${path}? It should cover the case where ${rng.pick(CONDITIONS)}.`,
    () =>
      `Refactor ${path} so that \`${fn}\` no longer reaches into the DB pool directly — pass the repository in instead. Keep the public API the same.`,
    () => `请帮我看看 ${path} 里的 \`${fn}\` 为什么在高并发下会超时？我怀疑是连接池没有释放。修好之后跑一下测试。`,
    () =>
      `このテストが時々失敗する理由を調べてください: test/${rng.pick(NOUNS)}.test.ts の「${rng.pick(FEATURES)}」のケースです。`,
    () =>
      `🚀 We're about to ship the ${rng.pick(FEATURES)} change. Run the full test suite and typecheck first, and tell me if anything looks off 🙏`,
    () => `Quick one: rename \`${fn}\` to \`${identifier(rng)}\` everywhere and update the call sites.`,
    () =>
      `The README section about ${rng.pick(FEATURES)} is out of date. Read the code and rewrite it (keep it short, add an example).`,
    () =>
      `Why does \`npm test\` print "${rng.pick(['ECONNREFUSED 127.0.0.1:5432', 'Cannot find module ./dist/index.js', 'Timeout of 5000ms exceeded', 'Unexpected token < in JSON at position 0'])}"? Fix it if it's our bug.`,
    () =>
      `I changed my mind about the last approach. Let's keep ${path} as it was and handle ${rng.pick(CONDITIONS)} in the caller instead.`,
  ];
  return rng.pick(templates)();
}

export function assistantIntro(rng: Prng, path: string): string {
  return rng.pick([
    `Let me look at ${path} first.`,
    `I'll start by reading ${path} and the related tests.`,
    `Checking the current state of the repo before changing anything.`,
    `好的，我先看一下 ${path}。`,
    `Running the tests to reproduce the failure.`,
    `Let me search for every use of this before renaming.`,
  ]);
}

export function assistantBetweenTools(rng: Prng): string {
  return rng.pick([
    'That confirms it. Applying the fix now.',
    'The failure is in the retry path; the connection is never released on the error branch.',
    'Two call sites still use the old name. Updating them.',
    'Tests pass locally. Running the typecheck as well.',
    'The error comes from a stale build output; rebuilding.',
    '',
  ]);
}

export function thinkingText(rng: Prng, path: string): string {
  const fn = identifier(rng);
  return [
    `The user wants me to deal with ${path}. ${cap(fn)} is called from the route handler and from the retry queue.`,
    `If ${rng.pick(CONDITIONS)}, the early return skips the cleanup in the finally block — that would explain the symptom.`,
    `I should verify with the test output before editing, and keep the public signature stable.`,
  ].join(' ');
}

export function assistantFinal(rng: Prng, path: string, files: string[]): string {
  const fn = identifier(rng);
  const bullets = files
    .slice(0, 4)
    .map(
      (f) =>
        `- \`${f}\`: ${rng.pick(['fixed the error branch', 'added a regression test', 'renamed the helper', 'released the pooled connection in `finally`', 'documented the new option', 'switched to integer minor units'])}`,
    );
  const closers = [
    'All tests pass and `tsc --noEmit` is clean. ✅',
    'The test suite is green (212 passed). Let me know if you want me to open a PR.',
    '测试全部通过。如果需要，我可以再补充一些边界情况的测试。',
    'テストはすべて成功しました 🎉',
    'One test is still flaky on CI (timing-dependent); I left a TODO with the reproduction steps.',
  ];
  return [
    rng.pick([
      `Done. The problem was in \`${fn}\` in ${path}.`,
      `Here's what I changed:`,
      `Fixed 🎯`,
      `I found the cause.`,
    ]),
    '',
    ...bullets,
    '',
    rng.pick(closers),
  ].join('\n');
}

function codeLine(rng: Prng, indent: number): string {
  const pad = '  '.repeat(indent);
  const n = rng.pick(NOUNS);
  const options = [
    `${pad}const ${n} = await ${identifier(rng)}(${rng.pick(['ctx', 'input', 'req.body', 'tx', 'options'])});`,
    `${pad}if (!${n}) throw new HttpError(404, \`${n} \${id} not found\`);`,
    `${pad}logger.debug({ ${n}Id: ${n}.id, attempt }, '${identifier(rng)} finished');`,
    `${pad}return { ...${n}, updatedAt: new Date().toISOString() };`,
    `${pad}// ${rng.pick(['TODO: handle partial refunds', 'keep in sync with the SQL view', 'see ADR-0007', 'retry is idempotent by design'])}`,
    `${pad}${n}s.push(${identifier(rng)}(row));`,
    `${pad}await tx.query('SELECT * FROM ${n}s WHERE tenant_id = $1 LIMIT $2', [tenantId, limit]);`,
  ];
  return rng.pick(options);
}

/** Plausible contents for a project file, about `lines` lines long. */
export function fileContent(rng: Prng, path: string, lines: number): string {
  if (path.endsWith('.json') && path.includes('i18n')) {
    const zh = path.includes('zh');
    const rows = Array.from({ length: lines }, (_, i) => {
      const key = `${rng.pick(NOUNS)}.${rng.pick(VERBS)}${i}`;
      const value = zh
        ? rng.pick([
            '订单已创建',
            '付款失败，请重试',
            '会话已过期，请重新登录',
            '发票已发送到您的邮箱 📧',
            '退款正在处理中',
          ])
        : rng.pick([
            '注文が作成されました',
            '支払いに失敗しました',
            'セッションの有効期限が切れました',
            '請求書を送信しました 📧',
            '返金処理中です',
          ]);
      return `  "${key}": "${value}"`;
    });
    return `{\n${rows.join(',\n')}\n}`;
  }
  if (path.endsWith('.md')) {
    const out = [`# Acme API`, '', '> Order, billing and auth services for the Acme storefront. 🛒', ''];
    while (out.length < lines) {
      out.push(
        `## ${cap(rng.pick(FEATURES))}`,
        '',
        `The ${rng.pick(FEATURES)} module calls \`${identifier(rng)}\` when ${rng.pick(CONDITIONS)}.`,
        '',
        '```bash',
        `npm run ${rng.pick(['dev', 'test', 'migrate', 'seed'])}`,
        '```',
        '',
      );
    }
    return out.slice(0, lines).join('\n');
  }
  if (path.endsWith('.sql')) {
    return Array.from({ length: lines }, (_, i) =>
      i % 6 === 0
        ? `-- name: ${identifier(rng)}`
        : `SELECT id, tenant_id, total_minor, currency FROM ${rng.pick(NOUNS)}s WHERE status = '${rng.pick(['open', 'paid', 'void'])}';`,
    ).join('\n');
  }
  if (path.endsWith('package.json')) {
    return JSON.stringify(
      {
        name: 'acme-api',
        version: '3.14.0',
        type: 'module',
        scripts: { test: 'vitest run', build: 'tsc -p .', dev: 'tsx watch src/server/main.ts' },
        dependencies: { fastify: '5.2.1', pg: '8.13.1', zod: '3.24.1' },
      },
      null,
      2,
    );
  }
  const out: string[] = [`import { logger } from '../logger';`, `import type { Ctx } from '../types';`, ''];
  while (out.length < lines) {
    const fn = identifier(rng);
    out.push(`export async function ${fn}(ctx: Ctx, id: string): Promise<void> {`);
    const body = rng.int(3, 9);
    for (let i = 0; i < body; i++) out.push(codeLine(rng, 1));
    out.push('}', '');
  }
  return out
    .slice(0, lines)
    .map((line, i) => `${String(i + 1).padStart(5)}\t${line}`)
    .join('\n');
}

export interface CommandRun {
  command: string;
  output: string;
  exitCode: number;
}

export function commandRun(rng: Prng, path: string): CommandRun {
  const kinds: (() => CommandRun)[] = [
    () => {
      const failed = rng.chance(0.3);
      const lines = [` RUN  v3.2.4 /home/dev/projects/acme-api`, ''];
      const files = rng.int(6, 18);
      for (let i = 0; i < files; i++) {
        const name = `test/${rng.pick(NOUNS)}${i % 3 === 0 ? '/' + rng.pick(NOUNS) : ''}.test.ts`;
        lines.push(` ✓ ${name} (${rng.int(2, 40)} tests) ${rng.int(8, 900)}ms`);
      }
      if (failed) {
        lines.push(
          ` ❯ ${path.replace('src/', 'test/').replace(/\.ts$/, '.test.ts')} (7 tests | 1 failed)`,
          `   × ${identifier(rng)} > handles the case where ${rng.pick(CONDITIONS)}`,
          `     → expected 200 to be 500 // Object.is equality`,
        );
        for (let i = 0; i < rng.int(6, 14); i++)
          lines.push(`      at ${identifier(rng)} (${path}:${rng.int(10, 300)}:${rng.int(3, 40)})`);
      }
      lines.push(
        '',
        ` Test Files  ${failed ? '1 failed | ' : ''}${files} passed (${files + (failed ? 1 : 0)})`,
        `      Tests  ${failed ? '1 failed | ' : ''}${rng.int(120, 260)} passed`,
        `   Duration  ${rng.int(2, 19)}.${rng.int(10, 99)}s`,
      );
      return { command: 'npm test', output: lines.join('\n'), exitCode: failed ? 1 : 0 };
    },
    () => {
      const lines = Array.from(
        { length: rng.int(8, 30) },
        () =>
          `${rng.hex(7)} ${rng.pick(['fix', 'feat', 'chore', 'refactor', 'test'])}(${rng.pick(NOUNS)}): ${rng.pick(VERBS)} ${rng.pick(NOUNS)} ${rng.pick(['on retry', 'for tenants', 'in export', 'when empty', '(#' + rng.int(100, 999) + ')'])}`,
      );
      return { command: 'git log --oneline -n 30', output: lines.join('\n'), exitCode: 0 };
    },
    () => {
      const hits = Array.from(
        { length: rng.int(4, 24) },
        () => `${rng.pick(PROJECT_FILES)}:${rng.int(1, 400)}:  ${codeLine(rng, 0).trim()}`,
      );
      return { command: `rg -n "${identifier(rng)}" src test`, output: hits.join('\n'), exitCode: 0 };
    },
    () => {
      const errors = rng.chance(0.4);
      const out = errors
        ? Array.from(
            { length: rng.int(1, 6) },
            () =>
              `${path}(${rng.int(5, 200)},${rng.int(3, 30)}): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.`,
          ).join('\n')
        : '';
      return { command: 'npx tsc --noEmit', output: out, exitCode: errors ? 2 : 0 };
    },
    () => ({
      command: 'git status --short',
      output: Array.from(
        { length: rng.int(1, 8) },
        () => ` ${rng.pick(['M', 'M', 'A', '??'])} ${rng.pick(PROJECT_FILES)}`,
      ).join('\n'),
      exitCode: 0,
    }),
    () => ({
      command: 'docker compose logs --tail 24 api',
      output: Array.from(
        { length: 24 },
        (_, i) =>
          `api-1  | {"level":${rng.pick([30, 30, 40, 50])},"time":${1772355600000 + i * 1375},"reqId":"req-${rng.hex(4)}","msg":"${identifier(rng)} ${rng.pick(['ok', 'slow query (812ms)', 'connection reset', 'retrying'])}"}`,
      ).join('\n'),
      exitCode: 0,
    }),
  ];
  return rng.pick(kinds)();
}

export function webSearchResult(rng: Prng, query: string): string {
  return Array.from(
    { length: 5 },
    (_, i) =>
      `${i + 1}. ${cap(query)} — ${rng.pick(['Stack Overflow', 'GitHub issue', 'node-postgres docs', 'MDN', 'Fastify docs'])}\n   https://example.com/${rng.hex(6)}\n   ${rng.pick(['Release the client in a finally block.', 'Use SERIALIZABLE and retry on 40001.', 'Intl.NumberFormat handles minor units per currency.', 'Known issue fixed in 8.13.'])}`,
  ).join('\n\n');
}

export function branchSummaryText(rng: Prng, path: string): string {
  return `Tried rewriting ${path} around a ${rng.pick(['global mutex', 'new cache layer', 'background worker', 'different ORM'])}; it made the tests slower and broke the ${rng.pick(FEATURES)} contract, so that branch was abandoned.`;
}

/** The `index`-th subagent task of a session (distinct for the first four). */
export function subagentTask(path: string, index: number): { task: string; label: string } {
  const tasks = [
    {
      task: `Audit ${path} for places where a pooled DB connection can leak, and report file:line for each.`,
      label: 'leak-audit',
    },
    {
      task: `Write table-driven tests for currency rounding (JPY, USD, KWD) in test/billing/currency.test.ts.`,
      label: 'currency-tests',
    },
    {
      task: `Summarise the last 30 commits touching src/auth/ and flag anything security-relevant.`,
      label: 'auth-review',
    },
    { task: `把 src/i18n/messages.zh-CN.json 里缺失的翻译补齐，参照英文版本。`, label: 'i18n-zh' },
  ];
  return tasks[index % tasks.length]!;
}

/** A summary in the section layout OpenClaw's summarization prompt asks for. */
export function compactionSummaryText(
  goal: string,
  latest: string,
  done: string[],
  read: Set<string>,
  modified: Set<string>,
): string {
  return [
    '## Goal',
    goal.split('\n')[0]!.slice(0, 300),
    '',
    '## Constraints & Preferences',
    '- Keep public function signatures stable',
    '- Money is stored as integer minor units',
    '',
    '## Progress',
    '### Done',
    ...done.slice(-8),
    '',
    '### In Progress',
    `- [ ] ${latest.split('\n')[0]!.slice(0, 160)}`,
    '',
    '### Blocked',
    '- (none)',
    '',
    '## Key Decisions',
    '- **Connection handling**: release pooled clients in `finally`, never on the happy path only',
    '',
    '## Next Steps',
    '1. Re-run the full test suite after the current change',
    '2. Update the README section if behaviour changed',
    '',
    '## Critical Context',
    '- Tests run with `npm test` (vitest); typecheck with `npx tsc --noEmit`',
    '',
    `<read-files>\n${[...read].sort().join('\n')}\n</read-files>`,
    '',
    `<modified-files>\n${[...modified].sort().join('\n')}\n</modified-files>`,
  ].join('\n');
}
