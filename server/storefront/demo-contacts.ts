/**
 * A deterministic demo set of Contact Us records: the n-th contact is always the same, so that seeds,
 * examples and benchmarks agree run after run. Places are real (country-state-city); companies, streets,
 * phone numbers (555-01xx) and e-mail domains (.example) are made up.
 */
import { createRequire } from 'node:module';
import { countriesWithStates } from '../platform/metadata.ts';

/** The country data package's cities, loaded when contacts are seeded rather than at every start. */
const cityData = (): typeof import('country-state-city').City =>
  createRequire(import.meta.url)('country-state-city').City;

export const CONTACT_US_OBJECT = 'APT_Contact_Us__c';
export const CONTACT_US_KEY_PREFIX = 'a1C';
export const BRANDS = [
  'Arcline',
  'Boltwright',
  'Conduvex',
  'Dynaswitch',
  'Ferrolux',
  'Gridmark',
  'Helioflex',
  'Ironspan',
];

/**
 * The company's own default contact: the first record of the object. The default-contact block shows
 * address line 2 followed by the state (product spec §2), so line 2 holds the city, as the store's real
 * default contact does, and line 1 the street with the suite.
 */
const DEFAULT_CONTACT: Omit<ContactFields, 'Name'> = {
  APT_Company_Name__c: 'Northgate Electrical Products, Inc.',
  APT_Address_1__c: '1200 Commerce Drive, Suite 400',
  APT_Address_2__c: 'Milwaukee',
  APT_City__c: 'Milwaukee',
  APT_Primary_State__c: 'Wisconsin',
  APT_Country__c: 'United States',
  APT_UI_Country__c: 'United States',
  APT_Zip__c: '53202',
  APT_Phone__c: '414-555-0100',
  APT_Email__c: 'contact@northgate-electrical.example',
  APT_Brand__c: BRANDS.join(';'),
  APT_Default_Contact__c: true,
};

export interface ContactFields {
  Name: string;
  APT_Company_Name__c: string;
  APT_Address_1__c: string;
  APT_Address_2__c: string | null;
  APT_City__c: string;
  APT_Primary_State__c: string | null;
  APT_Country__c: string;
  APT_UI_Country__c: string;
  APT_Zip__c: string;
  APT_Phone__c: string;
  APT_Email__c: string;
  APT_Brand__c: string;
  APT_Default_Contact__c: boolean;
}

/** Share of contacts by ISO country code; the rest are spread over every country that has states. */
const COUNTRY_SHARES: [string, number][] = [
  ['US', 0.45],
  ['CA', 0.12],
  ['MX', 0.06],
  ['GB', 0.04],
  ['DE', 0.04],
  ['AU', 0.03],
  ['BR', 0.03],
  ['IN', 0.02],
];
const TRADES = [
  'Electrical Supply',
  'Electric Supply',
  'Power Systems',
  'Industrial Controls',
  'Automation',
  'Wire & Cable',
  'Lighting Supply',
  'Electrical Distributors',
  'Switchgear',
  'Motor & Drive',
];
const SUFFIXES = ['Inc.', 'LLC', 'Co.', 'Ltd.', 'Group', 'Corp.'];
const STREETS = [
  'Industrial',
  'Commerce',
  'Harbor',
  'Maple',
  'Enterprise',
  'Railway',
  'Foundry',
  'Mill',
  'Station',
  'Market',
  'Bridge',
  'Lakeview',
];
const STREET_TYPES = ['Road', 'Street', 'Avenue', 'Boulevard', 'Drive', 'Way', 'Parkway', 'Lane'];
const UNITS = ['Suite', 'Unit', 'Building', 'Floor'];

