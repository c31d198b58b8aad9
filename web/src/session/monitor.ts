/**
 * The session validator's behaviour, apart from React: it waits for the warning time the server's answer
 * gives, re-reads the session before warning (getSession never extends it, and another tab or any API call
 * may have), opens the "Still there?" dialog with a countdown, extends the session on Continue Working,
 * signs out on Log Out or at expiry, and keeps the other tabs in step.
 */
import type { SessionChannel, SessionMessage, SignOutReason } from './channel';
import { secondsLeft, sessionPhase, sessionSchedule, type SessionSchedule, type SessionTimes } from './timing';

export interface SessionOperations<Session> {
  getSession(): Promise<Session>;
  keepSessionAlive(): Promise<Session>;
  /** ended: the server has ended the session already (it answered as to a guest), so no token is to be had. */
  signOut(options?: { ended?: boolean }): Promise<void>;
}

export interface MonitorView {
  /** Whether the "Still there?" dialog is open. */
  open: boolean;
  /** The countdown's seconds until the session is over. */
  secondsLeft: number;
  /** Continue Working or Log Out is under way. */
  busy: boolean;
}

export interface MonitorOptions<Session extends SessionTimes> {
  api: SessionOperations<Session>;
  channel: SessionChannel<Session>;
  /** Whether a failed call means the session is no longer valid (401 INVALID_SESSION_ID). */
  isInvalidSession(error: unknown): boolean;
  onView(view: MonitorView): void;
  /** A fresh answer about the session (the page shows who is signed in from it). */
  onSession(session: Session): void;
  /** The session is over: the page becomes a guest's; after a timeout it says so. */
  onSignedOut(reason: SignOutReason): void;
  now?: () => number;
}

const TICK_MS = 1000;

export class SessionMonitor<Session extends SessionTimes> {
  private schedule: SessionSchedule | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private dismissed = false;
  private ended = false;
  private view: MonitorView = { open: false, secondsLeft: 0, busy: false };
  private readonly unsubscribe: () => void;
  private readonly now: () => number;

  constructor(private readonly options: MonitorOptions<Session>) {
    this.now = options.now ?? (() => Date.now());
    this.unsubscribe = options.channel.subscribe((message) => this.receive(message));
  }

  /** Starts from a fresh reading of the session (what the page was rendered with may be minutes old). */
  start(): Promise<void> {
    return this.onDeadline();
  }

  /** Timers in a hidden tab may have been held back: look again when it shows. */
  resync(): void {
    if (this.ended || !this.schedule) return;
    if (sessionPhase(this.schedule, this.now()) === 'active') this.arm();
    else void this.onDeadline();
  }

  async continueWorking(): Promise<void> {
    if (this.ended || this.view.busy) return;
    this.setView({ busy: true });
    try {
      const session = await this.options.api.keepSessionAlive();
      const receivedAt = this.now();
      if (this.ended) return;
      this.adopt(session, receivedAt);
      this.options.channel.post({ type: 'extended', session, receivedAt });
      this.setView({ busy: false });
      this.arm();
    } catch (error) {
      if (this.ended) return;
      this.setView({ busy: false });
      if (this.options.isInvalidSession(error)) this.end('timeout');
    }
  }

  async logOut(): Promise<void> {
    if (this.ended || this.view.busy) return;
    this.setView({ busy: true });
    await this.options.api.signOut().catch(() => undefined);
    this.end('logout');
  }

  /** Close (or Escape): the dialog goes, the session still ends when it expires. */
  close(): void {
    this.dismissed = true;
    this.stopTicker();
    this.setView({ open: false });
  }

  /** The session ended elsewhere (a 401 from any call): stop without telling anyone. */
  stop(): void {
    this.ended = true;
    this.clearTimers();
    this.setView({ open: false, busy: false });
  }

  dispose(): void {
    this.stop();
    this.unsubscribe();
  }

  private receive(message: SessionMessage<Session>): void {
    if (this.ended) return;
    if (message.type === 'extended') {
      this.adopt(message.session, message.receivedAt);
      this.arm();
    } else if (message.type === 'signed-out') {
      this.stop();
      this.options.onSignedOut(message.reason);
    }
  }

  private adopt(session: Session, receivedAt: number): void {
    this.schedule = sessionSchedule(session, receivedAt);
    this.options.onSession(session);
  }

  /** At the warning time and at expiry: what does the server say now? */
  private async onDeadline(): Promise<void> {
    let fresh: Session | undefined;
    let receivedAt = 0;
    try {
      fresh = await this.options.api.getSession();
      receivedAt = this.now();
    } catch {
      // Unreachable server: go by the schedule already known.
    }
    if (this.ended) return;
    if (fresh) {
      if (fresh.isGuest) {
        // Over on the server already; signing out as well makes sure the cookie goes.
        this.schedule = null;
        await this.expire(true);
        return;
      }
      this.adopt(fresh, receivedAt);
    }
    this.arm();
  }

  private arm(): void {
    this.clearTimers();
    if (this.ended || !this.schedule) return;
    const now = this.now();
    const phase = sessionPhase(this.schedule, now);
    if (phase === 'expired') {
      void this.expire();
      return;
    }
    if (phase === 'active') {
      this.dismissed = false;
      this.setView({ open: false });
      this.timer = setTimeout(() => void this.onDeadline(), this.schedule.warnAt - now);
      return;
    }
    this.setView({ open: !this.dismissed, secondsLeft: secondsLeft(this.schedule, now) });
    if (!this.dismissed) this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.timer = setTimeout(() => void this.onDeadline(), this.schedule.expiresAt - now);
  }

  private tick(): void {
    if (this.schedule) this.setView({ secondsLeft: secondsLeft(this.schedule, this.now()) });
  }

  private async expire(endedOnServer = false): Promise<void> {
    this.clearTimers();
    this.setView({ busy: true });
    await this.options.api.signOut({ ended: endedOnServer }).catch(() => undefined);
    if (!this.ended) this.end('timeout');
  }

  private end(reason: SignOutReason): void {
    this.stop();
    this.options.channel.post({ type: 'signed-out', reason });
    this.options.onSignedOut(reason);
  }

  private setView(change: Partial<MonitorView>): void {
    const next = { ...this.view, ...change };
    if (next.open === this.view.open && next.secondsLeft === this.view.secondsLeft && next.busy === this.view.busy)
      return;
    this.view = next;
    this.options.onView(next);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private clearTimers(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopTicker();
  }
}
