/** The pure parts of record avatars: the avatar of a record, and checking an association input. */
import { describe, expect, it } from 'vitest';
import { avatarOf, checkAssociationInput, type AvatarRow } from '../../server/platform/records/avatars.ts';
import { PlatformError } from '../../server/platform/core/errors.ts';

const ACCOUNT = { definition: { themeInfo: { color: '5867E8', iconUrl: '/img/icon/account.svg' } } } as never;
const NO_THEME = { definition: { themeInfo: null } } as never;
const LOGO: AvatarRow = {
  record_id: '0018d0000000001AAA',
  photo_url: 'https://logos.example/1.png',
  provider: 'logos.example',
  blue_master_id: '804735132',
  external_id: 'logo-1',
};

describe('avatarOf', () => {
  it("is the object's theme when the record has no picture, with nulls when the object has no theme", () => {
    expect(avatarOf('0018d0000000001AAA', ACCOUNT, undefined)).toMatchObject({
      type: 'Theme',
      backgroundColor: '5867E8',
      iconUrl: '/img/icon/account.svg',
      recordId: '0018d0000000001AAA',
    });
    expect(avatarOf('06A8d0000000001AAA', NO_THEME, undefined)).toMatchObject({
      type: 'Theme',
      backgroundColor: null,
      iconUrl: null,
    });
  });
  it('is the picture when the record has one, with the provider and company id; the eTag changes with it', () => {
    const photo = avatarOf('0018d0000000001AAA', ACCOUNT, LOGO);
    expect(photo).toMatchObject({
      type: 'Photo',
      photoUrl: LOGO.photo_url,
      provider: 'logos.example',
      photoMetadata: { companyBluemasterId: '804735132', responseId: null },
    });
    expect(photo.eTag).not.toBe(
      avatarOf('0018d0000000001AAA', ACCOUNT, { ...LOGO, photo_url: 'https://logos.example/2.png' }).eTag,
    );
  });
});

describe('checkAssociationInput', () => {
  it('accepts the four actions; AssociateAvatar needs an https photoUrl', () => {
    expect(checkAssociationInput({ actionType: 'DisassociateAvatar' })).toEqual({ action: 'DisassociateAvatar' });
    expect(
      checkAssociationInput({ actionType: 'AssociateAvatar', photoUrl: 'https://logos.example/1.png' }).photoUrl?.host,
    ).toBe('logos.example');
  });
  it("refuses anything else with 'Invalid config for updateRecordAvatar'", () => {
    for (const input of [
      { actionType: 'Paint' },
      { actionType: 'AssociateAvatar' },
      { actionType: 'AssociateAvatar', photoUrl: 'http://logos.example/1.png' },
      { actionType: 'AssociateAvatar', photoUrl: 'not a url' },
    ]) {
      try {
        checkAssociationInput(input);
        expect.fail(`accepted ${JSON.stringify(input)}`);
      } catch (error) {
        expect(error).toBeInstanceOf(PlatformError);
        expect((error as PlatformError).message).toMatch(/^Invalid config for updateRecordAvatar: /);
      }
    }
  });
});
