/**
 * North American numbers (10 digits, or 11 beginning with the country code 1) as (xxx) xxx-xxxx;
 * anything else exactly as stored.
 */
export function formatPhone(phone: string): string {
  const digits = northAmericanDigits(phone);
  if (!digits) return phone;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** A tel: URI for the number: +1 and ten digits for North American numbers, else the stored digits. */
export function telHref(phone: string): string {
  const digits = northAmericanDigits(phone);
  if (digits) return `tel:+1${digits}`;
  // Dial what comes before any text such as an extension ("x12", "ext. 12").
  const number = phone.trim().split(/[a-z]/i)[0] ?? '';
  return `tel:${number.startsWith('+') ? '+' : ''}${number.replace(/\D/g, '')}`;
}

/** The ten national digits of a North American number, or null when the number is not one. */
function northAmericanDigits(phone: string): string | null {
  // Only separators may surround the digits: letters (an extension such as "x12") mean it is not a plain number.
  if (!/^[\d\s().+-]+$/.test(phone.trim())) return null;
  const digits = phone.replace(/\D/g, '');
  const international = phone.trim().startsWith('+');
  if (digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  // "+" followed by 10 digits is another country's number (e.g. +33 1 23 45 67 8), not a NA one.
  if (digits.length === 10 && !international) return digits;
  return null;
}
