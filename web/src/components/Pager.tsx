import { PageLink } from '../location';
import { pageList } from '../pager';

interface PagerProps {
  current: number;
  pageCount: number;
  /** The address of a page: real links, so that paging works without JavaScript and in new tabs. */
  hrefFor: (page: number) => string;
  onNavigate?: () => void;
}

/** Previous (disabled on page 1), the page list with its ellipses (pageList), next (disabled on the last). */
export function Pager({ current, pageCount, hrefFor, onNavigate }: PagerProps) {
  const items = pageList(current, pageCount);
  return (
    <nav className="pager" aria-label="Pagination">
      <ul className="pager__list">
        <li>
          <StepLink
            label="Previous"
            page={current - 1}
            enabled={current > 1}
            hrefFor={hrefFor}
            onNavigate={onNavigate}
          />
        </li>
        {items.map((item, index) =>
          item === 'ellipsis' ? (
            <li key={`ellipsis-${index}`} className="pager__ellipsis" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <PageLink
                href={hrefFor(item)}
                className="pager__link"
                aria-label={`Page ${item}`}
                aria-current={item === current ? 'page' : undefined}
                onNavigate={onNavigate}
              >
                {item}
              </PageLink>
            </li>
          ),
        )}
        <li>
          <StepLink
            label="Next"
            page={current + 1}
            enabled={current < pageCount}
            hrefFor={hrefFor}
            onNavigate={onNavigate}
          />
        </li>
      </ul>
    </nav>
  );
}

interface StepLinkProps {
  label: 'Previous' | 'Next';
  page: number;
  enabled: boolean;
  hrefFor: (page: number) => string;
  onNavigate?: () => void;
}

function StepLink({ label, page, enabled, hrefFor, onNavigate }: StepLinkProps) {
  const className = `pager__link pager__step pager__step--${label.toLowerCase()}`;
  const content = (
    <>
      <svg className="pager__chevron" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <path
          d={label === 'Previous' ? 'M10 3.5L5.5 8l4.5 4.5' : 'M6 3.5L10.5 8 6 12.5'}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinecap="round"
        />
      </svg>
      {/* Shown from tablet up; on mobile only the chevron shows and the word is read out. */}
      <span className="pager__step-label">{label}</span>
    </>
  );
  if (!enabled) {
    // A link without href is not focusable and goes nowhere: the disabled state of a link.
    return (
      <a role="link" aria-disabled="true" className={className}>
        {content}
      </a>
    );
  }
  return (
    <PageLink
      href={hrefFor(page)}
      rel={label === 'Previous' ? 'prev' : 'next'}
      className={className}
      onNavigate={onNavigate}
    >
      {content}
    </PageLink>
  );
}
