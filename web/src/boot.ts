/**
 * The page's entry. The server-rendered page is complete and works without JavaScript (filters and pages are
 * links and forms), so the app that hydrates it is fetched once the page has loaded and its pictures are
 * painted, rather than competing with the HTML and the banner picture for a slow connection and a slow
 * processor; or at once when the visitor reaches for the page before then. The stylesheets are the entry's,
 * so that the server puts them in the document.
 */
import './styles/index.css';

let loading: Promise<unknown> | undefined;
const loadApp = () => (loading ??= import('./main'));

/** After the next frame is painted. */
const nextPaint = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

async function afterPaintedPictures() {
  // A picture loaded is not yet painted: it is decoded first, off the main thread.
  const pictures = [...document.images].filter((image) => image.loading !== 'lazy');
  await Promise.all(pictures.map((image) => image.decode().catch(() => undefined)));
  await nextPaint();
  await loadApp();
}

for (const type of ['pointerdown', 'keydown', 'focusin']) window.addEventListener(type, () => void loadApp(), { once: true, capture: true });
if (document.readyState === 'complete') void afterPaintedPictures();
else window.addEventListener('load', () => void afterPaintedPictures(), { once: true });
