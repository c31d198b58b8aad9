/**
 * Input before hydration, kept for the app. The server's page shows the comboboxes at once, but they work only
 * once the app (fetched after the banner's paint) has hydrated them: a press on one before then would open
 * nothing, and React would put back the value it rendered over text typed into one. The entry (boot.ts) notes
 * the last combobox pressed or typed into; the app, once it has hydrated the page, replays that input on it
 * (App's first effect), if the focus is still there.
 */
let control: HTMLElement | null = null;
let pressed = false;
let text: string | null = null;

const note = (event: Event) => {
  const target = (event.target as Element).closest?.<HTMLElement>('.combobox__control');
  if (!target) return;
  if (target !== control) [pressed, text] = [false, null];
  control = target;
  if (event.type === 'mousedown') pressed = true;
  else text = (target as HTMLInputElement).value;
};

export function keepEarlyInput(): void {
  addEventListener('mousedown', note, true);
  addEventListener('input', note, true);
}

export function replayEarlyInput(): void {
  removeEventListener('mousedown', note, true);
  removeEventListener('input', note, true);
  const target = control;
  control = null;
  if (!target?.isConnected || document.activeElement !== target) return;
  if (text !== null && target instanceof HTMLInputElement) {
    // An input event that React sees as a change: its own record of the value is set through the element
    // (to ''), the typed text past it.
    target.value = '';
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(target, text);
    target.dispatchEvent(new Event('input', { bubbles: true }));
  } else if (pressed && target.getAttribute('aria-expanded') !== 'true') {
    target.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  }
}
