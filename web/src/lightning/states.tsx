/** The loading, empty and error states every screen of the back office shows the same way. */
import type { ReactNode } from 'react';
import { errorMessageOf, isApiError } from '../../../client/index';
import { PageLink } from '../location';
import { objectHomeHref } from './routes';

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

/** Whether a record's read failed for an id the user cannot open: none such (404), or not an id of any object (400). */
export function isUnknownRecord(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}

/** A record's screen for an id that opens no record, with the way back to its object's list. */
export function RecordNotFound({ objectApiName }: { objectApiName: string }) {
  return (
    <Message heading="Record not found" tone="error">
      This record doesn’t exist, or you don’t have access to it.{' '}
      <PageLink href={objectHomeHref(objectApiName)}>Back to the list</PageLink>
    </Message>
  );
}
