/**
 * The sign-in page: username and password, signIn, then back to the page the visitor came from (in a full
 * load, so the server renders it for the user) while the other open tabs learn of the new session.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { isApiError, errorMessageOf } from '../../../client/index';
import { useLocation } from '../location';
import { useSession } from '../session/SessionProvider';
import { RETURN_PARAM, safeReturnPath } from '../../../common/sign-in';

function messageFor(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 429) return 'Too many sign-in attempts. Wait a few minutes, then try again.';
    if (error.status === 400 || error.status === 401) return errorMessageOf(error.body);
    if (error.status === 0) return 'The server could not be reached. Check your connection and try again.';
  }
  return 'Signing in failed. Try again.';
}

export function SignInPage() {
  const { session, loadActions, channel, logOut } = useSession();
  const { search } = useLocation();
  const returnPath = safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
  // Signing in needs the page's script: until it runs (or without it) the button stays disabled.
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const errorId = useId();
  useEffect(() => setReady(true), []);

  const signedIn = session !== undefined && !session.isGuest;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!username || !password) {
      setError('Enter your username and password.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const actions = await loadActions();
      await actions.signIn({ username, password });
      channel.post({ type: 'signed-in' });
      window.location.assign(returnPath);
    } catch (cause) {
      setError(messageFor(cause));
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1 className="sign-in__heading">Sign in</h1>
      {signedIn ? (
        <p>
          You are signed in as {session.displayName ?? session.userName}. <a href={returnPath}>Back to Contact Us</a> or{' '}
          <button type="button" className="link-button" onClick={() => void logOut()}>
            log out
          </button>
          .
        </p>
      ) : (
        <form className="sign-in__form" method="post" noValidate onSubmit={(event) => void submit(event)} aria-describedby={errorId}>
          <label className="sign-in__field">
            Username
            <input name="username" type="email" autoComplete="username" required spellCheck={false} />
          </label>
          <label className="sign-in__field">
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <p id={errorId} className="sign-in__error" role="alert">
            {error}
          </p>
          <div>
            <button type="submit" className="button button--brand" disabled={!ready || busy}>
              Sign in
            </button>
          </div>
          <noscript>
            <p>Signing in needs JavaScript.</p>
          </noscript>
          <p>
            <a href={returnPath}>Back to Contact Us</a>
          </p>
        </form>
      )}
    </main>
  );
}
