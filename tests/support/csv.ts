/** Reading the list export's CSV in tests, with nothing of the code that writes it. */
/** A tiny RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks; records end with CRLF. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === '') {
      i++;
      for (;;) {
        const end = text.indexOf('"', i);
        if (end < 0) throw new Error('An unterminated quoted field');
        field += text.slice(i, end);
        i = end + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else if (char === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else {
      field += char;
      i++;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('The last record does not end with CRLF');
  return records;
}

/** The import's side of the escaping rule (server/platform/lists/csv.ts): one leading ' taken off. */
export const unescapeCell = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);
