/** The turns of updates of one record (server/platform/records/write-turns.ts): order, what each is told, the bound. */
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../server/platform/records/representation.ts';
import { UPDATES_IN_FLIGHT, WriteTurns } from '../../server/platform/records/write-turns.ts';

const row = (description: string) => ({ id: '0018d0000000001AAA', fields: { Description: description } }) as unknown as RecordRow;
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
});
