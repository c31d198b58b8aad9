/**
 * The combobox alone, in the states the Contact Us page does not use (required, read-only, select-only),
 * for tests/e2e/combobox.test.ts. Built with React's development code, served by the test itself.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Combobox, type ComboboxOption } from '../../../web/src/components/combobox/Combobox.tsx';
import '../../../web/src/styles/index.css';

const COUNTRIES: ComboboxOption[] = [
  'Algeria',
  'Canada',
  'Central African Republic',
  'Germany',
  'Niger',
  'Nigeria',
  'Norway',
  'United States',
].map((name) => ({
  value: name,
  label: name,
}));
const TWO: ComboboxOption[] = [
  { value: 'a', label: 'Alpha', description: 'The first' },
  { value: 'b', label: 'Beta' },
];

function Harness() {
  const [required, setRequired] = useState<string | null>(null);
  const [selectOnly, setSelectOnly] = useState<string | null>(null);
  const [changes, setChanges] = useState<string[]>([]);
  const log = (name: string) => (value: string | null) => setChanges((all) => [...all, `${name}=${value}`]);
  return (
    <main style={{ maxWidth: '24rem', margin: '2rem auto', display: 'grid', gap: '1.5rem' }}>
      <h1>Combobox harness</h1>
      <Combobox
        label="Required country"
        placeholder="--Select Country--"
        required
        options={COUNTRIES}
        value={required}
        onChange={(value) => {
          setRequired(value);
          log('required')(value);
        }}
      />
      <Combobox label="Disabled country" required disabled options={COUNTRIES} value={null} />
      <Combobox label="Read-only country" required readOnly options={COUNTRIES} value={null} />
      <Combobox
        label="Select-only country"
        placeholder="--Select Country--"
        searchable={false}
        options={COUNTRIES}
        value={selectOnly}
        onChange={(value) => {
          setSelectOnly(value);
          log('select-only')(value);
        }}
      />
      <Combobox label="Two options" options={TWO} value={null} />
      <output data-testid="changes">{changes.join(' ')}</output>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
