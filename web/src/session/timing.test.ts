import { describe, expect, it } from 'vitest';
import {
  formatCountdown,
  secondsLeft,
  sessionPhase,
  sessionSchedule,
  untilNextPhase,
  type SessionTimes,
} from './timing';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A session as the server answers it at server time `serverNow`, with a 30-minute idle timeout. */
function answer(serverNow: number, overrides: Partial<SessionTimes> = {}): SessionTimes {
  const idle = serverNow + 30 * 60_000;
  return {
    isGuest: false,
    idleExpiresAt: iso(idle),
    warnAt: iso(idle - 30_000),
    absoluteExpiresAt: iso(serverNow + 8 * 3600_000),
    warningSeconds: 30,
    serverTime: iso(serverNow),
    ...overrides,
  };
}

describe('sessionSchedule', () => {
  it('takes the times from the server when the clocks agree', () => {
    expect(sessionSchedule(answer(T0), T0)).toEqual({ warnAt: T0 + 30 * 60_000 - 30_000, expiresAt: T0 + 30 * 60_000 });
  });

  it('moves the times onto the page clock when the server clock is ahead or behind', () => {
    // The server is 5 minutes ahead: its expiry comes 30 minutes after the page received the answer.
    const ahead = sessionSchedule(answer(T0 + 5 * 60_000), T0);
    expect(ahead).toEqual({ warnAt: T0 + 30 * 60_000 - 30_000, expiresAt: T0 + 30 * 60_000 });
    const behind = sessionSchedule(answer(T0 - 3 * 60_000), T0);
    expect(behind).toEqual(ahead);
  });

  it('counts from when the answer arrived, not from now', () => {
    const schedule = sessionSchedule(answer(T0), T0 + 1000)!;
    expect(schedule.expiresAt).toBe(T0 + 1000 + 30 * 60_000);
  });

  it('warns before an absolute expiry that comes first', () => {
    const session = answer(T0, { absoluteExpiresAt: iso(T0 + 10 * 60_000) });
    expect(sessionSchedule(session, T0)).toEqual({ warnAt: T0 + 10 * 60_000 - 30_000, expiresAt: T0 + 10 * 60_000 });
  });

  it('uses the warning time the server gives', () => {
    const session = answer(T0, { warnAt: iso(T0 + 30 * 60_000 - 45_000), warningSeconds: 45 });
    expect(sessionSchedule(session, T0)!.warnAt).toBe(T0 + 30 * 60_000 - 45_000);
  });

  it('has nothing to schedule for a guest or an answer without expiry', () => {
    expect(sessionSchedule({ ...answer(T0), isGuest: true }, T0)).toBeNull();
    expect(sessionSchedule(answer(T0, { idleExpiresAt: null, warnAt: null, absoluteExpiresAt: null }), T0)).toBeNull();
    expect(sessionSchedule(answer(T0, { serverTime: 'not a time' }), T0)).toBeNull();
  });
});

describe('phases', () => {
  const schedule = { warnAt: T0 + 10_000, expiresAt: T0 + 40_000 };

  it('warns at T-30 s and not before, and is over at expiry', () => {
    expect(sessionPhase(schedule, T0)).toBe('active');
    expect(sessionPhase(schedule, T0 + 9_999)).toBe('active');
    expect(sessionPhase(schedule, T0 + 10_000)).toBe('warning');
    expect(sessionPhase(schedule, T0 + 39_999)).toBe('warning');
    expect(sessionPhase(schedule, T0 + 40_000)).toBe('expired');
  });

  it('tells how long until the next phase', () => {
    expect(untilNextPhase(schedule, T0)).toBe(10_000);
    expect(untilNextPhase(schedule, T0 + 15_000)).toBe(25_000);
    expect(untilNextPhase(schedule, T0 + 40_000)).toBeNull();
  });

  it('counts whole seconds down to zero', () => {
    expect(secondsLeft(schedule, T0 + 10_000)).toBe(30);
    expect(secondsLeft(schedule, T0 + 10_001)).toBe(30);
    expect(secondsLeft(schedule, T0 + 11_000)).toBe(29);
    expect(secondsLeft(schedule, T0 + 39_500)).toBe(1);
    expect(secondsLeft(schedule, T0 + 45_000)).toBe(0);
    expect(formatCountdown(30)).toBe('0:30');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(61)).toBe('1:01');
  });
});
