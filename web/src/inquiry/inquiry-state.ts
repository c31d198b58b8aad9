/** What the inquiry form sends, and what its page shows after a post without JavaScript. */
import type { components } from '../../../client/index';

/** The form's fields, by their names: submitInquiry's body (the contract's InquiryInput), every field a string. */
export type InquiryValues = Required<components['schemas']['InquiryInput']>;

/** The answer to a post the server could not save: the values sent, and what was wrong (by field, or in all). */
export interface InquiryPostState {
  values: InquiryValues;
  fieldErrors: Record<string, string[]>;
  errorMessage?: string;
}

/** The query key the server renders a post's answer under, for the page and its hydration to read. */
export const INQUIRY_POST_KEY = ['inquiryPost'] as const;

const FIELD_NAMES = [
  'representativeId',
  'name',
  'email',
  'phone',
  'company',
  'message',
  'idempotencyKey',
  'formToken',
  'website',
] as const;

/** The form's values from a posted body (or FormData): every field a string, missing ones empty, others dropped. */
export function inquiryValuesOf(get: (name: string) => unknown): InquiryValues {
  const values = {} as InquiryValues;
  for (const name of FIELD_NAMES) {
    const value = get(name);
    values[name] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** The field errors and message of a refused inquiry's answer (the Apex error shape), or a general message. */
export function inquiryProblemOf(status: number, body: unknown): Omit<InquiryPostState, 'values'> {
  const apex =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const message =
    typeof apex.errorMessage === 'string'
      ? apex.errorMessage
      : status === 429
        ? 'Too many inquiries from this address: try again later.'
        : 'Your inquiry could not be sent: try again.';
  const fieldErrors =
    typeof apex.fieldErrors === 'object' && apex.fieldErrors !== null
      ? (apex.fieldErrors as Record<string, string[]>)
      : {};
  return { fieldErrors, errorMessage: message };
}
