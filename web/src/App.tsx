import { ContactLocator } from './components/ContactLocator';
import { DefaultContactBlock } from './components/DefaultContactBlock';

export function App() {
  return (
    <main className="page">
      <header className="page__intro">
        <h1 className="page__title">Contact Us</h1>
        <p className="page__lead">Connect with an authorized sales representative in your area.</p>
      </header>
      <DefaultContactBlock />
      <ContactLocator />
    </main>
  );
}
