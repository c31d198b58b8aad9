import { ContactLocator } from './components/ContactLocator';
import { DefaultContactBlock } from './components/DefaultContactBlock';
import { HiddenRegions } from './components/HiddenRegions';
import { Section } from './components/layout/Section';
import { StorePage } from './components/layout/StorePage';
import { TextBlock } from './components/layout/TextBlock';
import { usePageContent } from './content';
import { useLocation } from './location';
import { NotFoundPage } from './NotFoundPage';
import { replayEarlyInput } from './early-input';
import { useEffect } from 'react';

/**
 * The Contact Us page, or the page for an address the site does not have. The sign-in page is given to Root in
 * the app's place (web/ssr/render.tsx, main.tsx), so that the browser loads its code at its own address only.
 */
export function App() {
  const { pathname } = useLocation();
  // Once the page is hydrated: what the visitor pressed or typed before then.
  useEffect(replayEarlyInput, []);
  return pathname === '/' ? <ContactUsPage /> : <NotFoundPage />;
}

/** The Contact Us page, top to bottom: banner; heading and default contact; the locator; hidden regions. */
function ContactUsPage() {
  const content = usePageContent();
  return (
    <>
      <StorePage banner={content.banner} className="page">
        <Section
          className="page__intro"
          labelledBy="page-heading"
          columns={[
            {
              columnKey: 'intro',
              columnName: 'Connect',
              columnWidth: 12,
              children: (
                <>
                  <TextBlock
                    id="page-heading"
                    text={content.heading}
                    headingTag="h1"
                    fontSize={{ mobile: 'heading-large', desktop: 'heading-xlarge' }}
                    textAlign="center"
                    textClass="page__heading"
                  />
                  <DefaultContactBlock supportRows={content.supportRows} />
                </>
              ),
            },
          ]}
        />
        <Section
          className="page__locator"
          columns={[
            { columnKey: 'locator', columnName: 'Contact locator', columnWidth: 12, children: <ContactLocator /> },
          ]}
        />
      </StorePage>
      <HiddenRegions />
    </>
  );
}
