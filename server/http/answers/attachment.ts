/**
 * The Content-Disposition of a download (RFC 6266): an ASCII file name for every client, and the name in UTF-8
 * (RFC 8187's filename*) for those that read it. `name` is cleaned of what no file system or quoted string
 * takes and cut to 100 characters; blank, it is `fallback`.
 */
export function attachmentDisposition(name: string, extension: string, fallback: string): string {
  const base =
    name
      .normalize('NFC')
      // Characters no file system takes, or that end the quoted string, and control characters.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 100)
      .trim() || fallback;
  const ascii = base.replace(/[^\x20-\x7e]+/g, '_');
  const encoded = encodeURIComponent(`${base}.${extension}`).replace(
    /['()*!]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encoded}`;
}
