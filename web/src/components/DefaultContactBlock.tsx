import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getDefaultContactsQuery } from '../../../client/react';
import { useApiClient } from '../api-client';
import { formatPhone, telHref } from '../phone';
import type { SupportRow } from '../../../common/support-lines';
import { SupportLines } from './SupportLines';

/**
 * The company's default contact (docs/product-spec.md §2, §4): the first record the server returns, on
 * the left; the support lines on the right once there are any. Nothing until loaded, nothing on error.
 */
export function DefaultContactBlock({ supportRows }: { supportRows: readonly SupportRow[] }) {
  const api = useApiClient();
  const { data, error } = useQuery(getDefaultContactsQuery(api));

  useEffect(() => {
    // A failed load is logged only, with no message to the visitor; the block stays empty.
    if (error) console.error('Error fetching default contact', error);
  }, [error]);

  const contact = data?.[0];
  if (!contact || error) return null;

  const addressLine2 = [contact.APT_Address_2__c, contact.APT_Primary_State__c].filter(Boolean).join(', ');
  return (
    <section className="default-contact" aria-labelledby="default-contact-name" data-testid="default-contact">
      <address className="default-contact__primary">
        <h2 id="default-contact-name" className="default-contact__name">
          {contact.APT_Company_Name__c}
        </h2>
        {contact.APT_Address_1__c && <p>{contact.APT_Address_1__c}</p>}
        {addressLine2 && <p>{addressLine2}</p>}
        {contact.APT_Country__c && <p>{contact.APT_Country__c}</p>}
        {contact.APT_Zip__c && <p>{contact.APT_Zip__c}</p>}
        {contact.APT_Phone__c && (
          <p>
            Phone: <a href={telHref(contact.APT_Phone__c)}>{formatPhone(contact.APT_Phone__c)}</a>
          </p>
        )}
      </address>
      {supportRows.length > 0 && (
        <div className="default-contact__secondary">
          <SupportLines rows={supportRows} />
        </div>
      )}
    </section>
  );
}
