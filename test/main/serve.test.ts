import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDispatcherFor, defineMethods, NoParams } from '../../src/bridge';
import { createHandlers } from '../../main/handlers';
import { startServer, type RunningServer } from '../../main/serve';

const workDir = mkdtempSync(path.join(tmpdir(), 'contextscope-serve-'));
const rendererDir = path.join(workDir, 'renderer');
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>ContextScope</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(path.join(rendererDir, 'assets', 'tokenizer.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(path.join(workDir, 'secret.txt'), 'TOP SECRET');
  symlinkSync(path.join(workDir, 'secret.txt'), path.join(rendererDir, 'assets', 'escape.txt'));
  server = await startServer({
    port: 0,
    rendererDir,
    handlers: createHandlers({ shell: 'browser', runtimeHost: 'node' }),
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: rawPath,
        method,
        headers: { Host: `127.0.0.1:${server.port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

type Connection = { ws: WebSocket; status?: undefined } | { status: number; ws?: undefined };

function connect(
  url: string,
  options: { origin?: string; headers?: Record<string, string> } = {},
): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin: options.origin, headers: options.headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

function bridgeUrl(token: string | null, port = server.port): string {
  return token === null ? `ws://127.0.0.1:${port}/bridge` : `ws://127.0.0.1:${port}/bridge?token=${token}`;
}

function exchange(ws: WebSocket, message: string): Promise<unknown> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))));
    ws.send(message);
  });
}

describe('browser mode server: binding and URL', () => {
  it('listens on 127.0.0.1 and prints a URL carrying a 64-hex-digit token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('generates a different token per launch', async () => {
    const other = await startServer({
      rendererDir,
      handlers: createHandlers({ shell: 'browser', runtimeHost: 'node' }),
    });
    try {
      expect(other.token).not.toBe(server.token);
      expect(other.port).not.toBe(server.port);
    } finally {
      await other.close();
    }
  });

  it('refuses to bind anything but loopback', async () => {
    await expect(
      startServer({
        rendererDir,
        host: '0.0.0.0' as never,
        handlers: createHandlers({ shell: 'browser', runtimeHost: 'node' }),
      }),
    ).rejects.toThrow('Browser mode only binds to 127.0.0.1; "0.0.0.0" was requested.');
  });
});

describe('browser mode server: static files', () => {
  it('serves index.html at / with the CSP and hardening headers', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.body).toBe('<!doctype html><title>ContextScope</title>');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('serves assets with their content type, .wasm as application/wasm', async () => {
    expect((await get('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    const wasm = await get('/assets/tokenizer.wasm');
    expect([wasm.status, wasm.headers['content-type']]).toEqual([200, 'application/wasm']);
  });

  it('answers /favicon.ico with 204 so the page logs no 404', async () => {
    expect((await get('/favicon.ico')).status).toBe(204);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..\\secret.txt',
    '/assets%5c..%5c..%5csecret.txt',
    '/assets/escape.txt',
    `/${encodeURIComponent(path.join(workDir, 'secret.txt'))}`,
    '//etc/passwd',
    '/index.html%00.js',
    '/%E0%A4%A',
  ])('path traversal %s → 404 without leaking the file', async (rawPath) => {
    const response = await get(rawPath);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('TOP SECRET');
  });

  it('returns 404 for a missing file and 405 for other methods', async () => {
    expect((await get('/nope.js')).status).toBe(404);
    expect((await get('/', {}, 'POST')).status).toBe(405);
  });

  it.each(['evil.example', `evil.example:${0}`, '127.0.0.1:1', 'localhost'])(
    'refuses Host %s (DNS rebinding) with 403',
    async (host) => {
      const response = await get('/', { Host: host.replace(':0', `:${server.port}`) });
      expect(response.status).toBe(403);
    },
  );

  it('accepts localhost:<port> as Host', async () => {
    expect((await get('/', { Host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('browser mode server: the bridge WebSocket', () => {
  it('refuses a connection without a token (401)', async () => {
    expect(await connect(bridgeUrl(null))).toEqual({ status: 401 });
  });

  it('refuses a connection with a wrong token (401)', async () => {
    expect(await connect(bridgeUrl('0'.repeat(64)))).toEqual({ status: 401 });
    expect(await connect(bridgeUrl(server.token.slice(0, 63)))).toEqual({ status: 401 });
  });

  it.each(['http://evil.example', `http://127.0.0.1:${1}`, 'null', `https://127.0.0.1`])(
    'refuses Origin %s (403) even with the right token',
    async (origin) => {
      expect(await connect(bridgeUrl(server.token), { origin })).toEqual({ status: 403 });
    },
  );

  it('refuses a wrong Host header (403) even with the right token', async () => {
    expect(await connect(bridgeUrl(server.token), { headers: { Host: `rebound.example:${server.port}` } })).toEqual({
      status: 403,
    });
  });

  it('refuses other WebSocket paths (404)', async () => {
    expect(await connect(`ws://127.0.0.1:${server.port}/other?token=${server.token}`)).toEqual({ status: 404 });
  });

  it('answers app.info for the page origin with the right token', async () => {
    const connection = await connect(bridgeUrl(server.token), { origin: `http://127.0.0.1:${server.port}` });
    expect(connection.ws).toBeDefined();
    const response = await exchange(connection.ws!, JSON.stringify({ id: 1, method: 'app.info', params: {} }));
    expect(response).toMatchObject({
      id: 1,
      ok: true,
      result: { shell: 'browser', runtimeHost: 'node', nodeVersion: process.version },
    });
    connection.ws!.close();
  });

  it('answers hostile messages with structured errors and keeps the connection open', async () => {
    const { ws } = await connect(bridgeUrl(server.token));
    expect(await exchange(ws!, 'not json')).toMatchObject({ id: null, ok: false, error: { code: 'invalid_json' } });
    expect(await exchange(ws!, JSON.stringify({ id: 2, method: 'app.info', params: { x: 1 } }))).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'invalid_params', method: 'app.info', path: '/x' },
    });
    expect(await exchange(ws!, JSON.stringify({ id: 3, method: 'shell.exec', params: {} }))).toMatchObject({
      id: 3,
      ok: false,
      error: { code: 'unknown_method', method: 'shell.exec' },
    });
    expect(await exchange(ws!, JSON.stringify({ id: 4, method: 'app.health' }))).toMatchObject({ id: 4, ok: true });
    ws!.close();
  });

  it('pushes handler events to the calling connection before the response', async () => {
    const specs = defineMethods({
      'test.work': { summary: 'emits progress', request: NoParams, response: Type.Literal('ok') },
    });
    const dispatcher = createDispatcherFor(specs, {
      'test.work': (_params, ctx) => {
        ctx.emit('progress', { taskId: 'w', phase: 'scan', done: 1, total: 1 });
        return 'ok' as const;
      },
    });
    const eventServer = await startServer({ rendererDir, dispatcher });
    try {
      const { ws } = await connect(bridgeUrl(eventServer.token, eventServer.port));
      const received: unknown[] = [];
      const done = new Promise<void>((resolve) =>
        ws!.on('message', (data) => {
          const message = JSON.parse(String(data)) as { id?: number };
          received.push(message);
          if (message.id === 9) resolve();
        }),
      );
      ws!.send(JSON.stringify({ id: 9, method: 'test.work' }));
      await done;
      expect(received).toEqual([
        { type: 'event', topic: 'progress', payload: { taskId: 'w', phase: 'scan', done: 1, total: 1 } },
        { id: 9, ok: true, result: 'ok' },
      ]);
      ws!.close();
    } finally {
      await eventServer.close();
    }
  });
});
