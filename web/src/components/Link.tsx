import type { ReactNode } from 'react';
import { resolveLink } from '../lib/links';
import { useLocation } from '../location';

interface LinkProps {
  /**
   * Kept only when site-relative, a fragment, on the site's own host, mailto: or tel: (lib/links.ts);
   * anything unsafe or off-site becomes a harmless '#'.
   */
  href: string | null | undefined;
  children: ReactNode;
  /** Extra words for screen readers, e.g. where the link leads when its text alone does not say. */
  assistiveText?: string;
  className?: string;
}

/** A link from content: only site links, fragments, mailto: and tel: are followed. */
export function Link({ href, children, assistiveText, className }: LinkProps) {
  const { host } = useLocation();
  const link = resolveLink(href, host);
  return (
    <a href={link.href} className={className} data-link-kind={link.kind}>
      {children}
      {assistiveText && <span className="visually-hidden"> {assistiveText}</span>}
    </a>
  );
}
