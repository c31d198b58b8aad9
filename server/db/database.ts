/** What both databases offer (connection.ts and pglite.ts open one): queries, transactions, notifications. */

export interface QueryOptions {
  /**
   * Keep the statement prepared under this name (on each connection), run on its one generic plan: planned
   * once rather than at every call (see named-statements.ts). Name only statements whose best plan does not
   * depend on their parameter values.
   */
  prepareAs?: string;
  /**
   * The transaction's last statement: on PostgreSQL, a named one carries the transaction's COMMIT in its round
   * trip, so that what it locked is held one round trip less. The transaction then takes no more statements,
   * and nothing the transaction's function does after it may fail (it could no longer be undone).
   */
  last?: boolean;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[] }>;
}

/** A subscription to a notification channel (LISTEN). */
export interface Listening {
  /**
   * False while notifications may be missed (PostgreSQL: the listening connection is down and being
   * re-established): nothing that relies on them may be trusted meanwhile.
   */
  readonly live: boolean;
  unlisten(): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Calls onNotify with the payload of each notification on channel (NOTIFY, pg_notify) from any session,
   * once its transaction commits. Also called, with null, whenever notifications may have been missed
   * (the listening connection was lost, or re-established). A write through this Database returns only
   * after this process's listeners have had the notifications it caused.
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<Listening>;
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
