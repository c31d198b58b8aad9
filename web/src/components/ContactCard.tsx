import type { ContactUsCard } from '../../../client/index';
import { formatPhone, telHref } from '../phone';

export function ContactCard({ contact }: { contact: ContactUsCard }) {
  const headingId = `contact-${contact.Id}`;
  return (
    <article className="contact-card" data-testid="contact-card" aria-labelledby={headingId}>
      <h3 id={headingId} className="contact-card__name">
        {contact.APT_Company_Name__c}
      </h3>
      <address className="contact-card__address">
        {contact.APT_Address_1__c && <span className="contact-card__line">{contact.APT_Address_1__c}</span>}
        {contact.APT_Address_2__c && <span className="contact-card__line">{contact.APT_Address_2__c}</span>}
        {contact.APT_City__c && <span className="contact-card__line">{contact.APT_City__c}</span>}
        {contact.APT_Primary_State__c && <span className="contact-card__line">{contact.APT_Primary_State__c}</span>}
        {contact.APT_UI_Country__c && <span className="contact-card__line">{contact.APT_UI_Country__c}</span>}
        {contact.APT_Zip__c && <span className="contact-card__line">{contact.APT_Zip__c}</span>}
      </address>
      <dl className="contact-card__details">
        {contact.APT_Phone__c && (
          <div>
            <dt>Phone</dt>
            <dd>
              <a href={telHref(contact.APT_Phone__c)}>{formatPhone(contact.APT_Phone__c)}</a>
            </dd>
          </div>
        )}
        {contact.APT_Email__c && (
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${contact.APT_Email__c}`}>{contact.APT_Email__c}</a>
            </dd>
          </div>
        )}
        <div>
          <dt>Id</dt>
          <dd className="contact-card__id">{contact.Id}</dd>
        </div>
      </dl>
    </article>
  );
}
