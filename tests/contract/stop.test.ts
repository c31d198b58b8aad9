/**
 * A clean stop (site/main.ts on a PGlite data directory): on SIGTERM the server takes no new connections,
 * answers the request under way (here a sign-in whose body is still arriving), closes the database and
 * exits 0, releasing the data directory's lock; the next start finds the directory as it was left.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnSite, stopSites } from '../support/site-process.ts';

async function spawnServer(dataDir: string) {
  const site = await spawnSite(dataDir, { DEMO_CONTACTS: '20', DEMO_ADMIN_PASSWORD: 'stop-test-admin' });
  if (site.child.exitCode !== null) throw new Error(`The server exited:\n${site.output()}`);
  return { ...site, port: Number(new URL(site.baseUrl).port), exited: site.exited.then(({ code }) => code) };
}

describe('SIGTERM', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'server-stop-'));
  afterEach(stopSites);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops taking connections, answers the request under way, closes the database and exits 0', async () => {
    const server = await spawnServer(join(dataDir, 'data'));
    const body = JSON.stringify({ username: 'admin@northgate.example', password: 'stop-test-admin' });
    // A sign-in whose body has only half arrived when the server is told to stop.
    const answered = new Promise<{ status: number; text: string; cookie: string }>((done, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/services/auth/session',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Origin: server.baseUrl,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            done({
              status: response.statusCode ?? 0,
              text,
              cookie: /^(?:__Host-)?sid=[^;]*/.exec(response.headers['set-cookie']?.[0] ?? '')?.[0] ?? '',
            }),
          );
        },
      );
      req.on('error', fail);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(async () => {
          // Stopping: a new connection is refused while the request under way is still open.
          await expect(fetch(`${server.baseUrl}/services/auth/session`)).rejects.toThrow();
          req.end(body.slice(10));
        }, 500);
      }, 300);
    });
    const { status, text, cookie } = await answered;
    expect(status, text).toBe(200);
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/SIGTERM: stopped/);
    expect(existsSync(join(dataDir, 'data', 'server.lock')), 'the lock is released').toBe(false);

    // The next start finds the data as it was left, the session signed in during the stop included.
    const again = await spawnServer(join(dataDir, 'data'));
    const session = await fetch(`${again.baseUrl}/services/auth/session`, { headers: { Cookie: cookie } });
    expect(session.status).toBe(200);
    expect(await session.text()).toMatch(/admin@northgate\.example|0058d0000000001AAA/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 240_000);
});
