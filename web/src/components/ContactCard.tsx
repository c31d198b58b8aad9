import type { ContactUsCard } from '../../../client/index';
import { formatPhone, telHref } from '../phone';
import { inquiryPathOf, representativePath } from '../../../common/pages';

/**
 * One contact: company, address, phone, e-mail and the record Id, as every card shows them; an address line 2
 * that only repeats the city is shown once.
 */
export function ContactCard({ contact, distance }: { contact: ContactUsCard; distance?: string }) {
  const headingId = `contact-${contact.Id}`;
  const cityLine = [contact.APT_City__c, [contact.APT_Primary_State__c, contact.APT_Zip__c].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <article className="contact-card" data-testid="contact-card" aria-labelledby={headingId}>
      <h3 id={headingId} className="contact-card__name">
        {/* The representative's own page; the link's name is the company's. */}
        <a href={representativePath(contact.Id)}>{contact.APT_Company_Name__c}</a>
      </h3>
      {distance && <p className="contact-card__distance">{distance}</p>}
      <address className="contact-card__address">
        {contact.APT_Address_1__c && <span className="contact-card__line">{contact.APT_Address_1__c}</span>}
        {/* Line 2 holds the city in some records (the company's own, for its default-contact block): not twice. */}
        {contact.APT_Address_2__c && contact.APT_Address_2__c !== contact.APT_City__c && (
          <span className="contact-card__line">{contact.APT_Address_2__c}</span>
        )}
        {cityLine && <span className="contact-card__line">{cityLine}</span>}
        {contact.APT_UI_Country__c && <span className="contact-card__line">{contact.APT_UI_Country__c}</span>}
      </address>
      <ul className="contact-card__channels">
        {contact.APT_Phone__c && (
          <li>
            <PhoneIcon />
            <span className="visually-hidden">Phone: </span>
            <a href={telHref(contact.APT_Phone__c)}>{formatPhone(contact.APT_Phone__c)}</a>
          </li>
        )}
        {contact.APT_Email__c && (
          <li>
            <MailIcon />
            <span className="visually-hidden">Email: </span>
            <a href={`mailto:${contact.APT_Email__c}`}>{contact.APT_Email__c}</a>
          </li>
        )}
      </ul>
      <p className="contact-card__id">
        <span className="contact-card__id-label">Id</span> {contact.Id}
      </p>
      <p className="contact-card__inquiry">
        <a href={inquiryPathOf(contact.Id)} aria-describedby={headingId}>
          Contact this representative
        </a>
      </p>
    </article>
  );
}

function PhoneIcon() {
  return (
    <svg className="contact-card__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M4.6 1.5l1.9 3.1-1.3 1.5a8.6 8.6 0 004.7 4.7l1.5-1.3 3.1 1.9-.9 2.7c-.2.5-.7.9-1.3.8C6.9 14.3 1.7 9.1 1.1 3.7c-.1-.6.3-1.1.8-1.3z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function MailIcon() {
  return (
    <svg className="contact-card__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <rect x="1.5" y="3" width="13" height="10" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.3" />
      <path d="M2 4l6 5 6-5" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}
