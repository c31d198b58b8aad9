/**
 * Named statements (QueryOptions.prepareAs), on both databases, run on one generic plan.
 *
 * Planning a statement over the record table, with its many indexes, costs more than running it: on PostgreSQL
 * the driver's named statements are still planned again at every run whenever the generic plan's estimate is
 * above a custom one's (an array parameter's always is), and PGlite plans every statement afresh, reading
 * each index's size from the WebAssembly file system. So a named statement is prepared once per session (a
 * PGlite instance, a PostgreSQL connection) with PREPARE, and run with EXECUTE under plan_cache_mode =
 * force_generic_plan, set and reset around it in the same round trip. EXECUTE takes no bind parameters: its
 * arguments are SQL literals, each parameter's text as the driver would send it, quoted, which the statement's
 * parameter type reads as the driver's text would be read.
 *
 * A value with no such text (bytes), or a name met with another statement, takes the ordinary way (the
 * result undefined). Outside a transaction, so does a statement PREPARE refuses (for good) or EXECUTE fails
 * (prepared again at its next use: its tables may have changed shape), which then answers or fails as it
 * would have. In a transaction, whose statements cannot be run again once one failed, the failure is the
 * transaction's; a statement EXECUTE failed is deallocated once the transaction has ended (a prepared
 * statement outlives a rollback).
 */

/** What one session has prepared, by name (the SQL), and what failed in its transaction under way. */
export interface PreparedSession {
  prepared: Map<string, string>;
  stale: Set<string>;
}

export function preparedSession(): PreparedSession {
  return { prepared: new Map(), stale: new Set() };
}

/** Runs statements separated by semicolons (the simple protocol) on a session; one result per statement. */
type RunStatements<R> = (sql: string) => Promise<R[]>;

/** Lends a session and its way of running statements for as long as `use` runs (a pool's connection, say). */
export type WithSession<R> = <T>(use: (session: PreparedSession, run: RunStatements<R>) => Promise<T>) => Promise<T>;

const STATEMENT_NAME = /^[a-z][a-z0-9_]*$/i;
/** The prefix of the statements PREPARE makes: the driver's own named statements share a connection's names. */
const GENERIC = 'generic_';

class NamedStatements {
  /** Names PREPARE refused outside a transaction: the ordinary way for good. */
  readonly #refused = new Set<string>();
  /** The SQL of each name: a name met with another statement takes the ordinary way. */
  readonly #texts = new Map<string, string>();

  /**
   * usable: standard_conforming_strings is on (PostgreSQL's default), under which a backslash in '…' is itself,
   * so that doubling quotes makes a literal.
   */
  constructor(private readonly usable: boolean) {}

  /** The literals of a named statement's parameters, or undefined for the ordinary way. */
  #literals(sql: string, params: unknown[], name: string | undefined): string[] | undefined {
    if (!this.usable || name === undefined || !STATEMENT_NAME.test(name) || this.#refused.has(name)) return undefined;
    const text = this.#texts.get(name);
    if (text === undefined) this.#texts.set(name, sql);
    else if (text !== sql) return undefined;
    const literals = params.map(sqlLiteral);
    return literals.some((literal) => literal === undefined) ? undefined : (literals as string[]);
  }

