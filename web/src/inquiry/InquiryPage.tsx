/**
 * The inquiry form of a representative (/reps/{recordId}/inquiry): who it goes to (the representative's
 * company, place and brands, from getContact; an Id that names no representative is the page not found, which the
 * server answers with 404, web/ssr/render.tsx), and a plain form that posts to its own address (web/ssr/index.ts
 * answers 303 to the confirmation, or this page again with the field errors and the values sent). The page is
 * rendered on the server alone, and no app hydrates it. The form's idempotency key and token come from
 * getInquiryForm, run for each render: the page is never kept in the guests' page cache.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getInquiryFormQuery } from '../../../client/react';
import { useApiClient } from '../api-client';
import { useLocation } from '../location';
import { Section } from '../components/layout/Section';
import { StorePage } from '../components/layout/StorePage';
import { usePageContent } from '../content';
import { INQUIRY_LIMITS } from '../../../common/inquiry';
import { inquiryRecordIdOf } from '../../../common/pages';
import { NotFoundPage } from '../NotFoundPage';
import { representativeQuery } from '../representative/representative';
import { INQUIRY_POST_KEY, type InquiryPostState, type InquiryValues } from './inquiry-state';

const FIELDS: {
  name: keyof typeof INQUIRY_LIMITS;
  label: string;
  type: string;
  autoComplete: string;
  required: boolean;
}[] = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name', required: true },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', required: true },
  { name: 'phone', label: 'Phone (optional)', type: 'tel', autoComplete: 'tel', required: false },
  { name: 'company', label: 'Company', type: 'text', autoComplete: 'organization', required: true },
];

export function InquiryPage() {
  const { pathname, search } = useLocation();
  const recordId = inquiryRecordIdOf(pathname) ?? '';
  const sent = new URLSearchParams(search).get('sent');
  const { banner } = usePageContent();
  const api = useApiClient();
  // Rendered on the server alone, from the query the server ran: a failed one stays failed.
  const contact = useQuery({ ...representativeQuery(api, recordId), retryOnMount: false });
  if (contact.isError) return <NotFoundPage />;
  const rep = contact.data;
  const heading = rep ? `Contact ${rep.APT_Company_Name__c}` : 'Contact a representative';
  const place = rep
    ? [rep.APT_City__c, rep.APT_Primary_State__c, rep.APT_UI_Country__c].filter(Boolean).join(', ')
    : '';
  const brands = rep?.APT_Brand__c ? rep.APT_Brand__c.split(';').join(', ') : '';
  return (
    <StorePage banner={{ ...banner, heading, headingTag: 'h1', intro: undefined, height: 180 }}>
      <Section
        className="inquiry"
        columns={[
          {
            columnKey: 'inquiry',
            columnName: 'Inquiry',
            columnWidth: 12,
            children: (
              <>
                {rep && (
                  <dl className="inquiry__to" data-testid="inquiry-representative">
                    <dt>Representative</dt>
                    <dd>{rep.APT_Company_Name__c}</dd>
                    {place && (
                      <>
                        <dt>Place</dt>
                        <dd>{place}</dd>
                      </>
                    )}
                    {brands && (
                      <>
                        <dt>Brands</dt>
                        <dd>{brands}</dd>
                      </>
                    )}
                  </dl>
                )}
                {sent ? <Confirmation caseNumber={sent} /> : <InquiryForm recordId={recordId} />}
              </>
            ),
          },
        ]}
      />
    </StorePage>
  );
}

function Confirmation({ caseNumber }: { caseNumber: string }) {
  return (
    <section className="inquiry__sent" aria-labelledby="inquiry-sent" data-testid="inquiry-sent">
      <h2 id="inquiry-sent">Your inquiry was sent</h2>
      <p>
        Its reference is <strong>{caseNumber}</strong>. The representative&apos;s team will answer you; no e-mail is
        sent to you by this site.
      </p>
      <p>
        <a href="/">Back to the Contact Us page</a>
      </p>
    </section>
  );
}

function InquiryForm({ recordId }: { recordId: string }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  // The answer of a post the server could not save, rendered by it: the values sent and what was wrong.
  const posted = queryClient.getQueryData<InquiryPostState>(INQUIRY_POST_KEY);
  // A new form's key and token; a form posted again keeps those it was sent with.
  const form = useQuery({ ...getInquiryFormQuery(api), enabled: !posted });
  const fieldErrors = posted?.fieldErrors ?? {};
  const values: Partial<InquiryValues> = posted?.values ?? {};
  const idempotencyKey = posted?.values.idempotencyKey ?? form.data?.idempotencyKey ?? '';
  const formToken = posted?.values.formToken ?? form.data?.formToken ?? '';
  const problems = Object.entries(fieldErrors);

  const errorOf = (name: string) => fieldErrors[name]?.[0];
  return (
    <form className="inquiry__form" method="post" noValidate aria-describedby="inquiry-note">
      <div role="alert" className="inquiry__summary" data-testid="inquiry-errors">
        {posted?.errorMessage && (
          <>
            <p>{posted.errorMessage}</p>
            {problems.length > 0 && (
              <ul>
                {problems.map(([name, messages]) => (
                  <li key={name}>
                    <a href={`#inquiry-${name === 'representativeId' ? 'name' : name}`}>{messages[0]}</a>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <p id="inquiry-note">
        Fields marked * are required. Your inquiry is saved for the representative&apos;s team; no e-mail is sent.
      </p>
      <input type="hidden" name="representativeId" value={recordId} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <input type="hidden" name="formToken" value={formToken} />
      {FIELDS.map((field) => (
        <p className="inquiry__field" key={field.name}>
          <label htmlFor={`inquiry-${field.name}`}>
            {field.label}
            {field.required && ' *'}
          </label>
          <input
            id={`inquiry-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete={field.autoComplete}
            required={field.required}
            maxLength={INQUIRY_LIMITS[field.name]}
            defaultValue={values[field.name] ?? ''}
            aria-invalid={errorOf(field.name) ? true : undefined}
            aria-describedby={errorOf(field.name) ? `inquiry-${field.name}-error` : undefined}
          />
          {errorOf(field.name) && (
            <span id={`inquiry-${field.name}-error`} className="inquiry__error">
              {errorOf(field.name)}
            </span>
          )}
        </p>
      ))}
      <p className="inquiry__field">
        <label htmlFor="inquiry-message">Message *</label>
        <textarea
          id="inquiry-message"
          name="message"
          rows={6}
          required
          maxLength={INQUIRY_LIMITS.message}
          defaultValue={values.message ?? ''}
          aria-invalid={errorOf('message') ? true : undefined}
          aria-describedby={errorOf('message') ? 'inquiry-message-error' : undefined}
        />
        {errorOf('message') && (
          <span id="inquiry-message-error" className="inquiry__error">
            {errorOf('message')}
          </span>
        )}
      </p>
      {/* Left empty by people, who neither see it nor reach it; an inquiry with a value here is refused. */}
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor="inquiry-website">Website</label>
        <input id="inquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p>
        <button type="submit" className="button">
          Send inquiry
        </button>
      </p>
    </form>
  );
}
