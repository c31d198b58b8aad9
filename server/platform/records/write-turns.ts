/**
 * One update at a time per record from a server process, each told what the one before leaves.
 *
 * Updates of one record take its row lock in turn anyway. Waiting for the turn here, before a connection of the
 * pool is taken, keeps the pool for everything else: without it, a record updated many times at once (an Account
 * every user edits, say) fills the pool with transactions that wait for its lock, and every request of the process
 * that reads the database waits behind them.
 *
 * The turn passes on as soon as its holder sends its update, with the record as that update will leave it: the
 * next update is checked against that and sent at once, written if the record is as expected when its turn comes
 * in the database (updateRecord). So a record updated many times at once is written one statement after another,
 * with at most UPDATES_IN_FLIGHT connections of the pool on it. Other processes on the same database take their own turns;
 * the row lock orders them all. An update with none before it in turn is checked, likewise, against the record as
 * this process's last update of it left it, while no change of the record has been heard since (lastWritten).
 */
import type { Database } from '../../db/connection.ts';
import { changedSince, recordChangeMark } from '../../cache/record-changes.ts';
import { millisOf, type RecordRow } from './representation.ts';

/** What this process has heard of changes of records (server/cache/record-changes.ts). */
export interface HeardChanges {
  /** The mark to keep a record at; undefined while changes may be missed. */
  mark(): number | undefined;
  /** Whether a change of the record has been heard since the mark. */
  changedSince(recordId: string, mark: number): boolean;
}

/** Nothing heard: no mark, so nothing is kept. */
const NOTHING_HEARD: HeardChanges = { mark: () => undefined, changedSince: () => true };

export interface WriteTurn {
  /**
   * The record as the update before this one in turn will leave it, if that one was sent; else as this process's
   * last update of it left it, if no change of it has been heard since (lastWritten).
   */
  expected?: RecordRow;
  /** Lets the next update go (once, however often it is called), with the record as this update will leave it. */
  pass: (planned?: RecordRow) => void;
  /** This update is over (written or not): passes the turn if it has not passed. */
  end: () => void;
}

interface Turn {
  /** The record as the update will leave it, once sent (undefined if it was not) and its gate has opened. */
  sent: Promise<RecordRow | undefined>;
  ended: Promise<void>;
}

/** How many updates of one record may be sent and not yet ended: each holds a connection of the pool. */
export const UPDATES_IN_FLIGHT = 8;

/** Records whose last update (lastWritten) is kept at most: past it, the one written longest ago is forgotten. */
export const WRITTEN_KEPT = 1_000;

export class WriteTurns {
  /** Per record: the last turns taken, the last one the one a new update waits for. */
  readonly #recent = new Map<string, Turn[]>();
  /** Per record: the record as this process's last update of it left it, and the change mark it was kept at. */
  readonly #written = new Map<string, { row: RecordRow; mark: number }>();
  readonly #changes: HeardChanges;

  constructor(changes: HeardChanges = NOTHING_HEARD) {
    this.#changes = changes;
  }

  /**
   * Keeps the record as an update left it, at the change mark of now: call it once this process has heard of that
   * update. The next update of it, with none in turn before it, is checked against that rather than read first,
   * for as long as no change of the record has been heard since (lastWritten). A later row of the record (by
   * SystemModstamp) is never replaced by an earlier one.
   */
  written(row: RecordRow): void {
    const mark = this.#changes.mark();
    const kept = this.#written.get(row.id);
    if (mark === undefined || (kept && millisOf(kept.row.system_modstamp) > millisOf(row.system_modstamp))) return;
    this.#written.delete(row.id);
    if (this.#written.size >= WRITTEN_KEPT) this.#written.delete(this.#written.keys().next().value!);
    this.#written.set(row.id, { row, mark });
  }

  /** The record as this process's last update of it left it, if no change of it has been heard since. */
  lastWritten(recordId: string): RecordRow | undefined {
    const kept = this.#written.get(recordId);
    if (!kept) return undefined;
    if (!this.#changes.changedSince(recordId, kept.mark)) return kept.row;
    this.#written.delete(recordId);
    return undefined;
  }

  /**
   * Waits for the record's turn: the update before has been sent, and no more than UPDATES_IN_FLIGHT - 1 others
   * are sent and not ended.
   */
  async take(recordId: string): Promise<WriteTurn> {
    let recent = this.#recent.get(recordId);
    if (!recent) this.#recent.set(recordId, (recent = []));
    const previous = recent.at(-1);
    // The update whose end lets this one's successor go: UPDATES_IN_FLIGHT - 1 turns back.
    const gate = recent.length >= UPDATES_IN_FLIGHT - 1 ? recent[recent.length - (UPDATES_IN_FLIGHT - 1)] : undefined;
    let sent!: (planned: RecordRow | undefined) => void;
    let ended!: () => void;
    const mine: Turn = {
      sent: new Promise((resolve) => (sent = resolve)),
      ended: new Promise((resolve) => (ended = resolve)),
    };
    recent.push(mine);
    if (recent.length > UPDATES_IN_FLIGHT - 1) recent.shift();
    const expected = (previous ? await previous.sent : undefined) ?? this.lastWritten(recordId);
    let passed = false;
    let over = false;
    const pass = (planned?: RecordRow) => {
      if (passed) return;
      passed = true;
      if (gate) void gate.ended.then(() => sent(planned));
      else sent(planned);
    };
    return {
      expected,
      pass,
      end: () => {
        if (over) return;
        over = true;
        pass();
        const now = this.#recent.get(recordId);
        if (now?.at(-1) === mine) this.#recent.delete(recordId);
        ended();
      },
    };
  }

  /** Records with an update in turn or waiting: none once every update has ended. */
  get size(): number {
    return this.#recent.size;
  }
}

const turns = new WeakMap<Database, WriteTurns>();

/** The update turns of a database handle's process. */
export function writeTurnsOf(db: Database): WriteTurns {
  let of = turns.get(db);
  if (!of)
    turns.set(
      db,
      (of = new WriteTurns({
        mark: () => recordChangeMark(db),
        changedSince: (id, mark) => changedSince(db, [id], mark),
      })),
    );
  return of;
}
