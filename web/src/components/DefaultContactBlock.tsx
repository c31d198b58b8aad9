import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getDefaultContactsQuery } from '../../../client/queries';
import { useApiClient } from '../api-client';
import { telHref } from '../phone';

/** The company's default contact: the first record the server returns; nothing until loaded or on error. */
export function DefaultContactBlock() {
  const api = useApiClient();
  const { data, error } = useQuery(getDefaultContactsQuery(api));

  useEffect(() => {
    // Product spec §8: a failed load is logged only; the block stays empty.
    if (error) console.error('Error fetching default contact', error);
  }, [error]);

  const contact = data?.[0];
  if (!contact) return null;

  const addressLine2 = [contact.APT_Address_2__c, contact.APT_Primary_State__c].filter(Boolean).join(', ');
  return (
    <section className="default-contact" aria-labelledby="default-contact-name">
      <address className="default-contact__address">
        <h2 id="default-contact-name" className="default-contact__name">
          {contact.APT_Company_Name__c}
        </h2>
        {contact.APT_Address_1__c && <p>{contact.APT_Address_1__c}</p>}
        {addressLine2 && <p>{addressLine2}</p>}
        {contact.APT_Country__c && <p>{contact.APT_Country__c}</p>}
        {contact.APT_Zip__c && <p>{contact.APT_Zip__c}</p>}
        {contact.APT_Phone__c && (
          <p>
            Phone: <a href={telHref(contact.APT_Phone__c)}>{contact.APT_Phone__c}</a>
          </p>
        )}
      </address>
    </section>
  );
}
