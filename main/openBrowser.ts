import { spawn } from 'node:child_process';

export interface BrowserCommand {
  command: string;
  args: string[];
}

/** The command that opens `url`: $BROWSER when set, otherwise the platform's opener. */
export function browserCommandFor(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): BrowserCommand {
  const configured = env.BROWSER?.trim();
  if (configured) {
    // $BROWSER may carry arguments and a %s placeholder (the convention xdg and Python's webbrowser follow).
    const [command, ...rest] = configured.split(/\s+/);
    const hasPlaceholder = rest.some((arg) => arg.includes('%s'));
    const args = hasPlaceholder ? rest.map((arg) => arg.replace('%s', url)) : [...rest, url];
    return { command: command!, args };
  }
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the browser detached. Resolves with null on success, or a sentence saying why it could not. */
export function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): Promise<string | null> {
  const { command, args } = browserCommandFor(url, env, platform);
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) =>
      resolve(`Could not start a browser ("${command}": ${error.message}); open the URL yourself.`),
    );
    child.once('spawn', () => {
      child.unref();
      resolve(null);
    });
  });
}
