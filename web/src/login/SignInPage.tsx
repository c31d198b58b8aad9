/**
 * The sign-in page, in the store's frame (banner, footer): the e-mail address and password users sign in
 * with, signIn, then back to the page the visitor came from (in a full load, so the server renders it for
 * the user) while the other open tabs learn of the new session.
 *
 * For keyboard and screen-reader users: every field has a visible label; a field left empty or not an
 * e-mail address is marked invalid, described by its message and given the focus; the server's refusal is
 * announced (role=alert) while the focus stays on the button; the button is never disabled while signing
 * in, so the focus is never lost.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isApiError, errorMessageOf } from '../../../client/index';
import { Section } from '../components/layout/Section';
import { StorePage } from '../components/layout/StorePage';
import { usePageContent } from '../content';
import { useLocation } from '../location';
import { useSession } from '../session/SessionProvider';
import { RETURN_PARAM, safeReturnPath } from '../../../common/sign-in';

/** The banner of this page is lower than the Contact Us page's: the form is what the visitor came for. */
const BANNER_HEIGHT = 180;

export const SIGN_IN_TEXT = {
  heading: 'Sign in',
  intro: 'Use the e-mail address and password of your account.',
  email: 'E-mail address',
  password: 'Password',
  emailMissing: 'Enter your e-mail address.',
  emailInvalid: 'Enter an e-mail address like name@example.com.',
  passwordMissing: 'Enter your password.',
  refused: 'The e-mail address or the password is not right. Check them and try again.',
} as const;

export interface SignInProblems {
  email?: string;
  password?: string;
}

/** What is wrong with the form before it is sent; nothing when it may be sent. */
export function signInProblems(email: string, password: string): SignInProblems {
  const problems: SignInProblems = {};
  if (!email) problems.email = SIGN_IN_TEXT.emailMissing;
  else if (!/^[^\s@]+@[^\s@]+$/.test(email)) problems.email = SIGN_IN_TEXT.emailInvalid;
  if (!password) problems.password = SIGN_IN_TEXT.passwordMissing;
  return problems;
}

function messageFor(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return SIGN_IN_TEXT.refused;
    if (error.status === 429) return 'Too many sign-in attempts. Wait a few minutes, then try again.';
    if (error.status === 400) return errorMessageOf(error.body);
    if (error.status === 0) return 'The server could not be reached. Check your connection and try again.';
  }
  return 'Signing in failed. Try again.';
}

export function SignInPage() {
  const content = usePageContent();
  const { session } = useSession();
  const signedIn = session !== undefined && !session.isGuest;
  return (
    <StorePage
      banner={{
        heading: SIGN_IN_TEXT.heading,
        headingTag: 'h1',
        intro: SIGN_IN_TEXT.intro,
        picture: content.banner.picture,
        height: BANNER_HEIGHT,
      }}
      className="sign-in"
    >
      <Section
        className="sign-in__section"
        columns={[
          {
            columnKey: 'sign-in',
            columnName: 'Sign in',
            columnWidth: 12,
            children: <div className="sign-in__card">{signedIn ? <SignedIn /> : <SignInForm />}</div>,
          },
        ]}
      />
    </StorePage>
  );
}

function useReturnPath(): string {
  const { search } = useLocation();
  return safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
}

function SignedIn() {
  const { session, logOut } = useSession();
  const returnPath = useReturnPath();
  return (
    <p className="sign-in__signed-in">
      You are signed in as {session?.displayName ?? session?.userName}. <a href={returnPath}>Back to Contact Us</a> or{' '}
      <button type="button" className="link-button" onClick={() => void logOut()}>
        log out
      </button>
      .
    </p>
  );
}

function SignInForm() {
  const { loadActions, channel } = useSession();
  const returnPath = useReturnPath();
  // Signing in needs the page's script: until it runs (or without it) the button stays disabled.
  const [ready, setReady] = useState(false);
  const busy = useRef(false);
  const [problems, setProblems] = useState<SignInProblems>({});
  const [error, setError] = useState('');
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), emailError: useId(), password: useId(), passwordError: useId(), error: useId() };
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const found = signInProblems(username, password);
    setProblems(found);
    setError('');
    if (found.email || found.password) {
      (found.email ? emailInput : passwordInput).current?.focus();
      return;
    }
    busy.current = true;
    try {
      const actions = await loadActions();
      await actions.signIn({ username, password });
      channel.post({ type: 'signed-in' });
      window.location.assign(returnPath);
    } catch (cause) {
      setError(messageFor(cause));
      busy.current = false;
    }
  }

  return (
    <form
      className="sign-in__form"
      method="post"
      noValidate
      aria-label="Sign in"
      onSubmit={(event) => void submit(event)}
    >
      <div className="sign-in__field">
        <label htmlFor={ids.email}>{SIGN_IN_TEXT.email}</label>
        <input
          ref={emailInput}
          id={ids.email}
          name="username"
          type="email"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-invalid={problems.email ? true : undefined}
          aria-describedby={problems.email ? ids.emailError : undefined}
          onInput={() => problems.email && setProblems({ ...problems, email: undefined })}
        />
        {problems.email && (
          <p id={ids.emailError} className="sign-in__field-error">
            {problems.email}
          </p>
        )}
      </div>
      <div className="sign-in__field">
        <label htmlFor={ids.password}>{SIGN_IN_TEXT.password}</label>
        <input
          ref={passwordInput}
          id={ids.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={problems.password ? true : undefined}
          aria-describedby={problems.password ? ids.passwordError : undefined}
          onInput={() => problems.password && setProblems({ ...problems, password: undefined })}
        />
        {problems.password && (
          <p id={ids.passwordError} className="sign-in__field-error">
            {problems.password}
          </p>
        )}
      </div>
      <p id={ids.error} className="sign-in__error" role="alert">
        {error}
      </p>
      <div className="sign-in__actions">
        <button type="submit" className="button button--brand" disabled={!ready}>
          Sign in
        </button>
        <a href={returnPath}>Back to Contact Us</a>
      </div>
      <noscript>
        <p>Signing in needs JavaScript.</p>
      </noscript>
    </form>
  );
}
