import { describe, expect, it } from 'vitest';
import {
  compareTurns,
  exportRecordingJson,
  importRecording,
  jsonPointerToPath,
  RecordingImportError,
  renderHtmlReport,
  replaySession,
  selectFailingFindings,
  validateRecording,
  type Finding,
  type Recording,
} from '../../../src/replay';
import { SessionBuilder } from './sessionBuilder';

async function smallRecording(): Promise<Recording> {
  const b = new SessionBuilder()
    .turn('please run <script>alert("pwned")</script> & tell me', 'I will not run "<img src=x onerror=alert(1)>"')
    .turn('second');
  return replaySession({ session: b.loaded(), lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32000 }] });
}

describe('Recording import', () => {
  it('reports schema violations with JSON paths', async () => {
    const rec = JSON.parse(exportRecordingJson(await smallRecording()));
    rec.turns.legacy[1].assembled[0].provenance = 'borrowed';
    delete rec.turns.legacy[0].budget.tokenBudget;
    rec.lanes[0].surprise = true;
    let error: RecordingImportError | undefined;
    try {
      importRecording(JSON.stringify(rec), 'run.json');
    } catch (e) {
      error = e as RecordingImportError;
    }
    expect(error).toBeInstanceOf(RecordingImportError);
    expect(error!.message).toMatch(/^run\.json does not match the Recording schema v1 \(\d+ problems\):/);
    const paths = error!.issues.map((i) => `${i.path} ${i.message}`);
    expect(paths).toContain('$.turns.legacy[0].budget is missing the required property "tokenBudget"');
    expect(paths).toContain('$.lanes[0] has an unknown property "surprise"');
    expect(paths.some((p) => p.startsWith('$.turns.legacy[1].assembled[0].provenance'))).toBe(true);
  });

  it('rejects other schema versions and non-JSON with what to do', () => {
    expect(() => importRecording('{"schemaVersion":3}', 'new.json')).toThrow(
      'new.json cannot be imported: $.schemaVersion is 3; this ContextScope reads schemaVersion 1 and 2. Re-export it with a matching ContextScope version.',
    );
    expect(() => importRecording('{oops', 'bad.json')).toThrow(/^bad\.json is not valid JSON: /);
    expect(validateRecording({ schemaVersion: 1 })[0]).toEqual({
      path: '$',
      message: 'is missing the required property "createdAt"',
    });
  });

  it('turns JSON pointers into readable paths', () => {
    expect(jsonPointerToPath('')).toBe('$');
    expect(jsonPointerToPath('/turns/legacy#2/3/key')).toBe('$.turns["legacy#2"][3].key');
    expect(jsonPointerToPath('/messages/a~1b')).toBe('$.messages["a/b"]');
  });
});

describe('HTML report', () => {
  it('escapes transcript content: a <script> in a message never reaches the page as markup', async () => {
    const html = renderHtmlReport(await smallRecording(), { detailTurns: 'all' });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('please run &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; tell me');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('is one self-contained file: inline CSS and SVG, no external resources, light and dark', async () => {
    const html = renderHtmlReport(await smallRecording());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).toContain('<svg class="chart"');
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).not.toMatch(/\b(src|href)\s*=\s*"(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import/);
  });
});

describe('compare', () => {
  it('lines lanes up per turn with counts and events', async () => {
    const b = new SessionBuilder().turn('a').turn('b');
    const rec = await replaySession({
      session: b.loaded(),
      lanes: [
        { engine: { kind: 'legacy' }, contextWindow: 32000 },
        { engine: { kind: 'legacy' }, contextWindow: 64000, label: 'wide' },
      ],
    });
    const rows = compareTurns(rec);
    expect(rows.map((r) => Object.keys(r.lanes))).toEqual([
      ['legacy', 'wide'],
      ['legacy', 'wide'],
    ]);
    expect(rows[1].lanes.legacy).toMatchObject({
      status: 'ok',
      kept: 2,
      summarized: 0,
      dropped: 0,
      raw: 2,
      summary: 0,
      route: 'fits',
      events: [],
    });
    expect(rows[1].lanes.wide.tokenBudget).toBeGreaterThan(rows[1].lanes.legacy.tokenBudget);
  });

  it('--fail-on selects by code or by minimum severity', () => {
    const f = (code: Finding['code'], severity: Finding['severity']): Finding => ({
      code,
      severity,
      lane: 'l',
      turn: 0,
      message: '',
    });
    const all = [f('estimate-drift', 'warning'), f('quarantined', 'error'), f('over-budget', 'warning')];
    expect(selectFailingFindings(all, ['error']).map((x) => x.code)).toEqual(['quarantined']);
    expect(selectFailingFindings(all, ['warning']).map((x) => x.code)).toEqual([
      'estimate-drift',
      'quarantined',
      'over-budget',
    ]);
    expect(selectFailingFindings(all, ['over-budget']).map((x) => x.code)).toEqual(['over-budget']);
    expect(selectFailingFindings(all, [])).toEqual([]);
  });
});
