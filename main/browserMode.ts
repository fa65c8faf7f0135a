import type { ServeRequest, ServeSession } from '../src/cli';
import { createHandlers } from './handlers';
import { openInBrowser } from './openBrowser';
import { locateRendererDir } from './projectPaths';
import { startServer } from './serve';

/** `contextscope serve`: the bridge table over HTTP + WebSocket, then (optionally) the system browser. */
export async function startBrowserMode(request: ServeRequest, projectRoot: string): Promise<ServeSession> {
  const server = await startServer({
    port: request.port,
    rendererDir: locateRendererDir(projectRoot),
    // the consent given is logged here: in browser mode the server's log is the record of what ran
    handlers: createHandlers({
      shell: 'browser',
      runtimeHost: 'node',
      prestartTokenizer: true,
      log: (line) => process.stderr.write(`${line}\n`),
    }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  if (request.open) {
    const problem = await openInBrowser(server.url);
    if (problem) process.stderr.write(`${problem}\n`);
  }
  return { url: server.url, close: () => server.close() };
}