/** mulberry32: a small, fast, seedable generator; one stream per contact. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)];
const digits = (count: number, next: () => number) =>
  Array.from({ length: count }, () => Math.floor(next() * 10)).join('');
const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

type Geo = ReturnType<typeof countriesWithStates>;
let geo: { countries: Geo; byIso: Map<string, Geo[number]>; withStates: Geo } | undefined;
const cities = new Map<string, string[]>();

function geography() {
  if (!geo) {
    const countries = countriesWithStates();
    geo = {
      countries,
      byIso: new Map(countries.map((c) => [c.isoCode, c])),
      withStates: countries.filter((c) => c.states.length > 0),
    };
  }
  return geo;
}

function citiesOf(countryIso: string, stateIso: string): string[] {
  const key = `${countryIso}/${stateIso}`;
  let names = cities.get(key);
  if (!names) {
    names = cityData()
      .getCitiesOfState(countryIso, stateIso)
      .map((city) => city.name);
    cities.set(key, names);
  }
  return names;
}

const inhabited = new Map<string, Geo[number]['states']>();

/** The states of a country that have cities in the data (not, say, uninhabited islands); all if none do. */
function inhabitedStates(country: Geo[number]): Geo[number]['states'] {
  let states = inhabited.get(country.isoCode);
  if (!states) {
    const withCities = country.states.filter((state) => citiesOf(country.isoCode, state.isoCode).length > 0);
    states = withCities.length ? withCities : country.states;
    inhabited.set(country.isoCode, states);
  }
  return states;
}

/**
 * The first three digits of the US ZIP codes of each state and territory (USPS), as ranges: a demo address's ZIP
 * code starts within its state's range.
 */
const US_ZIP_PREFIXES: Record<string, [number, number]> = {
  AL: [350, 369],
  AK: [995, 999],
  AS: [967, 967],
  AZ: [850, 865],
  AR: [716, 729],
  CA: [900, 961],
  CO: [800, 816],
  CT: [60, 69],
  DE: [197, 199],
  DC: [200, 205],
  FL: [320, 349],
  GA: [300, 319],
  GU: [969, 969],
  HI: [967, 968],
  ID: [832, 838],
  IL: [600, 629],
  IN: [460, 479],
  IA: [500, 528],
  KS: [660, 679],
  KY: [400, 427],
  LA: [700, 714],
  ME: [39, 49],
  MD: [206, 219],
  MA: [10, 27],
  MI: [480, 499],
  MN: [550, 567],
  MS: [386, 397],
  MO: [630, 658],
  MT: [590, 599],
  NE: [680, 693],
  NV: [889, 898],
  NH: [30, 38],
  NJ: [70, 89],
  NM: [870, 884],
  NY: [100, 149],
  NC: [270, 289],
  ND: [580, 588],
  MP: [969, 969],
  OH: [430, 459],
  OK: [730, 749],
  OR: [970, 979],
  PA: [150, 196],
  PR: [6, 9],
  RI: [28, 29],
  SC: [290, 299],
  SD: [570, 577],
  TN: [370, 385],
  TX: [750, 799],
  UT: [840, 847],
  VT: [50, 59],
  VA: [220, 246],
  VI: [8, 8],
  WA: [980, 994],
  WV: [247, 268],
  WI: [530, 549],
  WY: [820, 831],
};

/** The first letters of Canadian postal codes by province or territory (Canada Post). */
const CA_POSTAL_LETTERS: Record<string, string> = {
  NL: 'A',
  NS: 'B',
  PE: 'C',
  NB: 'E',
  QC: 'GHJ',
  ON: 'KLMNP',
  MB: 'R',
  SK: 'S',
  AB: 'T',
  BC: 'V',
  NT: 'X',
  NU: 'X',
  YT: 'Y',
};

/** The first digit of Australian postcodes by state or territory. */
const AU_POSTCODE_DIGITS: Record<string, string> = {
  ACT: '2',
  NSW: '2',
  NT: '0',
  QLD: '4',
  SA: '5',
  TAS: '7',
  VIC: '3',
  WA: '6',
};

/**
 * A postal code of the country's form; for the United States, Canada and Australia, of the state's range. Every
 * code takes six draws from the contact's stream, whatever its country's form.
 */
