/**
 * A server method's answer that is already JSON text (built by the database): sent as it is, not
 * re-serialized. T is what the text encodes.
 */
export class JsonText<T> {
  declare readonly encodes?: T;
  constructor(readonly text: string) {}
}

/** The JSON text of a server method's answer. */
export function jsonTextOf<T>(value: T | JsonText<T>): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
