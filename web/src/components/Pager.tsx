import { pageList } from '../pager';

interface PagerProps {
  current: number;
  pageCount: number;
  onChange: (page: number) => void;
}

export function Pager({ current, pageCount, onChange }: PagerProps) {
  const items = pageList(current, pageCount);
  return (
    <nav className="pager" aria-label="Pagination">
      <ul className="pager__list">
        <li>
          <button
            type="button"
            className="pager__button pager__step"
            disabled={current <= 1}
            onClick={() => onChange(current - 1)}
          >
            Previous
          </button>
        </li>
        {items.map((item, index) =>
          item === 'ellipsis' ? (
            <li key={`ellipsis-${index}`} className="pager__ellipsis" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className="pager__button"
                aria-label={`Page ${item}`}
                aria-current={item === current ? 'page' : undefined}
                onClick={() => onChange(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className="pager__button pager__step"
            disabled={current >= pageCount}
            onClick={() => onChange(current + 1)}
          >
            Next
          </button>
        </li>
      </ul>
    </nav>
  );
}
