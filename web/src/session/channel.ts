/**
 * How the page's tabs keep in step about the session: one tab's Continue Working, sign-out or sign-in
 * reaches the others over a BroadcastChannel (same origin, same browser profile).
 */
export type SignOutReason = 'logout' | 'timeout';

export type SessionMessage<Session> =
  | { type: 'extended'; session: Session; receivedAt: number }
  | { type: 'signed-out'; reason: SignOutReason }
  | { type: 'signed-in' };

export interface SessionChannel<Session> {
  post(message: SessionMessage<Session>): void;
  /** Messages from the other tabs (never the tab's own); returns the unsubscribe. */
  subscribe(listener: (message: SessionMessage<Session>) => void): () => void;
}

export const SESSION_CHANNEL_NAME = 'storefront-session';

/**
 * A channel over one BroadcastChannel (which never hears its own messages, so a tab never hears itself);
 * one that goes nowhere where the browser has none.
 */
export function broadcastSessionChannel<Session>(name = SESSION_CHANNEL_NAME): SessionChannel<Session> {
  if (typeof BroadcastChannel === 'undefined') return { post: () => {}, subscribe: () => () => {} };
  const channel = new BroadcastChannel(name);
  const listeners = new Set<(message: SessionMessage<Session>) => void>();
  channel.onmessage = (event: MessageEvent<SessionMessage<Session>>) => {
    for (const listener of [...listeners]) listener(event.data);
  };
  return {
    post: (message) => channel.postMessage(message),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
