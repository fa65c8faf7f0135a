import { describe, expect, it } from 'vitest';
import { browserCommandFor } from '../../main/openBrowser';

const url = 'http://127.0.0.1:4000/?token=abc';

describe('browserCommandFor', () => {
  it('uses $BROWSER with the URL appended', () => {
    expect(browserCommandFor(url, { BROWSER: 'firefox' }, 'linux')).toEqual({ command: 'firefox', args: [url] });
  });

  it('substitutes %s in $BROWSER and keeps its arguments', () => {
    expect(browserCommandFor(url, { BROWSER: 'chromium --new-window %s' }, 'linux')).toEqual({
      command: 'chromium',
      args: ['--new-window', url],
    });
  });

  it('falls back to the platform opener', () => {
    expect(browserCommandFor(url, {}, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommandFor(url, {}, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(browserCommandFor(url, { BROWSER: '  ' }, 'win32')).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '""', url],
    });
  });
});
