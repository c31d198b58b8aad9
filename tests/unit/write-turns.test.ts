/** The turns of updates of one record (server/platform/records/write-turns.ts): order, what each is told, the bound. */
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../server/platform/records/representation.ts';
import {
  UPDATES_IN_FLIGHT,
  WRITTEN_KEPT,
  WriteTurns,
  type HeardChanges,
} from '../../server/platform/records/write-turns.ts';

const row = (description: string) =>
  ({ id: '0018d0000000001AAA', fields: { Description: description } }) as unknown as RecordRow;
/** A record as an update left it, at a SystemModstamp. */
const saved = (id: string, description: string, modstamp: string) =>
  ({ id, fields: { Description: description }, system_modstamp: modstamp }) as unknown as RecordRow;
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WriteTurns', () => {
  it('gives the first update no expectation, and each next one the record as the one before will leave it', async () => {
    const turns = new WriteTurns();
    const first = await turns.take('a');
    expect(first.expected).toBeUndefined();
    const second = turns.take('a');
    let secondTaken = false;
    void second.then(() => (secondTaken = true));
    await settled();
    expect(secondTaken).toBe(false);
    first.pass(row('one'));
    expect((await second).expected?.fields).toEqual({ Description: 'one' });
  });

  it('tells the next update nothing when the one before was not sent, and forgets a record once every update has ended', async () => {
    const turns = new WriteTurns();
    const first = await turns.take('a');
    const second = turns.take('a');
    first.end();
    const taken = await second;
    expect(taken.expected).toBeUndefined();
    expect(turns.size).toBe(1);
    taken.pass(row('two'));
    taken.pass(row('ignored'));
    taken.end();
    expect(turns.size).toBe(0);
    expect((await turns.take('a')).expected).toBeUndefined();
  });

  it('keeps records apart', async () => {
    const turns = new WriteTurns();
    await turns.take('a');
    const other = await turns.take('b');
    expect(other.expected).toBeUndefined();
    expect(turns.size).toBe(2);
  });

  it(`lets no more than ${UPDATES_IN_FLIGHT} updates of a record be sent and not ended`, async () => {
    const turns = new WriteTurns();
    const sent = [];
    for (let i = 0; i < UPDATES_IN_FLIGHT; i++) {
      const turn = await turns.take('a');
      turn.pass(row(String(i)));
      sent.push(turn);
    }
    const waiting = turns.take('a');
    let taken = false;
    void waiting.then(() => (taken = true));
    await settled();
    expect(taken).toBe(false);
    sent[1].end();
    await settled();
    expect(taken).toBe(false);
    sent[0].end();
    expect((await waiting).expected?.fields).toEqual({ Description: String(UPDATES_IN_FLIGHT - 1) });
  });

  describe('the record as the last update left it', () => {
    /** Changes heard, as the test sets them: the mark of now, the records changed since, and the marks asked about. */
    function heard() {
      const state = { mark: 7 as number | undefined, changed: new Set<string>(), asked: [] as number[] };
      const changes: HeardChanges = {
        mark: () => state.mark,
        changedSince: (recordId, mark) => (state.asked.push(mark), state.changed.has(recordId)),
      };
      return { state, turns: new WriteTurns(changes) };
    }

    it('is kept while no change of the record has been heard since its mark, and forgotten once one has', () => {
      const { state, turns } = heard();
      turns.written(saved('a', 'one', '2026-11-27T01:00:00.000Z'));
      expect(turns.lastWritten('a')?.fields).toEqual({ Description: 'one' });
      expect(state.asked).toEqual([7]);
      expect(turns.lastWritten('b')).toBeUndefined();
      state.changed.add('a');
      expect(turns.lastWritten('a')).toBeUndefined();
      state.changed.clear();
      expect(turns.lastWritten('a')).toBeUndefined();
    });

    it('is not kept without a mark (changes may be missed), nor replaced by an earlier one', () => {
      const { state, turns } = heard();
      state.mark = undefined;
      turns.written(saved('a', 'one', '2026-11-27T01:00:00.000Z'));
      expect(turns.lastWritten('a')).toBeUndefined();
      state.mark = 1;
      turns.written(saved('a', 'two', '2026-11-27T01:00:00.002Z'));
      state.mark = 2;
      turns.written(saved('a', 'earlier', '2026-11-27T01:00:00.001Z'));
      expect(turns.lastWritten('a')?.fields).toEqual({ Description: 'two' });
      state.mark = 3;
      turns.written(saved('a', 'three', '2026-11-27 01:00:00.003+00'));
      expect(turns.lastWritten('a')?.fields).toEqual({ Description: 'three' });
    });

    it(`is kept for ${WRITTEN_KEPT} records at most, the one written longest ago forgotten first`, () => {
      const { state, turns } = heard();
      for (let i = 0; i <= WRITTEN_KEPT; i++) {
        state.mark = i;
        turns.written(saved(`r${i}`, String(i), '2026-11-27T01:00:00.000Z'));
      }
      expect(turns.lastWritten('r0')).toBeUndefined();
      expect(turns.lastWritten('r1')?.fields).toEqual({ Description: '1' });
      expect(turns.lastWritten(`r${WRITTEN_KEPT}`)?.fields).toEqual({ Description: String(WRITTEN_KEPT) });
    });

    it('is what an update with none before it in turn, or none sent, is told to expect', async () => {
      const { turns } = heard();
      turns.written(saved('a', 'one', '2026-11-27T01:00:00.000Z'));
      const first = await turns.take('a');
      expect(first.expected?.fields).toEqual({ Description: 'one' });
      const second = turns.take('a');
      first.end();
      expect((await second).expected?.fields).toEqual({ Description: 'one' });
    });
  });
});
