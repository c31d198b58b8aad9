/**
 * The one script of a representative's page (boot.ts loads it there instead of the app): Copy link puts the
 * page's address (without its query) on the clipboard and says what happened in the live region after it, which
 * screen readers announce. A button, so Enter and Space work as a click.
 */
const button = document.querySelector<HTMLButtonElement>('[data-copy-link]');
const said = document.querySelector<HTMLElement>('[data-copy-link-status]');

button?.addEventListener('click', () => {
  const url = location.origin + location.pathname;
  const say = (text: string) => {
    if (!said) return;
    // Emptied first, so that a second copy is announced again.
    said.textContent = '';
    setTimeout(() => (said.textContent = text), 50);
  };
  // The clipboard API is there only in a secure context (https, or localhost).
  (navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('No clipboard'))).then(
    () => say('Link copied'),
    () => say(`Could not copy the link: ${url}`),
  );
});

export {};
