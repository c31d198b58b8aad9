/**
 * Previous and next page of a list view, by the page tokens of the records' answer: real links (a page can be
 * opened in a new tab, or shared), or a disabled mark where there is no such page.
 */
import { PageLink } from '../../location';

export function ListPager({ previousHref, nextHref }: { previousHref?: string; nextHref?: string }) {
  return (
    <nav className="bo-pager" aria-label="Pages of the list">
      <PagerLink href={previousHref}>Previous page</PagerLink>
      <PagerLink href={nextHref}>Next page</PagerLink>
    </nav>
  );
}

function PagerLink({ href, children }: { href?: string; children: string }) {
  if (href === undefined)
    return (
      <span className="bo-button bo-button--disabled" aria-disabled="true">
        {children}
      </span>
    );
  return (
    <PageLink className="bo-button" href={href}>
      {children}
    </PageLink>
  );
}
