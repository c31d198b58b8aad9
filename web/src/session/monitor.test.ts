import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionChannel, SessionMessage, SignOutReason } from './channel';
import { SessionMonitor, type MonitorView, type SessionOperations } from './monitor';
import type { SessionTimes } from './timing';

const IDLE_MS = 40_000;
const WARNING_MS = 30_000;
/** The server's clock runs 7 minutes ahead of the page's: times must come from the server's answers. */
const SERVER_AHEAD_MS = 7 * 60_000;

class InvalidSession extends Error {}

/** One session on a server whose clock the tests move with the fake timers. */
class FakeServer {
  signedIn = true;
  idleExpiresAt = 0;
  readonly calls: string[] = [];

  constructor() {
    this.idleExpiresAt = this.now() + IDLE_MS;
  }

  now() {
    return Date.now() + SERVER_AHEAD_MS;
  }

  private valid() {
    if (this.signedIn && this.now() >= this.idleExpiresAt) this.signedIn = false;
    return this.signedIn;
  }

  private answer(): SessionTimes {
    const iso = (ms: number) => new Date(ms).toISOString();
    if (!this.valid()) {
      return {
        isGuest: true,
        idleExpiresAt: null,
        warnAt: null,
        absoluteExpiresAt: null,
        warningSeconds: 30,
        serverTime: iso(this.now()),
      };
    }
    return {
      isGuest: false,
      idleExpiresAt: iso(this.idleExpiresAt),
      warnAt: iso(this.idleExpiresAt - WARNING_MS),
      absoluteExpiresAt: iso(this.now() + 8 * 3600_000),
      warningSeconds: 30,
      serverTime: iso(this.now()),
    };
  }

  /** Any other API call with the session cookie counts as activity. */
  activity() {
    if (this.valid()) this.idleExpiresAt = this.now() + IDLE_MS;
  }

  operations(): SessionOperations<SessionTimes> {
    return {
      getSession: async () => {
        this.calls.push('getSession');
        return this.answer();
      },
      keepSessionAlive: async () => {
        this.calls.push('keepSessionAlive');
        if (!this.valid()) throw new InvalidSession();
        this.activity();
        return this.answer();
      },
      signOut: async () => {
        this.calls.push('signOut');
        this.signedIn = false;
      },
    };
  }
}

/** Tabs of one browser: what one posts, the others receive, a moment later. */
function tabBus() {
  const tabs = new Set<(message: SessionMessage<SessionTimes>) => void>();
  return (): SessionChannel<SessionTimes> => {
    let listener: ((message: SessionMessage<SessionTimes>) => void) | null = null;
    const own = (message: SessionMessage<SessionTimes>) => listener?.(message);
    tabs.add(own);
    return {
      post: (message) => {
        for (const tab of tabs) if (tab !== own) queueMicrotask(() => tab(structuredClone(message)));
      },
      subscribe: (next) => {
        listener = next;
        return () => {
          listener = null;
        };
      },
    };
  };
}

interface Tab {
  monitor: SessionMonitor<SessionTimes>;
  view: () => MonitorView;
  signedOut: SignOutReason[];
}

