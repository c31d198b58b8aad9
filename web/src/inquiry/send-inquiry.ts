/**
 * Sends the inquiry form with the typed client (submitInquiry), loaded when the form is first sent: the
 * confirmation's case number, or the field errors and message to show beside the fields.
 */
import type { ApiClient } from '../../../client/index';
import { createApiClient, isApiError } from '../../../client/index';
import { submitInquiry } from '../../../generated/client';
import { inquiryProblemOf, type InquiryValues } from './inquiry-state';

export async function sendInquiry(
  pageApi: ApiClient,
  values: InquiryValues,
  guest: boolean,
): Promise<
  { ok: true; caseNumber: string } | { ok: false; fieldErrors: Record<string, string[]>; errorMessage?: string }
> {
  const { phone, website, ...required } = values;
  // A guest has no session and so no CSRF token to fetch; a signed-in visitor's call carries the session's.
  const api = guest ? createApiClient({ baseUrl: '', csrf: false }) : pageApi;
  try {
    const result = await submitInquiry(api, {
      body: { ...required, ...(phone ? { phone } : {}), ...(website ? { website } : {}) },
    });
    return { ok: true, caseNumber: result.caseNumber };
  } catch (error) {
    if (isApiError(error)) return { ok: false, ...inquiryProblemOf(error.status, error.body) };
    return {
      ok: false,
      fieldErrors: {},
      errorMessage: 'Your inquiry could not be sent: check your connection and try again.',
    };
  }
}
