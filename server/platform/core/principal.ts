/**
 * Who is calling, and what their profile lets them do. Profiles are data (metadata/profiles/*.json): object
 * permissions per object ("*" is the default for objects not named) and field permissions as overrides
 * ("Object.Field"). A field the profile does not name follows its object: readable when the object is,
 * editable when the object is editable. Pure functions, no HTTP and no database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const PROFILES_DIR = resolve(import.meta.dirname, '../metadata/profiles');

interface ObjectPermissions {
  read: boolean;
  create: boolean;
  edit: boolean;
  delete: boolean;
  /** Sees every record of the object, whoever owns it. */
  viewAll: boolean;
  /** Edits and deletes every record of the object, whoever owns it. */
  modifyAll: boolean;
}

interface FieldPermissions {
  read: boolean;
  edit: boolean;
}

export interface Profile {
  id: string;
  name: string;
  userType: 'Guest' | 'Standard';
  description: string;
  objects: Record<string, ObjectPermissions>;
  fields: Record<string, FieldPermissions>;
}

export interface Principal {
  /** The user's id: the site guest user's for guests. */
  userId: string;
  isGuest: boolean;
  profile: Profile;
}

/** The demo users' ids: the administrator, the standard user and the site's guest user. */
export const ADMIN_USER_ID = '0058d0000000001AAA';
export const STANDARD_USER_ID = '0058d0000000002AAA';
export const GUEST_USER_ID = '0058d0000000003AAA';

const NO_ACCESS: ObjectPermissions = {
  read: false,
  create: false,
  edit: false,
  delete: false,
  viewAll: false,
  modifyAll: false,
};

let profiles: Map<string, Profile> | undefined;

/** Every profile, by name ("Contact Us Profile", "Standard User", "System Administrator"). */
function loadProfiles(): Map<string, Profile> {
  profiles ??= new Map(
    readdirSync(PROFILES_DIR)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(resolve(PROFILES_DIR, name), 'utf8')) as Profile)
      .map((profile) => [profile.name, profile]),
  );
  return profiles;
}

export function profileNamed(name: string): Profile {
  const profile = loadProfiles().get(name);
  if (!profile) throw new Error(`No profile named ${name}`);
  return profile;
}

export function profileById(id: string): Profile | undefined {
  return [...loadProfiles().values()].find((profile) => profile.id === id);
}

/** The principal of every caller without a valid session. */
export const GUEST: Principal = Object.freeze({
  userId: GUEST_USER_ID,
  isGuest: true,
  get profile() {
    return profileNamed('Contact Us Profile');
  },
});

export function objectPermissions(principal: Principal, objectApiName: string): ObjectPermissions {
  const { objects } = principal.profile;
  return objects[objectApiName] ?? objects['*'] ?? NO_ACCESS;
}

export function fieldPermissions(principal: Principal, objectApiName: string, fieldApiName: string): FieldPermissions {
  const object = objectPermissions(principal, objectApiName);
  const override = principal.profile.fields[`${objectApiName}.${fieldApiName}`];
  if (override) return { read: object.read && override.read, edit: object.edit && override.read && override.edit };
  return { read: object.read, edit: object.edit };
}