function openTab(server: FakeServer, channel: SessionChannel<SessionTimes>): Tab {
  let view: MonitorView = { open: false, secondsLeft: 0, busy: false };
  const signedOut: SignOutReason[] = [];
  const monitor = new SessionMonitor<SessionTimes>({
    api: server.operations(),
    channel,
    isInvalidSession: (error) => error instanceof InvalidSession,
    onView: (next) => (view = next),
    onSession: () => {},
    onSignedOut: (reason) => signedOut.push(reason),
  });
  return { monitor, view: () => view, signedOut };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('SessionMonitor', () => {
  let server: FakeServer;
  let newChannel: () => SessionChannel<SessionTimes>;
  const tabs: Tab[] = [];

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-03-02T10:00:00.000Z') });
    server = new FakeServer();
    newChannel = tabBus();
  });

  afterEach(() => {
    for (const tab of tabs.splice(0)) tab.monitor.dispose();
    vi.useRealTimers();
  });

  async function start(): Promise<Tab> {
    const tab = openTab(server, newChannel());
    tabs.push(tab);
    await tab.monitor.start();
    return tab;
  }

  it('opens the dialog at T-30 s and not before, re-reading the session first', async () => {
    const tab = await start();
    await advance(IDLE_MS - WARNING_MS - 1);
    expect(tab.view().open).toBe(false);
    server.calls.length = 0;
    await advance(1);
    expect(server.calls).toEqual(['getSession']);
    expect(tab.view()).toEqual({ open: true, secondsLeft: 30, busy: false });
    await advance(1000);
    expect(tab.view().secondsLeft).toBe(29);
  });

  it('does not warn when activity elsewhere extended the session', async () => {
    const tab = await start();
    await advance(5_000);
    server.activity();
    await advance(IDLE_MS - WARNING_MS - 5_000);
    expect(tab.view().open).toBe(false);
    await advance(5_000 - 1);
    expect(tab.view().open).toBe(false);
    await advance(1);
    expect(tab.view().open).toBe(true);
  });

  it('Continue Working extends the session and closes the dialog', async () => {
    const tab = await start();
    await advance(IDLE_MS - WARNING_MS + 10_000);
    expect(tab.view().open).toBe(true);
    await tab.monitor.continueWorking();
    expect(server.calls).toContain('keepSessionAlive');
    expect(tab.view().open).toBe(false);
    // A whole idle period from now before the next warning; the old expiry passes unnoticed.
    await advance(IDLE_MS - WARNING_MS - 1);
    expect(tab.view().open).toBe(false);
    expect(tab.signedOut).toEqual([]);
    await advance(1);
    expect(tab.view().open).toBe(true);
  });

  it('Log Out signs out and makes the page a guest one, without the timeout toast', async () => {
    const tab = await start();
    await advance(IDLE_MS - WARNING_MS);
    await tab.monitor.logOut();
    expect(server.calls.at(-1)).toBe('signOut');
    expect(server.signedIn).toBe(false);
    expect(tab.signedOut).toEqual(['logout']);
    expect(tab.view().open).toBe(false);
  });

  it('signs out at expiry when nothing extended the session', async () => {
    const tab = await start();
    await advance(IDLE_MS - 1);
    expect(tab.signedOut).toEqual([]);
    await advance(1);
    expect(server.calls).toContain('signOut');
    expect(tab.signedOut).toEqual(['timeout']);
    expect(tab.view().open).toBe(false);
  });

  it('Close hides the dialog but the session still ends at expiry', async () => {
    const tab = await start();
    await advance(IDLE_MS - WARNING_MS);
    tab.monitor.close();
    expect(tab.view().open).toBe(false);
    await advance(WARNING_MS);
    expect(tab.signedOut).toEqual(['timeout']);
  });

  it('a Continue Working the server refuses (invalid session) ends as a timeout', async () => {
    const tab = await start();
    await advance(IDLE_MS - WARNING_MS);
    server.signedIn = false;
    await tab.monitor.continueWorking();
    expect(tab.signedOut).toEqual(['timeout']);
  });

  it('keeps two tabs in step: warning together, Continue Working in one closes both dialogs', async () => {
    const first = await start();
    const second = await start();
    await advance(IDLE_MS - WARNING_MS);
    expect(first.view().open).toBe(true);
    expect(second.view().open).toBe(true);
    await first.monitor.continueWorking();
    await advance(0);
    expect(second.view().open).toBe(false);
    await advance(IDLE_MS - WARNING_MS - 1);
    expect(second.view().open).toBe(false);
    await advance(1);
    expect(first.view().open).toBe(true);
    expect(second.view().open).toBe(true);
  });

  it('keeps two tabs in step: Log Out in one signs the other out', async () => {
    const first = await start();
    const second = await start();
    await first.monitor.logOut();
    await advance(0);
    expect(second.signedOut).toEqual(['logout']);
    await advance(IDLE_MS * 2);
    expect(second.view().open).toBe(false);
    expect(server.calls.filter((call) => call === 'signOut')).toHaveLength(1);
  });
});
