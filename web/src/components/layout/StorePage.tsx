/**
 * The frame every page of the store shares: the banner at the top (the store's picture, the page's title),
 * the page's own content as the main landmark, and the footer with the session's Sign in or Log out.
 */
import type { ReactNode } from 'react';
import { SessionFooter } from '../../session/SessionFooter';
import { Banner, type BannerContent } from '../Banner';

export function StorePage({
  banner,
  className,
  children,
}: {
  banner: BannerContent;
  className?: string;
  children: ReactNode;
}) {
  return (
    <>
      <Banner {...banner} />
      <main id="main" className={className}>
        {children}
      </main>
      <SessionFooter />
    </>
  );
}
