/** The loading, empty and error states every screen of the back office shows the same way. */
import type { ReactNode } from 'react';
import { errorMessageOf, isApiError } from '../../../client/index';

/** A wait, announced politely to screen readers. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="bo-state" role="status">
      Loading {what}…
    </p>
  );
}

/** A message in place of a screen's content: a heading when it stands for the whole screen. */
export function Message({
  heading,
  tone = 'info',
  children,
}: {
  heading?: string;
  tone?: 'info' | 'error';
  children: ReactNode;
}) {
  const Tag = heading ? 'section' : 'div';
  return (
    <Tag className={`bo-state bo-state--${tone}`} role={tone === 'error' ? 'alert' : undefined}>
      {heading && <h1 className="bo-state__heading">{heading}</h1>}
      <p>{children}</p>
    </Tag>
  );
}

/** A failed call, said in the API's own words when it gave some. */
export function LoadError({ what, error }: { what: string; error: unknown }) {
  return (
    <div className="bo-state bo-state--error" role="alert">
      <p>
        {what} could not be loaded. {reasonOf(error)}
      </p>
    </div>
  );
}

/** What went wrong, in the API's words when it answered, else that it did not. */
function reasonOf(error: unknown): string {
  if (isApiError(error) && error.status !== 0) return errorMessageOf(error.body);
  return 'The server did not answer: check the connection and try again.';
}
