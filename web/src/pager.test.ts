import { describe, expect, it } from 'vitest';
import { pageCountFor, pageList } from './pager';

describe('pageList', () => {
  it('shows nothing when there are no pages', () => {
    expect(pageList(1, 0)).toEqual([]);
  });

  it('shows a single page', () => {
    expect(pageList(1, 1)).toEqual([1]);
  });

  it('shows every page when there are 7', () => {
    for (const current of [1, 4, 7]) {
      expect(pageList(current, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
  });

  describe('with 8 pages', () => {
    it('at the start shows 1-5, an ellipsis and the last page', () => {
      expect(pageList(1, 8)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 8]);
    });

    it('on page 4, the last page of the start rule, still shows 1-5', () => {
      expect(pageList(4, 8)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 8]);
    });

    it('in the middle (page 5 is within 3 of the end) shows the first page and the last 5', () => {
      expect(pageList(5, 8)).toEqual([1, 'ellipsis', 4, 5, 6, 7, 8]);
    });

    it('at the end shows the first page, an ellipsis and the last 5', () => {
      expect(pageList(8, 8)).toEqual([1, 'ellipsis', 4, 5, 6, 7, 8]);
    });
  });

  describe('with 30 pages', () => {
    it('at the start', () => {
      expect(pageList(1, 30)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 30]);
      expect(pageList(4, 30)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 30]);
    });

    it('in the middle shows the current page and its neighbours between two ellipses', () => {
      expect(pageList(5, 30)).toEqual([1, 'ellipsis', 4, 5, 6, 'ellipsis', 30]);
      expect(pageList(15, 30)).toEqual([1, 'ellipsis', 14, 15, 16, 'ellipsis', 30]);
      expect(pageList(26, 30)).toEqual([1, 'ellipsis', 25, 26, 27, 'ellipsis', 30]);
    });

    it('within 3 of the end', () => {
      expect(pageList(27, 30)).toEqual([1, 'ellipsis', 26, 27, 28, 29, 30]);
      expect(pageList(30, 30)).toEqual([1, 'ellipsis', 26, 27, 28, 29, 30]);
    });
  });

  it('always holds 7 entries when shortened, and the current page', () => {
    for (let current = 1; current <= 30; current++) {
      const list = pageList(current, 30);
      expect(list).toHaveLength(7);
      expect(list).toContain(current);
    }
  });

  it('clamps a current page outside 1..total', () => {
    expect(pageList(0, 30)).toEqual(pageList(1, 30));
    expect(pageList(99, 30)).toEqual(pageList(30, 30));
  });
});

describe('pageCountFor', () => {
  it('rounds partial pages up', () => {
    expect(pageCountFor(0, 12)).toBe(0);
    expect(pageCountFor(1, 12)).toBe(1);
    expect(pageCountFor(12, 12)).toBe(1);
    expect(pageCountFor(13, 12)).toBe(2);
    expect(pageCountFor(360, 12)).toBe(30);
  });
});
