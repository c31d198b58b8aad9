/** A fake database handle that listens, for unit tests of what subscribes to notifications. */
import type { Database } from '../../server/db/connection.ts';

/** The handle; notify() delivers a notification on every channel, live says whether none may be missed. */
export function listeningHandle() {
  const listeners: ((payload: string | null) => void)[] = [];
  const channels: string[] = [];
  const state = { live: true };
  const db = {
    query: async () => ({ rows: [] }),
    listen: async (channel: string, onNotify: (payload: string | null) => void) => {
      channels.push(channel);
      listeners.push(onNotify);
      return {
        get live() {
          return state.live;
        },
        unlisten: async () => {},
      };
    },
  } as unknown as Database;
  return {
    db,
    channels,
    state,
    notify: (payload: string | null) => listeners.forEach((listener) => listener(payload)),
  };
}
