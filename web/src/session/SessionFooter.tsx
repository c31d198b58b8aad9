/** The store's footer: who is signed in, and the Sign in or Log out link. */
import { useState } from 'react';
import { SIGN_IN_PATH, signInHref } from '../../../common/sign-in';
import { useLocation } from '../location';
import { useSession } from './SessionProvider';

export function SessionFooter() {
  const { session, logOut } = useSession();
  const { pathname, search } = useLocation();
  const [busy, setBusy] = useState(false);
  const signedIn = session !== undefined && !session.isGuest;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        {signedIn ? (
          <>
            <span>Signed in as {session.displayName ?? session.userName ?? 'a user'}</span>
            <button
              type="button"
              className="link-button"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void logOut().finally(() => setBusy(false));
              }}
            >
              Log out
            </button>
          </>
        ) : pathname === SIGN_IN_PATH ? (
          // On the sign-in page itself, the way back rather than a link to the same page.
          <a href="/">Contact Us</a>
        ) : (
          <a href={signInHref(pathname, search)}>Sign in</a>
        )}
      </div>
    </footer>
  );
}
