/**
 * A representative's own page (/reps/{recordId}): its company, address, phone and e-mail as links, its brands,
 * "Contact this representative" (the inquiry form), "Save contact (vCard)", "Copy link", and the way back to the
 * locator. An Id that names no representative is
 * the page not found (the server answers it with 404, web/ssr/index.ts).
 *
 * Rendered on the server alone (web/ssr/render.tsx gives it to Root in place of the app): everything on it is a
 * link but Copy link, which copy-link.ts, the one script the browser loads for it (boot.ts), makes work. So the
 * app is not loaded on it, and the storefront's initial JS does not carry it.
 */
import { useQuery } from '@tanstack/react-query';
import { inquiryPathOf, representativePath } from '../../../common/pages';
import { useApiClient } from '../api-client';
import { Section } from '../components/layout/Section';
import { StorePage } from '../components/layout/StorePage';
import { Spinner } from '../components/Spinner';
import { usePageContent } from '../content';
import { locatorSearch } from '../locator-params';
import { NotFoundPage } from '../NotFoundPage';
import { formatPhone, telHref } from '../phone';
import { brandsOf, cityLine, representativeQuery, streetLines, type Representative } from './representative';

export function RepresentativePage({ recordId }: { recordId: string }) {
  const api = useApiClient();
  const { banner } = usePageContent();
  // The page is rendered on the server alone, from the query the server ran: a failed one stays failed.
  const { data, isError } = useQuery({ ...representativeQuery(api, recordId), retryOnMount: false });
  if (isError) return <NotFoundPage />;
  return (
    <StorePage
      banner={{
        ...banner,
        heading: data?.APT_Company_Name__c ?? 'Representative',
        headingTag: 'h1',
        intro: undefined,
        height: 180,
      }}
      className="representative"
    >
      <Section
        className="representative__section"
        columns={[
          {
            columnKey: 'representative',
            columnName: 'Representative',
            columnWidth: 12,
            children: data ? (
              <Details representative={data} />
            ) : (
              <Spinner alternativeText="Loading the representative" />
            ),
          },
        ]}
      />
    </StorePage>
  );
}

function Details({ representative }: { representative: Representative }) {
  const path = representativePath(representative.Id);
  const brands = brandsOf(representative);
  const city = cityLine(representative);
  const back = `/${locatorSearch({
    brand: null,
    country: representative.APT_Country__c,
    state: representative.APT_Primary_State__c,
    page: 1,
  })}`;
  return (
    <div className="representative__card">
      <h2 className="representative__heading">Contact details</h2>
      <address className="representative__address">
        {streetLines(representative).map((line) => (
          <span key={line} className="representative__line">
            {line}
          </span>
        ))}
        {city && <span className="representative__line">{city}</span>}
        {representative.APT_UI_Country__c && (
          <span className="representative__line">{representative.APT_UI_Country__c}</span>
        )}
      </address>
      <dl className="representative__channels">
        {representative.APT_Phone__c && (
          <div>
            <dt>Phone</dt>
            <dd>
              <a href={telHref(representative.APT_Phone__c)}>{formatPhone(representative.APT_Phone__c)}</a>
            </dd>
          </div>
        )}
        {representative.APT_Email__c && (
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${representative.APT_Email__c}`}>{representative.APT_Email__c}</a>
            </dd>
          </div>
        )}
        {brands.length > 0 && (
          <div>
            <dt>Brands</dt>
            <dd>{brands.join(', ')}</dd>
          </div>
        )}
      </dl>
      <p className="representative__actions">
        <a className="button button--brand" href={inquiryPathOf(representative.Id)}>
          Contact this representative
        </a>
        <a className="button button--neutral" href={`${path}/vcard`} download>
          Save contact (vCard)
        </a>
        <CopyLink />
      </p>
      <p>
        <a href={back}>Back to the locator</a>
      </p>
    </div>
  );
}

/**
 * Copy link: copy-link.ts copies the page's address and says so in the live region after the button. Until that
 * script has loaded the button does nothing (it is not a form's).
 */
function CopyLink() {
  return (
    <>
      <button type="button" className="button button--neutral" data-copy-link="">
        Copy link
      </button>
      <span className="representative__said" role="status" data-copy-link-status="" />
    </>
  );
}
