/**
 * The page's entry. The server-rendered page is complete and works without JavaScript (filters and pages are
 * links and forms), so the app that hydrates it is fetched once the page has loaded and its pictures are
 * painted, rather than competing with the HTML and the banner picture for a slow connection and a slow
 * processor; or at once when the visitor reaches for the page before then, whose first input is kept for the
 * app (early-input.ts). The stylesheets are the entry's,
 * so that the server puts them in the document.
 */
import './styles/index.css';
import { keepEarlyInput } from './early-input';

keepEarlyInput();

let loading: Promise<unknown> | undefined;
const loadApp = () => (loading ??= import('./main'));

/** After the next frame is painted. */
const nextPaint = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/** The longest wait for the report of a picture's paint (largestPaintReported) once its frame is painted. */
const PAINT_REPORT_WAIT_MS = 500;

/**
 * Once the browser reports one of the pictures as the page's largest paint. A frame is shown some time after
 * it is painted, and that report comes once it is shown: the app fetched before would be timed as part of the
 * largest paint. At once where the browser makes no such report; after PAINT_REPORT_WAIT_MS where none of the
 * pictures is the largest element (no report of them comes).
 */
function largestPaintReported(pictures: HTMLImageElement[]): Promise<void> {
  if (!pictures.length || !globalThis.PerformanceObserver?.supportedEntryTypes?.includes('largest-contentful-paint'))
    return Promise.resolve();
  return new Promise((done) => {
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      done();
    };
    const observer = new PerformanceObserver((list) => {
      if (
        list
          .getEntries()
          .some((entry) => pictures.includes((entry as LargestContentfulPaint).element as HTMLImageElement))
      )
        finish();
    });
    const timer = setTimeout(finish, PAINT_REPORT_WAIT_MS);
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

async function afterPaintedPictures() {
  // A picture loaded is not yet painted: it is decoded first, off the main thread.
  const pictures = [...document.images].filter((image) => image.loading !== 'lazy');
  await Promise.all(pictures.map((image) => image.decode().catch(() => undefined)));
  await nextPaint();
  await largestPaintReported(pictures);
  await loadApp();
}

// A representative's page is complete as the server makes it: only its Copy link button needs a script.
if (location.pathname.startsWith('/reps/')) void import('./representative/copy-link');
else {
  for (const type of ['pointerdown', 'keydown', 'focusin'])
    window.addEventListener(type, () => void loadApp(), { once: true, capture: true });
  if (document.readyState === 'complete') void afterPaintedPictures();
  else window.addEventListener('load', () => void afterPaintedPictures(), { once: true });
}
