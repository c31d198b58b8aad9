/** A server method's answer that is already JSON text (built by the database): sent as it is, not re-serialized. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The JSON text of a server method's answer. */
export function jsonTextOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
