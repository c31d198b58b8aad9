import { formatPhone, telHref } from '../phone';

const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/;
const PHONE = /^\+?[\d\s().-]+$/;

/** A phone number (formatted, dialable), an e-mail address (mailto:) or plain text, by what the value is. */
export function ContactValue({ value }: { value: string }) {
  const trimmed = value.trim();
  if (EMAIL.test(trimmed)) return <a href={`mailto:${trimmed}`}>{trimmed}</a>;
  if (PHONE.test(trimmed) && trimmed.replace(/\D/g, '').length >= 7) {
    return <a href={telHref(trimmed)}>{formatPhone(trimmed)}</a>;
  }
  return <>{value}</>;
}