  /** Outside a transaction, on a session `withSession` lends only when the statement takes this way. */
  async run<R>(
    withSession: WithSession<R>,
    sql: string,
    params: unknown[],
    name: string | undefined,
  ): Promise<R | undefined> {
    const literals = this.#literals(sql, params, name);
    if (!literals || name === undefined) return undefined;
    return withSession((session, run) => this.#execute(session, run, sql, literals, name));
  }

  async #execute<R>(
    session: PreparedSession,
    run: RunStatements<R>,
    sql: string,
    literals: string[],
    name: string,
  ): Promise<R | undefined> {
    if (!session.prepared.has(name)) {
      try {
        await run(`PREPARE "${GENERIC}${name}" AS ${sql}`);
        session.prepared.set(name, sql);
      } catch {
        this.#refused.add(name);
        return undefined;
      }
    }
    try {
      return executedIn(await run(genericExecute(name, literals)), '');
    } catch {
      session.prepared.delete(name);
      await run(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
      return undefined;
    }
  }

  /**
   * In a transaction, with `begin` (BEGIN, when the transaction has not begun yet; else '') sent in the same
   * round trip as the first statement, and `tail` (statements after it: the COMMIT, say) in the same round trip
   * as this one. `began`: whether this run began it; `after`: the results of the tail's statements.
   */
  async runIn<R>(
    session: PreparedSession,
    run: RunStatements<R>,
    begin: string,
    sql: string,
    params: unknown[],
    name: string | undefined,
    tail = '',
  ): Promise<{ result: R; began: boolean; after: R[] } | undefined> {
    const literals = this.#literals(sql, params, name);
    if (!literals || name === undefined) return undefined;
    let pending = begin;
    if (!session.prepared.has(name)) {
      // On its own (with BEGIN): whether PREPARE took is then known for certain.
      await run(`${pending}PREPARE "${GENERIC}${name}" AS ${sql}`);
      session.prepared.set(name, sql);
      pending = '';
    }
    try {
      const results = await run(`${pending}${genericExecute(name, literals)}${tail}`);
      return {
        result: executedIn(results, pending),
        began: begin !== '',
        after: results.slice(executedAt(pending) + 2),
      };
    } catch (error) {
      session.prepared.delete(name);
      session.stale.add(name);
      throw error;
    }
  }

  /** Once a transaction has ended: deallocates the statements that failed in it. */
  async deallocateStale<R>(session: PreparedSession, run: RunStatements<R>): Promise<void> {
    for (const name of session.stale) await run(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
    session.stale.clear();
  }
}

/** EXECUTE of a prepared statement on its generic plan, the setting reset after (undone with it if it fails). */
function genericExecute(name: string, literals: string[]): string {
  return `SET plan_cache_mode = force_generic_plan; EXECUTE "${GENERIC}${name}"${literals.length ? `(${literals.join(', ')})` : ''}; RESET plan_cache_mode`;
}

/** Where genericExecute's EXECUTE is among the results of `${begin}${genericExecute(…)}…`: [BEGIN,] SET, EXECUTE, RESET, then any more. */
const executedAt = (begin: string) => (begin === '' ? 1 : 2);

/** The result of genericExecute's EXECUTE, sent after `begin`. */
function executedIn<R>(results: R[], begin: string): R {
  return results[executedAt(begin)];
}

const quoted = (text: string) => (text.includes('\0') ? undefined : `'${text.replaceAll("'", "''")}'`);

/** A parameter's text as the driver sends it (dates in ISO form, arrays as array literals, objects as JSON), as an SQL literal. */
export function sqlLiteral(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return Number.isFinite(Number(value)) || typeof value === 'bigint' ? quoted(String(value)) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : quoted(value.toISOString());
  if (Array.isArray(value)) {
    const text = arrayText(value);
    return text === undefined ? undefined : quoted(text);
  }
  if (value instanceof Uint8Array || ArrayBuffer.isView(value)) return undefined;
  if (typeof value === 'object') return quoted(JSON.stringify(value));
  return undefined;
}

function arrayText(values: unknown[]): string | undefined {
  const items: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) items.push('NULL');
    else if (Array.isArray(value)) {
      const inner = arrayText(value);
      if (inner === undefined) return undefined;
      items.push(inner);
    } else {
      const text =
        value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
      items.push(`"${text.replace(/[\\"]/g, '\\$&')}"`);
    }
  }
  return `{${items.join(',')}}`;
}

/** The named statements of a database, given its standard_conforming_strings (read with `show`). */
export async function namedStatementsOf(show: (sql: string) => Promise<{ rows: unknown[] }>): Promise<NamedStatements> {
  const { rows } = await show('SHOW standard_conforming_strings');
  return new NamedStatements(
    (rows[0] as { standard_conforming_strings?: string } | undefined)?.standard_conforming_strings === 'on',
  );
}