export function postalCode(countryIso: string, stateIso: string | undefined, next: () => number): string {
  const draws = Array.from({ length: 6 }, next);
  const digit = (at: number) => String(Math.floor(draws[at] * 10));
  const within = (at: number, low: number, high: number) => low + Math.floor(draws[at] * (high - low + 1));
  const letter = (at: number, letters = 'ABCEGHJKLMNPRSTVWXYZ') => letters[Math.floor(draws[at] * letters.length)];
  switch (countryIso) {
    case 'US': {
      const [low, high] = US_ZIP_PREFIXES[stateIso ?? ''] ?? [100, 999];
      return `${String(within(0, low, high)).padStart(3, '0')}${digit(1)}${digit(2)}`;
    }
    case 'CA':
      return `${letter(0, CA_POSTAL_LETTERS[stateIso ?? ''] ?? 'K')}${digit(1)}${letter(2)} ${digit(3)}${letter(4)}${digit(5)}`;
    case 'AU':
      return `${AU_POSTCODE_DIGITS[stateIso ?? ''] ?? '2'}${digit(1)}${digit(2)}${digit(3)}`;
    case 'GB':
      return `${['EC', 'SW', 'M', 'B', 'LS'][Math.floor(draws[0] * 5)]}${1 + Math.floor(draws[1] * 9)} ${digit(2)}${letter(3, 'ABDEFGHJLNPQRSTUWXYZ')}${letter(4, 'ABDEFGHJLNPQRSTUWXYZ')}`;
    case 'BR':
      return `${digit(0)}${digit(1)}${digit(2)}${digit(3)}${digit(4)}-${digit(5)}${digit(1)}${digit(3)}`;
    case 'IN':
      return `${1 + Math.floor(draws[0] * 8)}${digit(1)}${digit(2)}${digit(3)}${digit(4)}${digit(5)}`;
    case 'DE':
    case 'MX':
      return `${digit(0)}${digit(1)}${digit(2)}${digit(3)}${digit(4)}`;
    default:
      return `${1 + Math.floor(draws[0] * 9)}${digit(1)}${digit(2)}${digit(3)}`;
  }
}

/** An e-mail domain from the company's name: whole words only, at most 40 characters before ".example". */
export function emailDomain(company: string): string {
  let domain = '';
  for (const word of slug(company).split('-')) {
    const longer = domain ? `${domain}-${word}` : word;
    if (longer.length > 40) break;
    domain = longer;
  }
  return `${domain}.example`;
}

function phone(country: Geo[number], next: () => number): string {
  const area = `${2 + Math.floor(next() * 8)}${digits(2, next)}`;
  const line = `01${digits(2, next)}`;
  if (country.isoCode === 'US' || country.isoCode === 'CA') {
    return pick([`${area}-555-${line}`, `(${area}) 555-${line}`, `1-${area}-555-${line}`, `${area}.555.${line}`], next);
  }
  return `+${country.phonecode.replace(/^\+/, '').split(/\D/)[0]} ${digits(2, next)} ${digits(4, next)} ${digits(4, next)}`;
}

/** The fields of the sequence-th contact (sequence 1 is the default contact). */
export function demoContact(sequence: number): ContactFields {
  const name = `CU-${String(sequence).padStart(6, '0')}`;
  if (sequence === 1) return { ...DEFAULT_CONTACT, Name: name };
  const next = random(Math.imul(sequence, 2654435761) ^ 0x5eed);
  const { byIso, withStates } = geography();
  let country: Geo[number] | undefined;
  let roll = next();
  for (const [iso, share] of COUNTRY_SHARES) {
    if (roll < share) {
      country = byIso.get(iso);
      break;
    }
    roll -= share;
  }
  country ??= pick(withStates, next);
  const state = country.states.length ? pick(inhabitedStates(country), next) : null;
  const cityNames = state ? citiesOf(country.isoCode, state.isoCode) : [];
  const city = cityNames.length ? pick(cityNames, next) : (state?.name ?? country.name);
  const company = `${city} ${pick(TRADES, next)} ${pick(SUFFIXES, next)}`;
  const brandCount = 1 + Math.floor(next() * 3);
  const brands = new Set<string>();
  while (brands.size < brandCount) brands.add(pick(BRANDS, next));
  return {
    Name: name,
    APT_Company_Name__c: company,
    APT_Address_1__c: `${1 + Math.floor(next() * 9899)} ${pick(STREETS, next)} ${pick(STREET_TYPES, next)}`,
    APT_Address_2__c: next() < 0.35 ? `${pick(UNITS, next)} ${1 + Math.floor(next() * 480)}` : null,
    APT_City__c: city,
    APT_Primary_State__c: state?.name ?? null,
    APT_Country__c: country.name,
    APT_UI_Country__c: country.name,
    APT_Zip__c: postalCode(country.isoCode, state?.isoCode, next),
    APT_Phone__c: phone(country, next),
    APT_Email__c: `${pick(['sales', 'info', 'orders', 'contact'], next)}@${emailDomain(company)}`,
    APT_Brand__c: BRANDS.filter((brand) => brands.has(brand)).join(';'),
    APT_Default_Contact__c: false,
  };
}
