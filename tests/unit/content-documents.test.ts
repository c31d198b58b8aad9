/** The pure parts of file uploads: checking and decoding an upload, extensions and file types. */
import { describe, expect, it } from 'vitest';
import { checkUpload, extensionOf, fileTypeOf, MAX_FILE_BYTES } from '../../server/platform/content-documents.ts';
import { PlatformError } from '../../server/platform/core/errors.ts';

const file = (content: string, name = 'Price List.PDF', type = 'application/pdf') => ({
  fileData: { name, type, content },
});

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).status).toBe(400);
    return (error as PlatformError).message;
  }
  throw new Error('did not throw');
}

describe('checkUpload', () => {
  it('decodes the content and derives the title, extension and file type from the name', () => {
    const upload = checkUpload('createContentDocumentAndVersion', file(Buffer.from('hello').toString('base64')));
    expect(upload.bytes.toString()).toBe('hello');
    expect(upload).toMatchObject({
      name: 'Price List.PDF',
      title: 'Price List',
      extension: 'pdf',
      fileType: 'PDF',
      description: null,
      mimeType: 'application/pdf',
    });
    expect(checkUpload('createContentVersion', { ...file('QUJD'), title: 'Given title' }).title).toBe('Given title');
  });

  it("says 'Invalid config for' the operation when fileData is not an object", () => {
    for (const fileData of ['text', null, ['a'], 3]) {
      expect(messageOf(() => checkUpload('createContentVersion', { fileData }))).toBe(
        'Invalid config for createContentVersion: fileData must be an object',
      );
    }
  });

  it('refuses content that is not standard padded base64, an empty file, a path as name, a bad MIME type', () => {
    expect(messageOf(() => checkUpload('createContentDocumentAndVersion', file('QUJ')))).toContain('base64');
    expect(messageOf(() => checkUpload('createContentDocumentAndVersion', file('QU-D')))).toContain('base64');
    expect(messageOf(() => checkUpload('createContentDocumentAndVersion', file('')))).toContain('empty');
    expect(messageOf(() => checkUpload('createContentDocumentAndVersion', file('QUJD', '../etc/passwd')))).toContain(
      'fileData.name',
    );
    expect(messageOf(() => checkUpload('createContentDocumentAndVersion', file('QUJD', 'a.pdf', 'pdf')))).toContain(
      'fileData.type',
    );
  });

  it('refuses a file larger than the limit before decoding it, and takes one exactly at the limit', () => {
    // 3,495,253 groups of three bytes and one group of one byte: exactly 10,485,760 bytes.
    const atLimit = `${'AAAA'.repeat(Math.floor(MAX_FILE_BYTES / 3))}AA==`;
    expect(checkUpload('createContentDocumentAndVersion', file(atLimit)).bytes.length).toBe(MAX_FILE_BYTES);
    expect(
      messageOf(() =>
        checkUpload('createContentDocumentAndVersion', file('AAAA'.repeat(Math.floor(MAX_FILE_BYTES / 3) + 1))),
      ),
    ).toContain('larger than');
  });
});

describe('extensionOf and fileTypeOf', () => {
  it('finds the lower-cased extension and its platform file type', () => {
    expect(extensionOf('report.final.DOCX')).toBe('docx');
    expect(fileTypeOf('docx')).toBe('WORD_X');
    expect(extensionOf('README')).toBeNull();
    expect(extensionOf('.profile')).toBeNull();
    expect(fileTypeOf(null)).toBe('UNKNOWN');
    expect(fileTypeOf('xyz')).toBe('UNKNOWN');
  });
});
