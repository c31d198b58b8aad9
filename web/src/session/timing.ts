/**
 * When the session validator warns and when a session is over, from what the server said about the
 * session. The server's clock decides (expiry times come from the server, never from a guess in the page),
 * and the page's clock may be off: serverTime, read against the page's clock at the moment the answer
 * arrived, gives the offset between the two. Everything here is in the page's clock, in milliseconds.
 */

/** The fields of the contract's SessionRepresentation that the timing depends on. */
export interface SessionTimes {
  isGuest: boolean;
  idleExpiresAt: string | null;
  warnAt: string | null;
  absoluteExpiresAt: string | null;
  warningSeconds: number;
  serverTime: string;
}

export interface SessionSchedule {
  /** When the "Still there?" dialog opens. */
  warnAt: number;
  /** When the session is over (the idle or the absolute expiry, whichever comes first). */
  expiresAt: number;
}

export type SessionPhase = 'active' | 'warning' | 'expired';

const parse = (value: string | null): number | null => {
  if (value === null) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
};

/**
 * The schedule of a signed-in session answered at `receivedAt` (the page's Date.now() when the answer
 * arrived); null for a guest or an answer without expiry times.
 */
export function sessionSchedule(session: SessionTimes, receivedAt: number): SessionSchedule | null {
  if (session.isGuest) return null;
  const serverTime = parse(session.serverTime);
  const idle = parse(session.idleExpiresAt);
  if (serverTime === null || idle === null) return null;
  const absolute = parse(session.absoluteExpiresAt);
  // How far the server's clock is ahead of the page's.
  const skew = serverTime - receivedAt;
  const expiresOnServer = absolute !== null && absolute < idle ? absolute : idle;
  const serverWarnAt = parse(session.warnAt);
  // The server's warnAt belongs to the idle expiry; an earlier absolute expiry gets the same lead time.
  const warnOnServer =
    serverWarnAt !== null && expiresOnServer === idle
      ? serverWarnAt
      : expiresOnServer - Math.max(0, session.warningSeconds) * 1000;
  return { warnAt: warnOnServer - skew, expiresAt: expiresOnServer - skew };
}

export function sessionPhase(schedule: SessionSchedule, now: number): SessionPhase {
  if (now >= schedule.expiresAt) return 'expired';
  if (now >= schedule.warnAt) return 'warning';
  return 'active';
}

/** Milliseconds until the phase next changes; null once the session is over. */
export function untilNextPhase(schedule: SessionSchedule, now: number): number | null {
  if (now >= schedule.expiresAt) return null;
  if (now >= schedule.warnAt) return schedule.expiresAt - now;
  return schedule.warnAt - now;
}

/** Whole seconds left before the session is over, as the dialog's countdown shows them. */
export function secondsLeft(schedule: SessionSchedule, now: number): number {
  return Math.max(0, Math.ceil((schedule.expiresAt - now) / 1000));
}

/** The countdown as m:ss. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
