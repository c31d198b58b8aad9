/**
 * The page for an address the site does not have, in the store's frame (banner, footer), with the way back to
 * the Contact Us page. The server answers it with status 404 (web/ssr/index.ts).
 */
import { Section } from './components/layout/Section';
import { StorePage } from './components/layout/StorePage';
import { usePageContent } from './content';

export function NotFoundPage() {
  const { banner } = usePageContent();
  return (
    <StorePage banner={{ ...banner, heading: 'Page not found', headingTag: 'h1', intro: undefined, height: 180 }}>
      <Section
        className="not-found"
        columns={[
          {
            columnKey: 'not-found',
            columnName: 'Not found',
            columnWidth: 12,
            children: (
              <p>
                There is no page at this address. <a href="/">Go to the Contact Us page</a>.
              </p>
            ),
          },
        ]}
      />
    </StorePage>
  );
}
